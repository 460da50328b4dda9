// VIES peer (development and tests): the European Commission's checkVatService as its WSDL
// (checkVatService.wsdl, namespace urn:ec.europa.eu:taxud:vies:services:checkVat:types) describes
// it — SOAP 1.1 over text/xml, checkVat(countryCode, vatNumber) → checkVatResponse{countryCode,
// vatNumber, requestDate, valid, name, address} with "---" where a member state shares no name or
// address, and SOAP faults whose faultstring is a bare code (INVALID_INPUT, SERVICE_UNAVAILABLE,
// MS_UNAVAILABLE, TIMEOUT, GLOBAL_MAX_CONCURRENT_REQ, MS_MAX_CONCURRENT_REQ).
//
//   POST /vies/services/checkVatService           checkVat; unknown numbers are valid=false
//   /_peer/vies/fault     POST {down, fault?}     down: every checkVat answers the fault (default MS_UNAVAILABLE)
//   /_peer/vies/companies POST {countryCode, vatNumber, name, address} (invented data only), GET the list
//
// Where the WSDL is silent the peer chooses: a wrong Content-Type is 415; an envelope without a
// checkVat body is a soap:Client fault; faults are HTTP 500 (as SOAP 1.1 over HTTP prescribes).
import { Hono } from 'hono'
import { z } from 'zod'
import type { PeersHono } from './env.ts'
// Member-state codes VIES takes (Greece EL, Northern Ireland XI): the app's list, one source.
import { VIES_COUNTRIES as VIES_MEMBER_STATES } from '#app/checkout/company-lookup/tax-id.ts'
import { registerSwitches, setRegisterSwitches, xmlEscape, xmlText } from './gus.ts'

const TYPES_NS = 'urn:ec.europa.eu:taxud:vies:services:checkVat:types'
export const VIES_FAULTS = ['INVALID_INPUT', 'SERVICE_UNAVAILABLE', 'MS_UNAVAILABLE', 'TIMEOUT', 'GLOBAL_MAX_CONCURRENT_REQ', 'MS_MAX_CONCURRENT_REQ'] as const

const envelope = (body: string) => `<env:Envelope xmlns:env="http://schemas.xmlsoap.org/soap/envelope/"><env:Header/><env:Body>${body}</env:Body></env:Envelope>`
const xml = (body: string, status = 200) => new Response(envelope(body), { status, headers: { 'Content-Type': 'text/xml; charset=utf-8' } })
const fault = (code: string, faultcode = 'env:Server') => xml(`<env:Fault><faultcode>${faultcode}</faultcode><faultstring>${code}</faultstring></env:Fault>`, 500)

/** requestDate as VIES writes it: the date with the zone offset (Brussels time; +01:00 is close enough here). */
const requestDate = () => `${new Date(Date.now() + 3_600_000).toISOString().slice(0, 10)}+01:00`

export const viesPeer = new Hono<PeersHono>()

viesPeer.post('/services/checkVatService', async (c) => {
  const contentType = c.req.header('Content-Type') ?? ''
  if (!/^text\/xml\b/i.test(contentType.trim())) return c.text(`Unsupported Content-Type: ${contentType}`, 415)
  const body = await c.req.text()
  if (!/<(?:[\w.-]+:)?checkVat[\s>]/.test(body) || !body.includes(TYPES_NS)) return fault('Unmarshalling Error: not a checkVat request', 'env:Client')
  const switches = await registerSwitches(c.env.PEERS_DB, 'vies')
  if (switches.down) return fault(switches.fault || 'MS_UNAVAILABLE')
  const countryCode = (xmlText(body, 'countryCode') ?? '').toUpperCase()
  const vatNumber = (xmlText(body, 'vatNumber') ?? '').replace(/\s/g, '')
  if (!(VIES_MEMBER_STATES as readonly string[]).includes(countryCode) || !vatNumber) return fault('INVALID_INPUT')
  const row = await c.env.PEERS_DB.prepare('SELECT name, address FROM vies_companies WHERE country_code = ? AND vat_number = ?').bind(countryCode, vatNumber).first<{ name: string; address: string }>()
  return xml(
    `<ns2:checkVatResponse xmlns:ns2="${TYPES_NS}"><ns2:countryCode>${countryCode}</ns2:countryCode><ns2:vatNumber>${xmlEscape(vatNumber)}</ns2:vatNumber>` +
      `<ns2:requestDate>${requestDate()}</ns2:requestDate><ns2:valid>${row ? 'true' : 'false'}</ns2:valid>` +
      `<ns2:name>${xmlEscape(row?.name ?? '---')}</ns2:name><ns2:address>${xmlEscape(row?.address ?? '---')}</ns2:address></ns2:checkVatResponse>`,
  )
})

// ── Control ──

export const viesControl = new Hono<PeersHono>()

const faultInput = z.object({ down: z.boolean(), fault: z.enum(VIES_FAULTS).optional() })
const companyInput = z.object({
  countryCode: z.enum(VIES_MEMBER_STATES),
  vatNumber: z.string().regex(/^[0-9A-Z+*]{2,12}$/),
  name: z.string().min(1).max(300),
  address: z.string().min(1).max(500),
})

viesControl.post('/fault', async (c) => {
  const parsed = faultInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  const next = { down: parsed.data.down, fault: parsed.data.fault ?? '', mtom: false }
  await setRegisterSwitches(c.env.PEERS_DB, 'vies', next)
  return c.json({ down: next.down, fault: next.down ? next.fault || 'MS_UNAVAILABLE' : null })
})

viesControl.post('/companies', async (c) => {
  const parsed = companyInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: parsed.error.issues[0]?.message }, 400)
  const d = parsed.data
  await c.env.PEERS_DB.prepare('INSERT OR REPLACE INTO vies_companies (country_code, vat_number, name, address) VALUES (?, ?, ?, ?)').bind(d.countryCode, d.vatNumber, d.name, d.address).run()
  return c.json({ company: d }, 201)
})

viesControl.get('/companies', async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT country_code, vat_number, name, address FROM vies_companies ORDER BY country_code, vat_number').all()
  return c.json({ companies: results })
})
