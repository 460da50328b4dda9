// The app's side of the domains worker (service binding DOMAINS). The tenant id always comes
// from the request's host (context.site), never from the browser.
import type { Env } from '#app/utils/env.server.ts'
import { DOMAINS_SERVICE_ORIGIN, type DomainBody, type DomainsListBody } from './contract.ts'

export type ServiceResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; error: string }

async function call<T>(env: Env, method: string, path: string, body?: unknown): Promise<ServiceResult<T>> {
  if (!env.DOMAINS) return { ok: false, status: 503, error: 'domains.error.provider' }
  let response: Response
  try {
    response = await env.DOMAINS.fetch(`${DOMAINS_SERVICE_ORIGIN}${path}`, {
      method,
      headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch (error) {
    console.error(JSON.stringify({ event: 'domains_service_unreachable', path, error: String(error) }))
    return { ok: false, status: 502, error: 'domains.error.provider' }
  }
  const json = (await response.json().catch(() => null)) as (T & { error?: string }) | null
  if (response.ok && json) return { ok: true, status: response.status, body: json }
  return { ok: false, status: response.status, error: json?.error ?? 'domains.error.provider' }
}

const base = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/domains`

export function domainsService(env: Env, tenantId: string) {
  return {
    list: (opts: { refresh?: boolean } = {}) => call<DomainsListBody>(env, 'GET', `${base(tenantId)}${opts.refresh ? '?refresh=1' : ''}`),
    add: (hostname: string) => call<DomainBody>(env, 'POST', base(tenantId), { hostname }),
    check: (domainId: string) => call<DomainBody>(env, 'POST', `${base(tenantId)}/${encodeURIComponent(domainId)}/check`),
    setPrimary: (domainId: string, primary: boolean) => call<DomainsListBody>(env, 'POST', `${base(tenantId)}/${encodeURIComponent(domainId)}/primary`, { primary }),
    remove: (domainId: string) => call<{ deleted: boolean }>(env, 'DELETE', `${base(tenantId)}/${encodeURIComponent(domainId)}`),
  }
}
