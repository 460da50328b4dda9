// The peers' own JSON API (development only): DNS records for the DoH responder, fault
// injection, a look at the custom hostnames and the request log. Used by tests and by the app's
// /dev/dns page through the DEV_PEERS service binding.
import { Hono } from 'hono'
import { z } from 'zod'
import { serialise } from './custom-hostnames.ts'
import { checkJson, zodJson, type JsonProblem } from '../../shared/zod-json.ts'
import { csv, type PeersHono } from './env.ts'
import {
  addFault,
  addRecord,
  clearFaults,
  deleteRecord,
  deleteRecordsByName,
  FAULT_MODES,
  FAULT_TARGETS,
  listFaults,
  listHostnames,
  listRecords,
  listRequests,
  listSms,
  clearSms,
  normaliseName,
  RECORD_TYPES,
  resetAll,
  updateHostnameState,
} from './store.ts'

const NAME = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?$/
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/
const IPV6 = /^[0-9a-f:]+$/i

const recordInput = z
  .object({
    name: z.string().transform(normaliseName).pipe(z.string().regex(NAME, 'not a DNS name')),
    type: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(RECORD_TYPES)),
    value: z.string().trim().min(1).max(2000),
    ttl: z.number().int().min(1).max(86_400).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.type === 'A' && !IPV4.test(r.value)) ctx.addIssue({ code: 'custom', path: ['value'], message: 'an A record needs an IPv4 address' })
    if (r.type === 'AAAA' && !(IPV6.test(r.value) && r.value.includes(':'))) ctx.addIssue({ code: 'custom', path: ['value'], message: 'an AAAA record needs an IPv6 address' })
    if (r.type === 'CNAME' && !NAME.test(normaliseName(r.value))) ctx.addIssue({ code: 'custom', path: ['value'], message: 'a CNAME record needs a host name' })
  })
  .transform((r) => ({ ...r, value: r.type === 'CNAME' ? normaliseName(r.value) : r.type === 'AAAA' ? r.value.toLowerCase() : r.value }))

const faultInput = z.object({
  target: z.enum(FAULT_TARGETS),
  mode: z.enum(FAULT_MODES),
  status: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
  count: z.number().int().min(1).max(100).default(1),
  delayMs: z.number().int().min(0).max(60_000).optional(),
  retryAfter: z.number().int().min(0).max(3600).optional(),
})

const SSL_STATUSES = ['initializing', 'pending_validation', 'pending_issuance', 'pending_deployment', 'active', 'initializing_timed_out', 'validation_timed_out', 'issuance_timed_out', 'deployment_timed_out'] as const
const HOSTNAME_STATUSES = ['pending', 'active', 'moved', 'blocked', 'pending_blocked', 'deleted'] as const
const hostnameStateInput = z.object({ status: z.enum(HOSTNAME_STATUSES).optional(), sslStatus: z.enum(SSL_STATUSES).optional() })

/** The control API's word on a body that is not JSON or does not fit: its first issue. */
function bodyError(problem: JsonProblem) {
  if (!problem.json) return 'Send a JSON body.'
  const issue = problem.error.issues[0]
  return `${issue.path.join('.') || 'body'}: ${issue.message}`
}
const controlJson = <T extends z.ZodTypeAny>(schema: T) => zodJson(schema, (c, problem) => c.json({ error: bodyError(problem) }, 400))

export const control = new Hono<PeersHono>()

control.get('/state', async (c) => {
  const [records, hostnames, faults] = await Promise.all([listRecords(c.env.PEERS_DB), listHostnames(c.env.PEERS_DB), listFaults(c.env.PEERS_DB)])
  return c.json({
    config: { zoneId: c.env.PEER_ZONE_ID, cnameTarget: c.env.PEER_CNAME_TARGET, apexIps: csv(c.env.PEER_APEX_IPS) },
    records,
    customHostnames: hostnames.map(serialise),
    faults,
  })
})

control.get('/dns/records', async (c) => c.json({ records: await listRecords(c.env.PEERS_DB, c.req.query('name') || undefined) }))

control.post('/dns/records', controlJson(recordInput), async (c) => {
  return c.json({ record: await addRecord(c.env.PEERS_DB, c.req.valid('json')) }, 201)
})

control.delete('/dns/records/:id', async (c) => {
  if (!(await deleteRecord(c.env.PEERS_DB, c.req.param('id')))) return c.json({ error: 'No such record.' }, 404)
  return c.json({ deleted: true })
})

control.delete('/dns/records', async (c) => {
  const name = c.req.query('name')
  if (!name) return c.json({ error: 'Give ?name= (and optionally &type=).' }, 400)
  const type = c.req.query('type')?.toUpperCase()
  if (type && !(RECORD_TYPES as readonly string[]).includes(type)) return c.json({ error: `type must be one of ${RECORD_TYPES.join(', ')}` }, 400)
  return c.json({ deleted: await deleteRecordsByName(c.env.PEERS_DB, name, type as (typeof RECORD_TYPES)[number] | undefined) })
})

control.get('/faults', async (c) => c.json({ faults: await listFaults(c.env.PEERS_DB) }))

control.post('/faults', controlJson(faultInput), async (c) => {
  const fault = c.req.valid('json')
  if (fault.mode === 'status' && !fault.status) return c.json({ error: 'status: required for mode "status"' }, 400)
  return c.json({ fault: await addFault(c.env.PEERS_DB, fault) }, 201)
})

control.delete('/faults', async (c) => {
  await clearFaults(c.env.PEERS_DB)
  return c.json({ deleted: true })
})

control.get('/custom-hostnames', async (c) => c.json({ customHostnames: (await listHostnames(c.env.PEERS_DB)).map(serialise) }))

/** Force a state Cloudflare would reach on its own (blocked, moved, a timed-out certificate, …). */
control.patch('/custom-hostnames/:idOrHostname', async (c) => {
  const key = c.req.param('idOrHostname')
  const rows = [...(await listHostnames(c.env.PEERS_DB, undefined, { id: key })), ...(await listHostnames(c.env.PEERS_DB, undefined, { hostname: key }))]
  const row = rows[0]
  if (!row) return c.json({ error: 'No such custom hostname.' }, 404)
  // The hostname first: an unknown one is a 404 whatever the body.
  const input = await checkJson(c, hostnameStateInput)
  if (!input.ok) return c.json({ error: bodyError(input.problem) }, 400)
  await updateHostnameState(c.env.PEERS_DB, row.id, { status: input.data.status, ssl_status: input.data.sslStatus })
  const [updated] = await listHostnames(c.env.PEERS_DB, undefined, { id: row.id })
  return c.json({ customHostname: serialise(updated) })
})

control.get('/requests', async (c) => c.json({ requests: await listRequests(c.env.PEERS_DB, { target: c.req.query('target') || undefined, limit: Number(c.req.query('limit')) || undefined }) }))

/** What the SMSAPI peer accepted, newest first (?to= filters by number, digits only compared). */
control.get('/sms/messages', async (c) => c.json({ messages: await listSms(c.env.PEERS_DB, { to: c.req.query('to') || undefined, limit: Number(c.req.query('limit')) || undefined }) }))

control.delete('/sms/messages', async (c) => {
  await clearSms(c.env.PEERS_DB)
  return c.json({ deleted: true })
})

control.post('/reset', async (c) => {
  await resetAll(c.env.PEERS_DB)
  return c.json({ reset: true })
})
