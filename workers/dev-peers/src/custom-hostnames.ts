// Cloudflare for SaaS custom hostnames API, as a local peer. Protocol notes and sources are in
// app/domains/custom-hostnames.server.ts; this file follows them: bearer auth, the v4 envelope,
// Cloudflare's status and error codes, and status transitions driven by the peer's DNS records.
import { Hono, type Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { csv, type PeersEnv, type PeersHono } from './env.ts'
import { faults, requestLog } from './middleware.ts'
import { deleteHostname, getHostname, insertHostname, listHostnames, listRecords, normaliseName, updateHostnameState, type HostnameRow } from './store.ts'

type CfError = { code: number; message: string; error_chain?: { code: number; message: string }[] }
type Ctx = Context<PeersHono & { Variables: { auth?: string } }>

const fail = (c: Ctx, status: ContentfulStatusCode, errors: CfError[]) => c.json({ success: false, errors, messages: [], result: null }, status)
const ok = (c: Ctx, result: unknown, status: ContentfulStatusCode = 200, extra: Record<string, unknown> = {}) =>
  c.json({ success: true, errors: [], messages: [], result, ...extra }, status)

// Messages as Cloudflare's status-code reference words them.
const E = {
  decode: { code: 1400, message: 'Unable to decode the JSON request body. Check your input and try again.' },
  invalidHostname: {
    code: 1407,
    message: 'Invalid custom hostname. Custom hostnames have to be smaller than 256 characters in length, cannot be IP addresses, cannot contain any special characters such as ``~`!@#$%^&*()=+{}[]\\|;:\'",<>/? and cannot begin or end with a \'-\' character. Please check your input and try again.',
  },
  nonAscii: { code: 1408, message: 'Custom hostnames with non-ASCII characters are not supported. Check your input and try again.' },
  reservedTld: { code: 1409, message: "Reserved top domain custom hostnames, such as 'test', 'example', 'invalid' or 'localhost', is not supported. Check your input and try again." },
  exampleDomain: { code: 1411, message: 'Custom hostnames ending in example.com, example.net, or example.org are prohibited. Check your input and try again.' },
  method: { code: 1432, message: 'The validation method is not supported. Only `http`, `email`, or `txt` are accepted. Check your input and try again.' },
  type: { code: 1433, message: "The validation type is not supported. Only 'dv' is accepted. Check your input and try again." },
  ssl: { code: 1434, message: 'The SSL attribute is invalid. Refer to the API documentation, check your input and try again.' },
  badId: { code: 1435, message: 'The custom hostname ID is invalid. Check your input and try again.' },
  notFound: { code: 1436, message: 'The custom hostname was not found.' },
  idAndHostname: { code: 1438, message: 'Cannot specify other filter parameters in addition to `id`. Only one must be specified. Check your input and try again.' },
  methodAndType: { code: 1440, message: 'Both validation type and validation method are required. Check your input and try again.' },
  duplicate: { code: 1406, message: 'Duplicate custom hostname found.' },
  missingAuth: { code: 9106, message: 'Missing X-Auth-Key, X-Auth-Email or Authorization headers' },
  badAuthFormat: { code: 6003, message: 'Invalid request headers', error_chain: [{ code: 6111, message: 'Invalid format for Authorization header' }] },
  authentication: { code: 10000, message: 'Authentication error' },
  // Seen for unknown routes (workers-sdk notes a 400 with 7003 + 7000); used for unsupported methods.
  noRoute: { code: 7000, message: 'No route for that URI' },
} satisfies Record<string, CfError>

const SSL_METHODS = ['http', 'txt', 'email']
const VERIFICATION_ERROR = 'custom hostname does not CNAME to this zone.'

/** Cloudflare's hostname rules, as far as its error codes describe them. */
function checkHostname(value: unknown, refusedTlds: string[]): CfError | null {
  if (typeof value !== 'string' || value.trim() === '') return E.invalidHostname
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(value)) return E.nonAscii
  const hostname = normaliseName(value)
  if (hostname.length > 255 || /^\d+(\.\d+){3}$/.test(hostname) || hostname.includes(':')) return E.invalidHostname
  const labels = hostname.split('.')
  if (labels.length < 2 || labels.some((l) => !/^(\*|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)$/.test(l))) return E.invalidHostname
  if (refusedTlds.includes(labels[labels.length - 1])) return E.reservedTld
  if (/(^|\.)example\.(com|net|org)$/.test(hostname)) return E.exampleDomain
  return null
}

function checkSsl(value: unknown): CfError | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return E.ssl
  const { method, type } = value as { method?: unknown; type?: unknown }
  if (method === undefined || type === undefined) return E.methodAndType
  if (typeof method !== 'string' || !SSL_METHODS.includes(method)) return E.method
  if (type !== 'dv') return E.type
  return null
}

async function readJson(c: Ctx): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: JSON.parse(await c.req.text()) }
  } catch {
    return { ok: false }
  }
}

const randomToken = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** The hostname as the API shows it. */
export function serialise(row: HostnameRow) {
  const sslActive = row.ssl_status === 'active'
  const validationRecords = sslActive
    ? []
    : row.ssl_method === 'txt'
      ? [{ status: 'pending', txt_name: row.validation_name, txt_value: row.validation_value }]
      : row.ssl_method === 'http'
        ? [{ status: 'pending', http_url: `http://${row.hostname}/.well-known/acme-challenge/${row.validation_value.slice(0, 16)}`, http_body: row.validation_value }]
        : [{ status: 'pending', emails: [`admin@${row.hostname}`, `webmaster@${row.hostname}`] }]
  return {
    id: row.id,
    hostname: row.hostname,
    ssl: {
      id: row.ssl_id,
      type: row.ssl_type,
      method: row.ssl_method,
      status: row.ssl_status,
      validation_records: validationRecords,
      settings: {},
      bundle_method: 'ubiquitous',
      wildcard: false,
      certificate_authority: 'google',
    },
    status: row.status,
    ...(row.status === 'pending' ? { verification_errors: [VERIFICATION_ERROR] } : {}),
    ownership_verification: { type: 'txt', name: row.ownership_name, value: row.ownership_value },
    ownership_verification_http: {
      http_url: `http://${row.hostname}/.well-known/cf-custom-hostname-challenge/${row.id}`,
      http_body: row.ownership_value,
    },
    created_at: row.created_at,
  }
}

/** What the peer's DNS says about a hostname, the way Cloudflare would look at it. */
async function dnsFacts(env: PeersEnv, row: HostnameRow) {
  const [own, ownership, validation] = await Promise.all([
    listRecords(env.PEERS_DB, row.hostname),
    listRecords(env.PEERS_DB, row.ownership_name),
    listRecords(env.PEERS_DB, row.validation_name),
  ])
  const apexIps = csv(env.PEER_APEX_IPS)
  const target = normaliseName(env.PEER_CNAME_TARGET)
  const routed = own.some((r) => (r.type === 'CNAME' && normaliseName(r.value) === target) || ((r.type === 'A' || r.type === 'AAAA') && apexIps.includes(r.value.toLowerCase())))
  const ownershipTxt = ownership.some((r) => r.type === 'TXT' && r.value === row.ownership_value)
  const validationTxt = validation.some((r) => r.type === 'TXT' && r.value === row.validation_value)
  return { routed, ownershipTxt, validationTxt }
}

const SSL_NEXT: Record<string, string> = { initializing: 'pending_validation', pending_issuance: 'pending_deployment', pending_deployment: 'active' }

/**
 * One step per read, so a polling UI walks visibly through the states (Cloudflare validates
 * asynchronously too): `status` pending → active on the read after the one that first saw the
 * ownership TXT or the CNAME/A to us; `ssl.status` initializing → pending_validation →
 * (validation TXT present) pending_issuance → pending_deployment → active.
 */
async function advance(env: PeersEnv, row: HostnameRow): Promise<HostnameRow> {
  const facts = await dnsFacts(env, row)
  let status = row.status
  let sslStatus = row.ssl_status
  let ownershipSeenAt = row.ownership_seen_at
  if (status === 'pending') {
    if (!(facts.routed || facts.ownershipTxt)) ownershipSeenAt = null
    else if (ownershipSeenAt === null) ownershipSeenAt = Date.now()
    else status = 'active'
  }
  if (sslStatus === 'pending_validation') {
    const dcv = row.ssl_method === 'txt' ? facts.validationTxt : row.ssl_method === 'http' ? facts.routed : false
    if (dcv) sslStatus = 'pending_issuance'
  } else if (SSL_NEXT[sslStatus]) {
    sslStatus = SSL_NEXT[sslStatus]
  }
  if (status === row.status && sslStatus === row.ssl_status && ownershipSeenAt === row.ownership_seen_at) return row
  await updateHostnameState(env.PEERS_DB, row.id, { status, ssl_status: sslStatus, ownership_seen_at: ownershipSeenAt })
  return { ...row, status, ssl_status: sslStatus, ownership_seen_at: ownershipSeenAt }
}

export const customHostnamesPeer = new Hono<PeersHono & { Variables: { auth?: string } }>()

customHostnamesPeer.use('*', requestLog('cloudflare'), faults('cloudflare'))

// Bearer token, answered the way api.cloudflare.com does.
customHostnamesPeer.use('*', async (c, next) => {
  const header = c.req.header('Authorization')
  if (!header) {
    c.set('auth', 'missing')
    return fail(c, 400, [E.missingAuth])
  }
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header)
  if (!match) {
    c.set('auth', 'malformed')
    return fail(c, 400, [E.badAuthFormat])
  }
  if (match[1] !== c.env.PEER_CF_API_TOKEN) {
    c.set('auth', 'wrong')
    return fail(c, 403, [E.authentication])
  }
  c.set('auth', 'ok')
  const zoneId = c.req.param('zoneId')
  if (zoneId !== c.env.PEER_ZONE_ID) {
    return fail(c, 400, [
      { code: 7003, message: `Could not route to /zones/${zoneId}/custom_hostnames, perhaps your object identifier is invalid?` },
      E.noRoute,
    ])
  }
  return next()
})

const zoneOf = (c: Ctx) => c.req.param('zoneId') as string
const validId = (id: string) => /^[0-9a-f-]{32,36}$/i.test(id)

customHostnamesPeer.post('/', async (c) => {
  const body = await readJson(c)
  if (!body.ok || !body.value || typeof body.value !== 'object') return fail(c, 400, [E.decode])
  const input = body.value as { hostname?: unknown; ssl?: unknown }
  const hostnameError = checkHostname(input.hostname, csv(c.env.PEER_REFUSED_TLDS))
  if (hostnameError) return fail(c, 400, [hostnameError])
  const sslError = checkSsl(input.ssl)
  if (sslError) return fail(c, 400, [sslError])
  const hostname = normaliseName(input.hostname as string)
  const ssl = input.ssl as { method: string; type: string }
  const row: HostnameRow = {
    id: crypto.randomUUID(),
    zone_id: zoneOf(c),
    hostname,
    status: 'pending',
    ssl_id: crypto.randomUUID(),
    ssl_status: 'initializing',
    ssl_method: ssl.method,
    ssl_type: ssl.type,
    ownership_name: `_cf-custom-hostname.${hostname}`,
    ownership_value: crypto.randomUUID(),
    validation_name: `_acme-challenge.${hostname}`,
    validation_value: randomToken(),
    ownership_seen_at: null,
    created_at: new Date().toISOString(),
    updated_at: Date.now(),
  }
  if (!(await insertHostname(c.env.PEERS_DB, row))) return fail(c, 409, [E.duplicate])
  return ok(c, serialise(row), 201)
})

customHostnamesPeer.get('/', async (c) => {
  const hostname = c.req.query('hostname')
  const id = c.req.query('id')
  if (hostname && id) return fail(c, 400, [E.idAndHostname])
  const page = Math.max(1, Number(c.req.query('page')) || 1)
  const perPage = Math.min(Math.max(Number(c.req.query('per_page')) || 20, 5), 50)
  let rows = await listHostnames(c.env.PEERS_DB, zoneOf(c), { hostname, id })
  // A filtered read is a read of that hostname: it moves the state on like GET /:id.
  if (hostname || id) rows = await Promise.all(rows.map((row) => advance(c.env, row)))
  const slice = rows.slice((page - 1) * perPage, page * perPage)
  return ok(c, slice.map(serialise), 200, {
    result_info: { page, per_page: perPage, count: slice.length, total_count: rows.length, total_pages: Math.max(1, Math.ceil(rows.length / perPage)) },
  })
})

customHostnamesPeer.get('/:id', async (c) => {
  const id = c.req.param('id')
  if (!validId(id)) return fail(c, 400, [E.badId])
  const row = await getHostname(c.env.PEERS_DB, zoneOf(c), id)
  if (!row) return fail(c, 404, [E.notFound])
  return ok(c, serialise(await advance(c.env, row)))
})

customHostnamesPeer.patch('/:id', async (c) => {
  const id = c.req.param('id')
  if (!validId(id)) return fail(c, 400, [E.badId])
  const row = await getHostname(c.env.PEERS_DB, zoneOf(c), id)
  if (!row) return fail(c, 404, [E.notFound])
  const body = await readJson(c)
  if (!body.ok || !body.value || typeof body.value !== 'object') return fail(c, 400, [E.decode])
  const input = body.value as { ssl?: unknown }
  if (input.ssl === undefined) return ok(c, serialise(row), 202)
  const sslError = checkSsl(input.ssl)
  if (sslError) return fail(c, 400, [sslError])
  const ssl = input.ssl as { method: string; type: string }
  const unchanged = ssl.method === row.ssl_method && ssl.type === row.ssl_type
  // Same ssl object: "the hostname should pass DCV" — validation starts over where it waits for
  // validation or timed out; issuance already under way, or an issued certificate, carries on.
  // A different method switches validation to it.
  const next: Partial<HostnameRow> = { ssl_method: ssl.method, ssl_type: ssl.type }
  const restartable = row.ssl_status === 'initializing' || row.ssl_status === 'pending_validation' || row.ssl_status.endsWith('_timed_out')
  if (restartable || (!unchanged && row.ssl_status !== 'active')) next.ssl_status = 'pending_validation'
  // A moved hostname is verified again.
  if (row.status === 'moved') Object.assign(next, { status: 'pending', ownership_seen_at: null })
  await updateHostnameState(c.env.PEERS_DB, row.id, next)
  return ok(c, serialise({ ...row, ...next }), 202)
})

customHostnamesPeer.delete('/:id', async (c) => {
  const id = c.req.param('id')
  if (!validId(id)) return fail(c, 400, [E.badId])
  if (!(await deleteHostname(c.env.PEERS_DB, zoneOf(c), id))) return fail(c, 404, [E.notFound])
  return ok(c, { id })
})

customHostnamesPeer.all('/', (c) => fail(c, 405, [E.noRoute]))
customHostnamesPeer.all('/:id', (c) => fail(c, 405, [E.noRoute]))
