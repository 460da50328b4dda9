// Test helper: drive the dev peers (workers/dev-peers) through a service binding — DNS records,
// injected faults, forced Cloudflare states, the request log.
type Json = Record<string, unknown>

export type PeerFault = { target: 'cloudflare' | 'doh'; mode: 'status' | 'timeout' | 'malformed'; status?: 429 | 500 | 502 | 503 | 504; count?: number; delayMs?: number; retryAfter?: number }
export type PeerRequestLog = { target: string; method: string; path: string; status: number; auth: string | null; body: string | null }

const ORIGIN = 'http://dev-peers.internal'

export function devPeers(binding: Fetcher) {
  async function call<T = Json>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
    const res = await binding.fetch(`${ORIGIN}${path}`, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: init.json === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    })
    if (!res.ok) throw new Error(`dev peers ${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
  return {
    /** A fetch that reaches the peers (for adapters under test). */
    fetch: (input: RequestInfo | URL, init?: RequestInit) => binding.fetch(input as RequestInfo, init as RequestInit<CfProperties>),
    reset: () => call('/_peer/reset', { method: 'POST' }),
    addRecord: (name: string, type: 'A' | 'AAAA' | 'CNAME' | 'TXT', value: string) => call<{ record: { id: string } }>('/_peer/dns/records', { json: { name, type, value } }),
    removeRecords: (name: string, type?: string) => call(`/_peer/dns/records?${new URLSearchParams(type ? { name, type } : { name })}`, { method: 'DELETE' }),
    fault: (fault: PeerFault) => call('/_peer/faults', { json: { count: 1, ...fault } }),
    clearFaults: () => call('/_peer/faults', { method: 'DELETE' }),
    /** Force a Cloudflare state (blocked, moved, *_timed_out, …) on a hostname or id. */
    forceHostname: (idOrHostname: string, state: { status?: string; sslStatus?: string }) => call(`/_peer/custom-hostnames/${encodeURIComponent(idOrHostname)}`, { method: 'PATCH', json: state }),
    customHostnames: async () => (await call<{ customHostnames: { id: string; hostname: string; status: string; ssl: { status: string } }[] }>('/_peer/custom-hostnames')).customHostnames,
    requests: async (target?: 'cloudflare' | 'doh') => (await call<{ requests: PeerRequestLog[] }>(`/_peer/requests${target ? `?target=${target}` : ''}`)).requests,
  }
}

export type DevPeers = ReturnType<typeof devPeers>
