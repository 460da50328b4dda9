// GUS BIR 1.1 peer (development and tests): the REGON register's public SOAP service as GUS documents
// it ("BIR1.1 — dokumentacja usługi", api.stat.gov.pl RegonApiDescription) — SOAP 1.2 over
// application/soap+xml, WS-Addressing (wsa:Action names the operation, wsa:To the endpoint),
// operations in http://CIS/BIR/PUBL/2014/07, search parameters in …/DataContract, the session id
// in the `sid` HTTP header, and the answers of DaneSzukajPodmioty as an XML document inside an
// escaped string. Like the real service it answers MTOM (multipart/related; type="application/
// xop+xml") unless the control switch asks for plain SOAP.
//
//   POST /gus/wsBIR/UslugaBIRzewnPubl.svc
//     Zaloguj(pKluczUzytkownika)                 ZalogujResult: a 20-character session id; "" for an unknown key
//     DaneSzukajPodmioty(pParametryWyszukiwania) by Nip or Regon: <root><dane>…</dane></root>, or
//                                                <dane><ErrorCode>4</ErrorCode>… when nothing is found
//     Wyloguj(pIdentyfikatorSesji)               WylogujResult: true (false for an unknown/closed session)
//   /_peer/gus/fault      POST {down?, mtom?}    down: every call answers 503 (IIS's "Service Unavailable")
//                         POST {nip, down}       only searches for that NIP answer 503 (tests side by side on one peer)
//   /_peer/gus/companies  POST a fixture company (invented data only), GET the list
//   /_peer/gus/sessions   GET ?key=              sessions opened with a key (closed ones have closedAt)
//
// Where the public docs are silent the peer chooses: a search with a missing, unknown or closed
// session answers an empty result (the real service does the same and reports code 7 only through
// GetValue, which this peer does not model); a wrong Content-Type is 415, a missing or unknown
// wsa:Action, a wsa:To of another endpoint, or a body that is not the action's operation is a
// SOAP 1.2 Sender fault with HTTP 500 (as WCF answers them).
import { Hono } from 'hono'
import { z } from 'zod'
import type { PeersHono } from './env.ts'

/** Keys the peer accepts: GUS's published test key, and a second ("stranger") development key. */
export const GUS_DEV = { key: 'abcde12345abcde12345', strangerKey: 'coursefrontdevgus002' } as const
const KEYS: readonly string[] = [GUS_DEV.key, GUS_DEV.strangerKey]

const NS = 'http://CIS/BIR/PUBL/2014/07'
const OPERATIONS = ['Zaloguj', 'DaneSzukajPodmioty', 'Wyloguj'] as const
type Operation = (typeof OPERATIONS)[number]
const actionOf = (op: string) => `${NS}/IUslugaBIRzewnPubl/${op}`

export const xmlEscape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const xmlUnescape = (v: string) =>
  v
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
/** The text of the first element with this local name (any prefix), or undefined. */
export function xmlText(xml: string, name: string) {
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}\\s*>)`).exec(xml)
  return m ? xmlUnescape((m[1] ?? '').trim()) : undefined
}

/** A register's switches (shared with the VIES peer's table row 'vies'). */
export async function registerSwitches(db: D1Database, register: 'gus' | 'vies' | `gus:${string}`) {
  const row = await db.prepare('SELECT down, fault, mtom FROM company_register_switches WHERE register = ?').bind(register).first<{ down: number; fault: string; mtom: number }>()
  return { down: !!row?.down, fault: row?.fault ?? '', mtom: row ? !!row.mtom : true }
}
export async function setRegisterSwitches(db: D1Database, register: 'gus' | 'vies' | `gus:${string}`, next: { down: boolean; fault: string; mtom: boolean }) {
  await db
    .prepare('INSERT INTO company_register_switches (register, down, fault, mtom) VALUES (?1, ?2, ?3, ?4) ON CONFLICT (register) DO UPDATE SET down = ?2, fault = ?3, mtom = ?4')
    .bind(register, next.down ? 1 : 0, next.fault, next.mtom ? 1 : 0)
    .run()
}

type CompanyRow = {
  nip: string
  regon: string
  name: string
  voivodeship: string
  county: string
  commune: string
  place: string
  postal_code: string
  post_office: string
  street: string
  building: string
  unit: string
  type: string
  silos_id: string
  ended_on: string
}

function soapEnvelope(operation: string, body: string) {
  return (
    `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing">` +
    `<s:Header><a:Action s:mustUnderstand="1">${actionOf(operation)}Response</a:Action></s:Header>` +
    `<s:Body>${body}</s:Body></s:Envelope>`
  )
}

/** The answer as the service sends it: MTOM (one XOP root part) or, when switched off, plain SOAP 1.2. */
function soapResponse(envelope: string, mtom: boolean, status = 200) {
  if (!mtom) return new Response(envelope, { status, headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' } })
  const boundary = `uuid:${crypto.randomUUID()}+id=1`
  const body =
    `--${boundary}\r\nContent-ID: <http://tempuri.org/0>\r\nContent-Transfer-Encoding: 8bit\r\n` +
    `Content-Type: application/xop+xml;charset=utf-8;type="application/soap+xml"\r\n\r\n${envelope}\r\n--${boundary}--\r\n`
  return new Response(body, {
    status,
    headers: { 'Content-Type': `multipart/related; type="application/xop+xml"; start="<http://tempuri.org/0>"; boundary="${boundary}"; start-info="application/soap+xml"` },
  })
}

function senderFault(subcode: string, reason: string, mtom: boolean) {
  const envelope =
    `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:a="http://www.w3.org/2005/08/addressing">` +
    `<s:Header><a:Action s:mustUnderstand="1">http://www.w3.org/2005/08/addressing/soap/fault</a:Action></s:Header>` +
    `<s:Body><s:Fault><s:Code><s:Value>s:Sender</s:Value><s:Subcode><s:Value>${subcode}</s:Value></s:Subcode></s:Code>` +
    `<s:Reason><s:Text xml:lang="en-US">${xmlEscape(reason)}</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`
  return soapResponse(envelope, mtom, 500)
}

const resultOf = (operation: Operation, value: string) => `<${operation}Response xmlns="${NS}"><${operation}Result>${xmlEscape(value)}</${operation}Result></${operation}Response>`

/** One company as DaneSzukajPodmioty lists it (the fields of BIR 1.1's search answer). */
function daneOf(c: CompanyRow) {
  const f = (name: string, value: string) => (value ? `<${name}>${xmlEscape(value)}</${name}>` : `<${name} />`)
  return (
    `<dane>${f('Regon', c.regon)}${f('Nip', c.nip)}${f('StatusNip', '')}${f('Nazwa', c.name)}${f('Wojewodztwo', c.voivodeship)}${f('Powiat', c.county)}` +
    `${f('Gmina', c.commune)}${f('Miejscowosc', c.place)}${f('KodPocztowy', c.postal_code)}${f('Ulica', c.street)}${f('NrNieruchomosci', c.building)}` +
    `${f('NrLokalu', c.unit)}${f('Typ', c.type)}${f('SilosID', c.silos_id)}${f('DataZakonczeniaDzialalnosci', c.ended_on)}${f('MiejscowoscPoczty', c.post_office)}</dane>`
  )
}

const NOT_FOUND = (criteria: string) =>
  `<root><dane><ErrorCode>4</ErrorCode><ErrorMessagePl>Nie znaleziono podmiotu dla podanych kryteriów wyszukiwania.</ErrorMessagePl>` +
  `<ErrorMessageEn>No data found for the specified search criteria.</ErrorMessageEn>${criteria}</dane></root>`

export const gusPeer = new Hono<PeersHono>()

gusPeer.post('/wsBIR/UslugaBIRzewnPubl.svc', async (c) => {
  const db = c.env.PEERS_DB
  const switches = await registerSwitches(db, 'gus')
  if (switches.down) return c.text('Service Unavailable', 503)
  const contentType = c.req.header('Content-Type') ?? ''
  if (!/^application\/soap\+xml\b/i.test(contentType.trim())) {
    return c.text(`Cannot process the message because the content type '${contentType}' was not the expected type 'application/soap+xml; charset=utf-8'.`, 415)
  }
  const xml = await c.req.text()
  const header = /<(?:[\w.-]+:)?Header[\s>][\s\S]*?<\/(?:[\w.-]+:)?Header>/.exec(xml)?.[0] ?? ''
  const body = /<(?:[\w.-]+:)?Body[\s>][\s\S]*<\/(?:[\w.-]+:)?Body>/.exec(xml)?.[0] ?? ''
  const action = xmlText(header, 'Action')
  if (!action) return senderFault('a:MessageAddressingHeaderRequired', "A required header representing a Message Addressing Property is not present: 'Action'", switches.mtom)
  const operation = OPERATIONS.find((op) => actionOf(op) === action)
  if (!operation) return senderFault('a:ActionNotSupported', `The message with Action '${action}' cannot be processed at the receiver.`, switches.mtom)
  const to = xmlText(header, 'To')
  let toPath = ''
  try {
    toPath = to ? new URL(to).pathname : ''
  } catch {
    toPath = ''
  }
  if (toPath !== new URL(c.req.url).pathname) return senderFault('a:DestinationUnreachable', `The message with To '${to ?? ''}' cannot be processed at the receiver.`, switches.mtom)
  if (!new RegExp(`<(?:[\\w.-]+:)?${operation}[\\s>/]`).test(body)) return senderFault('a:DeserializationFailed', `The body is not a ${operation} request.`, switches.mtom)

  const reply = (value: string) => soapResponse(soapEnvelope(operation, resultOf(operation, value)), switches.mtom)

  if (operation === 'Zaloguj') {
    const key = xmlText(body, 'pKluczUzytkownika') ?? ''
    if (!KEYS.includes(key)) return reply('')
    const sid = [...crypto.getRandomValues(new Uint8Array(20))].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('')
    await db.prepare('INSERT INTO gus_sessions (sid, api_key, created_at) VALUES (?, ?, ?)').bind(sid, key, Date.now()).run()
    return reply(sid)
  }
  if (operation === 'Wyloguj') {
    const sid = xmlText(body, 'pIdentyfikatorSesji') ?? ''
    const res = await db.prepare('UPDATE gus_sessions SET closed_at = ? WHERE sid = ? AND closed_at IS NULL').bind(Date.now(), sid).run()
    return reply((res.meta.changes ?? 0) > 0 ? 'true' : 'false')
  }
  // DaneSzukajPodmioty: only within an open session (an hour, as GUS's sessions).
  const sid = c.req.header('sid') ?? ''
  const session = sid ? await db.prepare('SELECT created_at FROM gus_sessions WHERE sid = ? AND closed_at IS NULL').bind(sid).first<{ created_at: number }>() : null
  if (!session || session.created_at + 60 * 60_000 < Date.now()) return reply('')
  const params = /<(?:[\w.-]+:)?pParametryWyszukiwania[\s>][\s\S]*?<\/(?:[\w.-]+:)?pParametryWyszukiwania>/.exec(body)?.[0] ?? ''
  const nip = xmlText(params, 'Nip')
  const regon = xmlText(params, 'Regon')
  if (nip && (await registerSwitches(db, `gus:${nip}`)).down) return c.text('Service Unavailable', 503)
  const row = nip
    ? await db.prepare('SELECT * FROM gus_companies WHERE nip = ?').bind(nip).first<CompanyRow>()
    : regon
    ? await db.prepare('SELECT * FROM gus_companies WHERE regon = ?').bind(regon).first<CompanyRow>()
    : null
  if (!row) return reply(NOT_FOUND(nip ? `<Nip>${xmlEscape(nip)}</Nip>` : regon ? `<Regon>${xmlEscape(regon)}</Regon>` : ''))
  return reply(`<root>${daneOf(row)}</root>`)
})

// ── Control (tests and development) ──

export const gusControl = new Hono<PeersHono>()

const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7]
const validNip = (nip: string) => /^\d{10}$/.test(nip) && NIP_WEIGHTS.reduce((s, w, i) => s + w * Number(nip[i]), 0) % 11 === Number(nip[9])

const switchInput = z.object({ down: z.boolean().optional(), mtom: z.boolean().optional(), nip: z.string().regex(/^\d{10}$/).optional() })
const companyInput = z.object({
  nip: z.string().refine(validNip, 'nip: not a valid NIP'),
  regon: z
    .string()
    .regex(/^\d{9}(\d{5})?$/)
    .optional(),
  name: z.string().min(1).max(300),
  voivodeship: z.string().max(60).default(''),
  county: z.string().max(60).default(''),
  commune: z.string().max(60).default(''),
  place: z.string().min(1).max(120),
  postalCode: z.string().regex(/^\d{2}-\d{3}$/),
  postOffice: z.string().max(120).default(''),
  street: z.string().max(200).default(''),
  building: z.string().max(20).default(''),
  unit: z.string().max(20).default(''),
})

gusControl.post('/fault', async (c) => {
  const parsed = switchInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  if (parsed.data.nip) {
    // One NIP's searches only: the rest of the register keeps answering.
    await setRegisterSwitches(c.env.PEERS_DB, `gus:${parsed.data.nip}`, { down: parsed.data.down ?? true, fault: '', mtom: true })
    return c.json({ nip: parsed.data.nip, down: parsed.data.down ?? true })
  }
  const now = await registerSwitches(c.env.PEERS_DB, 'gus')
  const next = { down: parsed.data.down ?? now.down, fault: '', mtom: parsed.data.mtom ?? now.mtom }
  await setRegisterSwitches(c.env.PEERS_DB, 'gus', next)
  return c.json({ down: next.down, mtom: next.mtom })
})

gusControl.post('/companies', async (c) => {
  const parsed = companyInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  const d = parsed.data
  // An invented REGON when none is given (unique enough for fixtures: from the NIP).
  const regon = d.regon ?? `9${d.nip.slice(0, 8)}`
  await c.env.PEERS_DB.prepare(
    `INSERT OR REPLACE INTO gus_companies (nip, regon, name, voivodeship, county, commune, place, postal_code, post_office, street, building, unit)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(d.nip, regon, d.name, d.voivodeship, d.county, d.commune, d.place, d.postalCode, d.postOffice, d.street, d.building, d.unit)
    .run()
  return c.json({ company: { ...d, regon } }, 201)
})

gusControl.get('/companies', async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM gus_companies ORDER BY nip').all<CompanyRow>()
  return c.json({ companies: results })
})

gusControl.get('/sessions', async (c) => {
  const key = c.req.query('key')
  const stmt = key
    ? c.env.PEERS_DB.prepare('SELECT sid, api_key, created_at, closed_at FROM gus_sessions WHERE api_key = ? ORDER BY created_at').bind(key)
    : c.env.PEERS_DB.prepare('SELECT sid, api_key, created_at, closed_at FROM gus_sessions ORDER BY created_at')
  const { results } = await stmt.all<{ sid: string; api_key: string; created_at: number; closed_at: number | null }>()
  return c.json({ sessions: results.map((s) => ({ sid: s.sid, key: s.api_key, createdAt: s.created_at, closedAt: s.closed_at })) })
})
