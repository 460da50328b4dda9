// Shared by both peers: log every request, and answer from an injected fault when one is pending.
import type { Context, MiddlewareHandler } from 'hono'
import type { PeersHono } from './env.ts'
import { logRequest, takeFault, type FaultTarget } from './store.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Logs method, path, answer status and how the request authenticated (never the token). */
export function requestLog(target: FaultTarget): MiddlewareHandler<PeersHono & { Variables: { auth?: string } }> {
  return async (c, next) => {
    // Decoded by hand: .text() on a form body makes workerd warn about its Content-Type.
    const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? null : new TextDecoder().decode(await c.req.raw.clone().arrayBuffer())
    await next()
    const url = new URL(c.req.url)
    await logRequest(c.env.PEERS_DB, { target, method: c.req.method, path: url.pathname + url.search, status: c.res.status, auth: c.get('auth') ?? null, body })
  }
}

/** SMSAPI's own failures: a cut-off JSON body, or its error object with the HTTP status asked for. */
function smsapiFault(c: Context<PeersHono>, mode: string, status: number) {
  if (mode === 'malformed') return c.body('{"count":1,"list":[{"id":', 200, { 'Content-Type': 'application/json' })
  // 203: too many requests; 201: system internal error (SMSAPI's codes).
  const body = status === 429 ? { error: 203, message: 'Too many requests' } : { error: 201, message: 'System internal error' }
  return c.body(JSON.stringify(body), status as 500, { 'Content-Type': 'application/json' })
}

/**
 * Fault injection (POST /_peer/faults): `status` answers an error the way the real service does,
 * `malformed` a 200 with a cut-off JSON body, `timeout` stalls (default 15 s, longer than the
 * adapters wait) and then answers normally.
 */
export function faults(target: FaultTarget): MiddlewareHandler<PeersHono> {
  return async (c, next) => {
    const fault = await takeFault(c.env.PEERS_DB, target)
    if (!fault) return next()
    if (fault.mode === 'timeout') {
      await sleep(Math.min(fault.delayMs ?? 15_000, 60_000))
      return next()
    }
    if (target === 'smsapi') return smsapiFault(c, fault.mode, fault.status ?? 500)
    if (fault.mode === 'malformed') {
      const cut = target === 'doh' ? '{"Status":0,"TC":false,"Answer":[{"name":' : '{"success":true,"errors":[],"result":{"id":'
      return c.body(cut, 200, { 'Content-Type': target === 'doh' ? 'application/dns-json' : 'application/json' })
    }
    const status = fault.status ?? 500
    const retryAfter = fault.retryAfter ?? (status === 429 ? 30 : null)
    const headers: Record<string, string> = retryAfter !== null && (status === 429 || status === 503) ? { 'Retry-After': String(retryAfter) } : {}
    if (target === 'doh') {
      return c.body(JSON.stringify({ error: status === 429 ? 'Too many requests' : 'Internal server error' }), status as 500, { ...headers, 'Content-Type': 'application/json' })
    }
    if (status === 429) {
      // Cloudflare's API rate limit answer (code 971), with Retry-After.
      return c.body(JSON.stringify({ success: false, errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }], messages: [], result: null }), 429, {
        ...headers,
        'Content-Type': 'application/json',
      })
    }
    if (status === 502 || status === 503 || status === 504) {
      // The edge answers these with an HTML page, not the JSON envelope.
      return c.body(`<!DOCTYPE html><html><head><title>api.cloudflare.com | ${status}</title></head><body><h1>Error ${status}</h1></body></html>`, status, {
        ...headers,
        'Content-Type': 'text/html; charset=UTF-8',
      })
    }
    return c.body(JSON.stringify({ success: false, errors: [{ code: 1500, message: 'Internal Server Error' }], messages: [], result: null }), status as 500, {
      ...headers,
      'Content-Type': 'application/json',
    })
  }
}
