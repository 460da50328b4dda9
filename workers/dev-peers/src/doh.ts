// DNS-over-HTTPS responder, JSON API (the shape of cloudflare-dns.com/dns-query and dns.google;
// see the notes in app/domains/doh.server.ts), answering from the records in PEERS_DB.
import { Hono } from 'hono'
import type { PeersHono } from './env.ts'
import { faults, requestLog } from './middleware.ts'
import { listRecords, nameExists, normaliseName, type DnsRecord } from './store.ts'

const TYPE_NUMBERS: Record<string, number> = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28, SRV: 33, CAA: 257, ANY: 255 }
const MAX_CNAME_CHAIN = 8

type Answer = { name: string; type: number; TTL: number; data: string }

function parseType(raw: string | undefined): { name: string | null; number: number } | null {
  if (raw === undefined || raw === '') return { name: 'A', number: 1 }
  if (/^\d+$/.test(raw)) {
    const number = Number(raw)
    if (number < 1 || number > 65535) return null
    const name = Object.keys(TYPE_NUMBERS).find((k) => TYPE_NUMBERS[k] === number) ?? null
    return { name, number }
  }
  const upper = raw.toUpperCase()
  return upper in TYPE_NUMBERS ? { name: upper, number: TYPE_NUMBERS[upper] } : null
}

function validName(name: string) {
  if (name.length < 1 || name.length > 253) return false
  return name.split('.').every((label) => label.length >= 1 && label.length <= 63)
}

/** TXT presentation form: ≤255-character strings in quotes, `"` and `\` escaped. */
export function txtData(value: string) {
  const chunks = value.match(/[\s\S]{1,255}/g) ?? ['']
  return chunks.map((chunk) => `"${chunk.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(' ')
}

function toAnswer(record: DnsRecord): Answer {
  const data = record.type === 'TXT' ? txtData(record.value) : record.type === 'CNAME' ? `${record.value}.` : record.value
  return { name: `${record.name}.`, type: TYPE_NUMBERS[record.type], TTL: record.ttl, data }
}

async function resolve(db: D1Database, name: string, type: string | null) {
  const answers: Answer[] = []
  let current = name
  for (let depth = 0; depth <= MAX_CNAME_CHAIN; depth++) {
    const records = await listRecords(db, current)
    const cname = records.find((r) => r.type === 'CNAME')
    // Like a recursive resolver: a CNAME answers for every type, and is followed.
    if (cname && type !== 'CNAME') {
      answers.push(toAnswer(cname))
      current = cname.value
      continue
    }
    answers.push(...records.filter((r) => type === 'ANY' || r.type === type).map(toAnswer))
    break
  }
  return answers
}

export const dohPeer = new Hono<PeersHono>()
dohPeer.use('*', requestLog('doh'), faults('doh'))

dohPeer.get('/', async (c) => {
  const accept = c.req.header('Accept') ?? ''
  const ct = c.req.query('ct')
  if (!accept.includes('application/dns-json') && ct !== 'application/dns-json') {
    return c.json({ error: 'This endpoint speaks the JSON API only: send Accept: application/dns-json.' }, 400)
  }
  const rawName = c.req.query('name')
  if (!rawName) return c.json({ error: 'Missing name parameter.' }, 400)
  const name = normaliseName(rawName)
  if (!validName(name)) return c.json({ error: `Invalid name \`${rawName}\`.` }, 400)
  const type = parseType(c.req.query('type'))
  if (!type) return c.json({ error: `Invalid type \`${c.req.query('type')}\`.` }, 400)

  const answers = await resolve(c.env.PEERS_DB, name, type.name)
  const status = answers.length > 0 || (await nameExists(c.env.PEERS_DB, name)) ? 0 : 3
  const body: Record<string, unknown> = {
    Status: status,
    TC: false,
    RD: true,
    RA: true,
    AD: false,
    CD: false,
    Question: [{ name: `${name}.`, type: type.number }],
  }
  if (answers.length > 0) body.Answer = answers
  return c.body(JSON.stringify(body), 200, { 'Content-Type': 'application/dns-json', 'Cache-Control': 'no-store' })
})

dohPeer.all('/', (c) => c.json({ error: 'Only GET is supported by this JSON endpoint.' }, 405))
