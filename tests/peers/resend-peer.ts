// A local stand-in for Resend's POST /emails, speaking the same protocol (see the notes in
// app/mail/transport.server.ts): bearer auth, body validation, Idempotency-Key replay/conflict,
// JSON errors { statusCode, name, message }. Tests hand `peer.fetch` to the transport, or serve
// `peer.app` on a port. Failures can be injected for the next N requests to exercise retries.
import { Hono, type Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'

export type AcceptedEmail = {
  id: string
  from: string
  to: string[]
  subject: string
  html: string | null
  text: string | null
  idempotencyKey: string | null
}

export type PeerRequest = { method: string; url: string; path: string; headers: Record<string, string>; body: string }

type Failure = { status: ContentfulStatusCode; name: string; message: string; retryAfter?: number }

// Loose on purpose: "Name <addr@host>" or a bare address, like Resend accepts.
const ADDRESS = /^(?:[^<>]*<\s*[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+\s*>|[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+)$/
const BARE_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/

const emailBody = z
  .object({
    from: z.string().regex(ADDRESS, 'Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.'),
    to: z.union([
      z.string().regex(ADDRESS, 'Invalid `to` field.'),
      z.array(z.string().regex(ADDRESS, 'Invalid `to` field.')).min(1, 'The `to` field must not be empty.').max(50, 'The `to` field can hold at most 50 addresses.'),
    ]),
    subject: z.string().min(1, 'The `subject` field must not be empty.'),
    html: z.string().optional(),
    text: z.string().optional(),
    cc: z.union([z.string().regex(BARE_ADDRESS), z.array(z.string().regex(BARE_ADDRESS))]).optional(),
    bcc: z.union([z.string().regex(BARE_ADDRESS), z.array(z.string().regex(BARE_ADDRESS))]).optional(),
    reply_to: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .passthrough()
  .refine((b) => b.html !== undefined || b.text !== undefined, { message: 'Either `html` or `text` must be provided.' })

function errorBody(c: Context, status: ContentfulStatusCode, name: string, message: string, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) c.header(k, v)
  return c.json({ statusCode: status, name, message }, status)
}

/** Key order must not matter when comparing two payloads sent under one idempotency key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export function createResendPeer(opts: { apiKey?: string; latencyMs?: number } = {}) {
  const apiKey = opts.apiKey ?? 're_test_peer_key'
  const accepted: AcceptedEmail[] = []
  const requests: PeerRequest[] = []
  const failures: Failure[] = []
  const idempotency = new Map<string, { payload: string; id: string }>()
  const inFlight = new Set<string>()

  const app = new Hono()

  app.post('/emails', async (c) => {
    const raw = await c.req.text()
    requests.push({ method: c.req.method, url: c.req.url, path: c.req.path, headers: Object.fromEntries(c.req.raw.headers), body: raw })

    const auth = c.req.header('Authorization')
    if (!auth) return errorBody(c, 401, 'missing_api_key', 'Missing API key in the authorization header. Include the following header Authorization: Bearer YOUR_API_KEY in the request.')
    if (auth !== `Bearer ${apiKey}`) return errorBody(c, 403, 'invalid_api_key', 'API key is invalid')

    const failure = failures.shift()
    if (failure) {
      return errorBody(c, failure.status, failure.name, failure.message, failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {})
    }

    const key = c.req.header('Idempotency-Key') ?? null
    if (key !== null && (key.length < 1 || key.length > 256)) return errorBody(c, 400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.')

    let json: unknown
    try {
      json = JSON.parse(raw)
    } catch {
      return errorBody(c, 422, 'validation_error', 'Invalid JSON body.')
    }
    const parsed = emailBody.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = issue.path.length ? `\`${issue.path.join('.')}\`: ` : ''
      const missing = issue.code === 'invalid_type' && issue.received === 'undefined'
      return errorBody(c, 422, missing ? 'missing_required_field' : 'validation_error', missing ? `Missing ${field.replace(/: $/, '')} field.` : `${field}${issue.message}`)
    }

    const payload = canonical(json)
    if (key !== null) {
      const previous = idempotency.get(key)
      if (previous) {
        if (previous.payload !== payload) return errorBody(c, 409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.')
        // Replay: the original answer, no second email.
        return c.json({ id: previous.id })
      }
      if (inFlight.has(key)) return errorBody(c, 409, 'concurrent_idempotent_requests', 'Same idempotency key used while original request is still in progress.')
      inFlight.add(key)
    }

    try {
      if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs))
      const id = crypto.randomUUID()
      const body = parsed.data
      accepted.push({
        id,
        from: body.from,
        to: Array.isArray(body.to) ? body.to : [body.to],
        subject: body.subject,
        html: body.html ?? null,
        text: body.text ?? null,
        idempotencyKey: key,
      })
      if (key !== null) idempotency.set(key, { payload, id })
      return c.json({ id })
    } finally {
      if (key !== null) inFlight.delete(key)
    }
  })

  app.all('/emails', (c) => errorBody(c, 405, 'method_not_allowed', 'Method is not allowed for the requested path.'))
  app.notFound((c) => errorBody(c, 404, 'not_found', 'The requested endpoint does not exist.'))

  return {
    app,
    apiKey,
    baseUrl: 'https://resend-peer.test',
    /** Emails the peer accepted (each once, however often it was replayed). */
    accepted,
    /** Every POST /emails as received, including rejected ones. */
    requests,
    /** A fetch that answers from this peer instead of the network. */
    fetch: (input: RequestInfo | URL, init?: RequestInit) => app.fetch(new Request(input, init)) as Promise<Response>,
    /** Answer the next `count` authorised requests with a server error (default 500) or a 429. */
    failNext(count: number, kind: 500 | 502 | 503 | 429 = 500, extra: { retryAfter?: number } = {}) {
      for (let i = 0; i < count; i++) {
        failures.push(
          kind === 429
            ? { status: 429, name: 'rate_limit_exceeded', message: 'Too many requests. Please limit the number of requests per second.', retryAfter: extra.retryAfter }
            : { status: kind, name: 'internal_server_error', message: 'An unexpected error occurred.', retryAfter: extra.retryAfter },
        )
      }
    },
    reset() {
      accepted.length = 0
      requests.length = 0
      failures.length = 0
      idempotency.clear()
      inFlight.clear()
    },
  }
}

export type ResendPeer = ReturnType<typeof createResendPeer>
