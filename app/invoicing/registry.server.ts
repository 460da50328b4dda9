// Which adapter talks to a school's invoicing system, with which credentials and where. In
// development and tests (ENVIRONMENT development/test with the DEV_PEERS binding) every call goes to
// the local peers in workers/dev-peers through that binding, whatever the host in the URL; in
// production to the systems' documented hosts.
import type { FetchLike, InvoicingAdapter } from './adapter.server.ts'
import { fakturowniaAdapter, fakturowniaBaseUrl } from './fakturownia.server.ts'
import { IFIRMA_API_URL, ifirmaAdapter } from './ifirma.server.ts'
import { INFAKT_API_URL, infaktAdapter } from './infakt.server.ts'
import { CREDENTIAL_FIELDS, SECRET_FIELDS, type InvoiceProvider } from './providers.ts'

export { CREDENTIAL_FIELDS, INVOICE_PROVIDERS, isInvoiceProvider, SECRET_FIELDS, type InvoiceProvider } from './providers.ts'

/** Where the dev peers answer (workers/dev-peers/src/{fakturownia,infakt,ifirma}.ts). */
export const PEER_BASE = 'http://invoicing.dev-peers.internal'
const peerUrls = {
  fakturownia: (account: string) => `${PEER_BASE}/fakturownia/${encodeURIComponent(account)}`,
  infakt: `${PEER_BASE}/infakt/v3`,
  ifirma: `${PEER_BASE}/ifirma/iapi`,
}

export type InvoicingEnv = { ENVIRONMENT: string; DEV_PEERS?: Fetcher }

const usesPeers = (env: InvoicingEnv) => (env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'test') && !!env.DEV_PEERS

function peerFetch(env: InvoicingEnv): FetchLike | undefined {
  const peers = env.DEV_PEERS
  if (!usesPeers(env) || !peers) return undefined
  return (input, init) => peers.fetch(new Request(input instanceof Request ? input.url : String(input), init))
}

export function invoicingAdapter(env: InvoicingEnv, provider: InvoiceProvider, c: Record<string, string>, fetchOverride?: FetchLike): InvoicingAdapter {
  const dev = usesPeers(env)
  const fetchImpl = fetchOverride ?? peerFetch(env) ?? fetch
  if (provider === 'fakturownia') {
    const account = c.account ?? ''
    return fakturowniaAdapter({ baseUrl: dev ? peerUrls.fakturownia(account) : fakturowniaBaseUrl(account), apiToken: c.apiToken ?? '' }, fetchImpl)
  }
  if (provider === 'infakt') return infaktAdapter({ baseUrl: dev ? peerUrls.infakt : INFAKT_API_URL, apiKey: c.apiKey ?? '' }, fetchImpl)
  return ifirmaAdapter({ baseUrl: dev ? peerUrls.ifirma : IFIRMA_API_URL, login: c.login ?? '', invoiceKey: c.invoiceKey ?? '' }, fetchImpl)
}

/** What the integrations page shows to recognise the connection: non-secret fields, secrets as …last 4. */
export function publicRefFor(provider: InvoiceProvider, c: Record<string, string>) {
  return CREDENTIAL_FIELDS[provider].map((f) => (SECRET_FIELDS.has(f) ? `…${(c[f] ?? '').slice(-4)}` : (c[f] ?? ''))).join(' · ')
}
