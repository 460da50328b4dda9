// SMSAPI.pl's REST API for sending SMS (POST https://api.smsapi.pl/sms.do), as a local peer.
// What it checks and answers follows SMSAPI's documentation and its official clients:
//   - auth: `Authorization: Bearer <OAuth token>`; a missing or wrong token is error 101
//     "Authorization failed" (HTTP 401);
//   - form parameters: `to` (digits with the country code, a leading + tolerated), `message`,
//     optional `from` (a sender name registered on the account, else error 14), `format=json`
//     (without it the legacy text answer `OK:<id>:<points>` / `ERROR:<code>`), `encoding`;
//   - success: {count, list: [{id, points, number, date_sent, submitted_number, status, error, idx, parts}]};
//   - errors: {error: <code>, message} — 11 empty or too long message, 13 no correct phone
//     numbers (with invalid_numbers), 14 bad sender name.
// Accepted messages are stored (sms_messages) and readable at GET /_peer/sms/messages.
import { Hono, type Context } from 'hono'
import { csv, type PeersHono } from './env.ts'
import { faults, requestLog } from './middleware.ts'
import { insertSms } from './store.ts'

type Ctx = Context<PeersHono & { Variables: { auth?: string } }>

/** SMSAPI error codes the peer produces, with SMSAPI's wording. */
export const SMSAPI_ERRORS = {
  message: { error: 11, message: 'Message too long or there is no message or parameter nounicode is set and special chars are used' },
  numbers: { error: 13, message: 'No correct phone numbers' },
  sender: { error: 14, message: 'Invalid sender field' },
  auth: { error: 101, message: 'Authorization failed' },
} as const

/** GSM-7 160 / 153 per part; UCS-2 70 / 67 per part. SMSAPI caps a message at 10 parts (error 11 beyond). */
export function smsParts(message: string) {
  // eslint-disable-next-line no-control-regex
  const gsm = /^[\x20-\x7e\n\r@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!¤¡ÄÖÑÜ§¿äöñüà]*$/.test(message)
  const [single, multi] = gsm ? [160, 153] : [70, 67]
  const length = [...message].length
  return length <= single ? 1 : Math.ceil(length / multi)
}

const POINTS_PER_PART = 0.16

export const smsapiPeer = new Hono<PeersHono & { Variables: { auth?: string } }>()

smsapiPeer.use('*', requestLog('smsapi'))

// Authentication comes before fault injection: a wrong token never reaches the "network".
smsapiPeer.use('*', async (c, next) => {
  const header = c.req.header('Authorization') ?? ''
  const match = /^Bearer\s+(\S+)$/.exec(header)
  if (!match || match[1] !== c.env.PEER_SMSAPI_TOKEN) {
    c.set('auth', match ? 'bearer:wrong' : 'none')
    return c.json(SMSAPI_ERRORS.auth, 401)
  }
  c.set('auth', 'bearer')
  return next()
})
smsapiPeer.use('*', faults('smsapi'))

async function params(c: Ctx): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const [k, v] of new URL(c.req.url).searchParams) out[k] = v
  const type = c.req.header('Content-Type') ?? ''
  if (c.req.method === 'POST' && (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data'))) {
    const form = await c.req.raw.formData()
    for (const [k, v] of form) if (typeof v === 'string') out[k] = v
  }
  return out
}

smsapiPeer.on(['GET', 'POST'], '/', async (c) => {
  const p = await params(c)
  const json = p.format === 'json'
  const fail = (e: { error: number; message: string }, extra: Record<string, unknown> = {}) => (json ? c.json({ ...e, ...extra }, 200) : c.text(`ERROR:${e.error}`, 200))

  const message = p.message ?? ''
  const parts = smsParts(message)
  if (message.trim() === '' || parts > 10) return fail(SMSAPI_ERRORS.message)

  const submitted = (p.to ?? '').split(',').map((n) => n.trim()).filter(Boolean)
  const normalised = submitted.map((n) => n.replace(/^\+/, ''))
  const invalid = submitted.filter((_, i) => !/^\d{9,15}$/.test(normalised[i]))
  if (submitted.length === 0 || invalid.length === submitted.length) {
    return fail(SMSAPI_ERRORS.numbers, { invalid_numbers: invalid.map((n) => ({ number: n, submitted_number: n, message: 'Invalid phone number' })) })
  }

  const allowedSenders = csv(c.env.PEER_SMSAPI_SENDERS)
  if (p.from !== undefined && p.from !== '' && !allowedSenders.includes(p.from.toLowerCase())) return fail(SMSAPI_ERRORS.sender)

  const now = Date.now()
  const list: Array<Record<string, unknown>> = []
  for (let i = 0; i < submitted.length; i++) {
    if (invalid.includes(submitted[i])) continue
    const id = crypto.randomUUID().replace(/-/g, '').slice(0, 24).toUpperCase()
    await insertSms(c.env.PEERS_DB, { id, to: normalised[i], sender: p.from || null, message, parts, createdAt: now })
    list.push({
      id,
      points: Number((parts * POINTS_PER_PART).toFixed(2)),
      number: normalised[i],
      date_sent: Math.floor(now / 1000),
      submitted_number: submitted[i],
      status: 'QUEUE',
      error: null,
      idx: p.idx ?? null,
      parts,
    })
  }
  if (!json) return c.text(list.map((m) => `OK:${m.id}:${m.points}`).join(';'), 200)
  return c.json({ count: list.length, list, message, length: [...message].length, parts }, 200)
})
