// Mailchimp Marketing API v3 peer (development and tests), mounted at /mailchimp. What the app's
// adapter (app/mailing/mailchimp.server.ts) uses, as Mailchimp documents it:
//   - the key is `{key}-{dc}` and only works at `https://{dc}.api.mailchimp.com/3.0`: here the data
//     center is the first label of the Host (`us21.mailchimp.dev-peers.internal`), a key used at
//     another one is refused like a wrong key;
//   - HTTP Basic auth, any user name, the key as the password;
//   - GET  /3.0/ping                                   {health_status}
//   - GET  /3.0/lists/{list_id}                        the audience
//   - GET  /3.0/lists/{list_id}/merge-fields           {merge_fields: [{merge_id, tag, name, type, required}], total_items}
//   - PUT  /3.0/lists/{list_id}/members/{hash}         add or update (hash = MD5 of the lower-cased
//     address; body email_address, status_if_new (new members), status, merge_fields); idempotent
//   - GET  /3.0/lists/{list_id}/members/{hash}
//   - errors: `application/problem+json` {type, title, status, detail, instance}: 401 API Key
//     Missing / API Key Invalid, 404 Resource Not Found, 400 Invalid Resource (with `errors`),
//     429 Too Many Requests, 500.
// Control (no auth): GET /_peer/members?list_id=, POST /_peer/faults {count, status} (the next
// `count` member upserts fail with 429/500/503), DELETE /_peer/faults, POST /_peer/lists
// {id, apiKey, name, tags[]} (another audience for tests).
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { checkJson, zodJson } from '../../shared/zod-json.ts'
import type { PeersHono } from './env.ts'

type Account = { api_key: string; dc: string; account_name: string }
type ListRow = { id: string; api_key: string; name: string; created_at: number }
type MergeFieldRow = { list_id: string; merge_id: number; tag: string; name: string; type: string; required: number }
type MemberRow = { list_id: string; id: string; email_address: string; status: string; merge_fields: string; created_at: number; updated_at: number }
type Ctx = Context<PeersHono & { Variables: { account: Account } }>

const ERROR_DOCS = 'https://mailchimp.com/developer/marketing/docs/errors/'
const MEMBER_STATUSES = ['subscribed', 'unsubscribed', 'cleaned', 'pending', 'transactional'] as const

function problem(c: Context, status: 400 | 401 | 404 | 405 | 429 | 500 | 503, title: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const body = { type: ERROR_DOCS, title, status, detail, instance: crypto.randomUUID(), ...extra }
  return c.body(JSON.stringify(body), status, { ...headers, 'Content-Type': 'application/problem+json; charset=utf-8' })
}

/** Constant-time comparison of two strings (the API key). */
function sameSecret(a: string, b: string) {
  const x = new TextEncoder().encode(a)
  const y = new TextEncoder().encode(b)
  let diff = x.length ^ y.length
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return diff === 0
}

export async function md5Hex(text: string) {
  const digest = await crypto.subtle.digest('MD5', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

function basicPassword(header: string | undefined) {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')
  if (!match) return null
  try {
    const decoded = atob(match[1])
    const colon = decoded.indexOf(':')
    return colon >= 0 ? decoded.slice(colon + 1) : null
  } catch {
    return null
  }
}

function listJson(list: ListRow, memberCount: number) {
  return {
    id: list.id,
    web_id: parseInt(list.id.slice(-6), 16) || 1,
    name: list.name,
    contact: { company: 'Coursefront dev', country: 'PL' },
    permission_reminder: 'You signed up on our site.',
    campaign_defaults: { from_name: 'Coursefront', from_email: 'no-reply@coursefront.test', subject: '', language: 'en' },
    date_created: new Date(list.created_at).toISOString(),
    stats: { member_count: memberCount },
  }
}

function memberJson(m: MemberRow) {
  return {
    id: m.id,
    email_address: m.email_address,
    unique_email_id: m.id.slice(0, 10),
    status: m.status,
    merge_fields: JSON.parse(m.merge_fields) as Record<string, string>,
    list_id: m.list_id,
    timestamp_signup: new Date(m.created_at).toISOString(),
    last_changed: new Date(m.updated_at).toISOString(),
  }
}

const memberBody = z.object({
  email_address: z.string().trim().min(1).max(254).optional(),
  status_if_new: z.enum(MEMBER_STATUSES).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
  merge_fields: z.record(z.union([z.string(), z.number()])).optional(),
})

export const mailchimpPeer = new Hono<PeersHono & { Variables: { account: Account } }>()

// Auth and data center, for every API call.
mailchimpPeer.use('/3.0/*', async (c, next) => {
  const key = basicPassword(c.req.header('Authorization'))
  if (key === null) return problem(c, 401, 'API Key Missing', "Your request did not include an API key.")
  const dc = new URL(c.req.url).hostname.split('.')[0]
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_accounts').all<Account>()
  const account = results.find((a) => sameSecret(a.api_key, key))
  if (!account || account.dc !== dc) return problem(c, 401, 'API Key Invalid', "Your API key may be invalid, or you've attempted to access the wrong datacenter.")
  c.set('account', account)
  return next()
})

mailchimpPeer.get('/3.0/ping', (c) => c.json({ health_status: "Everything's Chimpy!" }))

async function ownList(c: Ctx) {
  return c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_lists WHERE id = ? AND api_key = ?').bind(c.req.param('listId') ?? '', c.get('account').api_key).first<ListRow>()
}

const notFound = (c: Context) => problem(c, 404, 'Resource Not Found', 'The requested resource could not be found.')

mailchimpPeer.get('/3.0/lists/:listId', async (c) => {
  const list = await ownList(c)
  if (!list) return notFound(c)
  const count = await c.env.PEERS_DB.prepare("SELECT count(*) AS n FROM mailchimp_members WHERE list_id = ? AND status = 'subscribed'").bind(list.id).first<{ n: number }>()
  return c.json(listJson(list, count?.n ?? 0))
})

mailchimpPeer.get('/3.0/lists/:listId/merge-fields', async (c) => {
  const list = await ownList(c)
  if (!list) return notFound(c)
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_merge_fields WHERE list_id = ? ORDER BY merge_id').bind(list.id).all<MergeFieldRow>()
  return c.json({
    merge_fields: results.map((f) => ({ merge_id: f.merge_id, tag: f.tag, name: f.name, type: f.type, required: f.required === 1, default_value: '', public: true, list_id: list.id })),
    list_id: list.id,
    total_items: results.length,
  })
})

mailchimpPeer.get('/3.0/lists/:listId/members/:hash', async (c) => {
  const list = await ownList(c)
  if (!list) return notFound(c)
  const member = await c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_members WHERE list_id = ? AND id = ?').bind(list.id, c.req.param('hash').toLowerCase()).first<MemberRow>()
  return member ? c.json(memberJson(member)) : notFound(c)
})

mailchimpPeer.put('/3.0/lists/:listId/members/:hash', async (c) => {
  const fault = await c.env.PEERS_DB.prepare("UPDATE mailchimp_faults SET remaining = remaining - 1 WHERE scope = 'members' AND remaining > 0 RETURNING status").first<{ status: number }>()
  if (fault) {
    if (fault.status === 429) return problem(c, 429, 'Too Many Requests', 'You have exceeded the limit of 10 simultaneous connections.', {}, { 'Retry-After': '30' })
    if (fault.status === 503) return problem(c, 503, 'Service Unavailable', 'The service is temporarily unavailable.')
    return problem(c, 500, 'Internal Server Error', 'An unexpected internal error has occurred. Please contact Support for more information.')
  }
  const list = await ownList(c)
  if (!list) return notFound(c)
  // The body after the faults and the key, as Mailchimp checks them.
  const parsed = await checkJson(c, memberBody)
  if (!parsed.ok) {
    if (!parsed.problem.json) return problem(c, 400, 'JSON Parse Exception', 'We encountered an unspecified JSON parsing error.')
    return problem(c, 400, 'Invalid Resource', "The resource submitted could not be validated. For field-specific details, see the 'errors' array.", {
      errors: parsed.problem.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
    })
  }
  const body = parsed.data
  const hash = c.req.param('hash').toLowerCase()
  const existing = await c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_members WHERE list_id = ? AND id = ?').bind(list.id, hash).first<MemberRow>()
  const email = body.email_address ?? existing?.email_address ?? ''
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    return problem(c, 400, 'Invalid Resource', 'Please provide a valid email address.', { errors: [{ field: 'email_address', message: 'This value should be a valid email.' }] })
  }
  if ((await md5Hex(email.toLowerCase())) !== hash) {
    return problem(c, 400, 'Invalid Resource', "The subscriber hash doesn't match the email address.", { errors: [{ field: 'email_address', message: 'Does not match the subscriber hash in the URL.' }] })
  }
  if (!existing && !body.status && !body.status_if_new) {
    return problem(c, 400, 'Invalid Resource', "The resource submitted could not be validated. For field-specific details, see the 'errors' array.", {
      errors: [{ field: 'status_if_new', message: 'Status is required for new members.' }],
    })
  }
  // Tags the audience does not have are ignored (so a missing FNAME silently drops the name);
  // required ones must have a value.
  const { results: fields } = await c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_merge_fields WHERE list_id = ?').bind(list.id).all<MergeFieldRow>()
  const known = new Set(fields.map((f) => f.tag))
  const merged: Record<string, string> = existing ? (JSON.parse(existing.merge_fields) as Record<string, string>) : {}
  for (const [tag, value] of Object.entries(body.merge_fields ?? {})) if (known.has(tag.toUpperCase())) merged[tag.toUpperCase()] = String(value)
  const missing = fields.filter((f) => f.required === 1 && !merged[f.tag])
  if (missing.length) {
    return problem(c, 400, 'Invalid Resource', 'Your merge fields were invalid.', { errors: missing.map((f) => ({ field: f.tag, message: 'Please enter a value' })) })
  }
  const now = Date.now()
  const status = body.status ?? existing?.status ?? body.status_if_new!
  const row = await c.env.PEERS_DB.prepare(
    `INSERT INTO mailchimp_members (list_id, id, email_address, status, merge_fields, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (list_id, id) DO UPDATE SET email_address = excluded.email_address, status = excluded.status, merge_fields = excluded.merge_fields, updated_at = excluded.updated_at
     RETURNING *`,
  )
    .bind(list.id, hash, email, status, JSON.stringify(merged), now, now)
    .first<MemberRow>()
  return c.json(memberJson(row!))
})

mailchimpPeer.all('/3.0/*', (c) => problem(c, 404, 'Resource Not Found', 'The requested resource could not be found.'))

// Control, for tests and the developer.
mailchimpPeer.get('/_peer/members', async (c) => {
  const listId = c.req.query('list_id')
  const { results } = listId
    ? await c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_members WHERE list_id = ? ORDER BY created_at, id').bind(listId).all<MemberRow>()
    : await c.env.PEERS_DB.prepare('SELECT * FROM mailchimp_members ORDER BY created_at, id').all<MemberRow>()
  return c.json({ members: results.map(memberJson) })
})

const faultInput = z.object({ count: z.number().int().min(1).max(100).default(1), status: z.union([z.literal(429), z.literal(500), z.literal(503)]) })

mailchimpPeer.post('/_peer/faults', zodJson(faultInput, (c) => c.json({ error: 'Send {count, status: 429|500|503}.' }, 400)), async (c) => {
  const fault = c.req.valid('json')
  await c.env.PEERS_DB.prepare("INSERT INTO mailchimp_faults (scope, remaining, status) VALUES ('members', ?, ?) ON CONFLICT (scope) DO UPDATE SET remaining = excluded.remaining, status = excluded.status")
    .bind(fault.count, fault.status)
    .run()
  return c.json({ fault }, 201)
})

mailchimpPeer.delete('/_peer/faults', async (c) => {
  await c.env.PEERS_DB.prepare('DELETE FROM mailchimp_faults').run()
  return c.json({ deleted: true })
})

const listInput = z.object({
  id: z.string().regex(/^[a-z0-9]{4,20}$/),
  apiKey: z.string().min(1).max(100),
  name: z.string().min(1).max(100),
  tags: z.array(z.string().regex(/^[A-Z0-9_]{1,10}$/)).max(20),
})

mailchimpPeer.post('/_peer/lists', zodJson(listInput, (c) => c.json({ error: 'Send {id, apiKey, name, tags[]}.' }, 400)), async (c) => {
  const { id, apiKey, name, tags } = c.req.valid('json')
  await c.env.PEERS_DB.batch([
    c.env.PEERS_DB.prepare('INSERT OR REPLACE INTO mailchimp_lists (id, api_key, name, created_at) VALUES (?, ?, ?, ?)').bind(id, apiKey, name, Date.now()),
    c.env.PEERS_DB.prepare('DELETE FROM mailchimp_merge_fields WHERE list_id = ?').bind(id),
    ...tags.map((tag, i) => c.env.PEERS_DB.prepare('INSERT INTO mailchimp_merge_fields (list_id, merge_id, tag, name, type, required) VALUES (?, ?, ?, ?, ?, 0)').bind(id, i + 1, tag, tag, 'text')),
  ])
  return c.json({ list: { id, name, tags } }, 201)
})
