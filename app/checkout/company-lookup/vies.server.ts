// VIES client (European Commission, "VIES VAT number validation" SOAP service, checkVatService.wsdl):
// SOAP 1.1 (Content-Type text/xml, SOAPAction ""), namespace
// urn:ec.europa.eu:taxud:vies:services:checkVat:types:
//   checkVat(countryCode, vatNumber) → checkVatResponse{countryCode, vatNumber, requestDate, valid,
//   name, address}; name/address are "---" where the member state does not share them.
// Faults carry a bare code in faultstring: INVALID_INPUT (bad country code or empty number),
// SERVICE_UNAVAILABLE, MS_UNAVAILABLE, TIMEOUT, GLOBAL_MAX_CONCURRENT_REQ, MS_MAX_CONCURRENT_REQ
// (the WSDL's list). Only INVALID_INPUT says something about the number; the rest mean "ask later".
// Endpoint https://ec.europa.eu/taxation_customs/vies/services/checkVatService; development: the dev
// peer (workers/dev-peers/src/vies.ts).
import type { ProviderContext } from '#app/payments/providers/provider-module.server.ts'
import { RegisterUnavailableError, type RegisterAnswer, type RegisterCompany } from './registers.ts'
import { elementText, escapeXml, hasElement } from './soap-xml.ts'
import { isoCountryOf } from './tax-id.ts'

export const VIES_PRODUCTION = 'https://ec.europa.eu/taxation_customs/vies'
export const VIES_PATH = '/services/checkVatService'
const TYPES_NS = 'urn:ec.europa.eu:taxud:vies:services:checkVat:types'

/** "---" is VIES's "not shared by the member state". */
const shared = (value: string | undefined) => {
  const v = (value ?? '').trim()
  return v === '---' ? '' : v
}

/**
 * VIES gives the address as free text, usually "street\nPOSTCODE TOWN" (the lines as the member
 * state keeps them). The last line that starts with a postal code splits into code and town; the
 * lines before it are the street. Anything else stays whole in the street field for the buyer to fix.
 */
export function splitViesAddress(address: string): Pick<RegisterCompany, 'street' | 'postalCode' | 'city'> {
  const lines = address
    .split(/\r?\n|,\s*(?=(?:[A-Z]{1,2}-)?\d)/)
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
  for (let i = lines.length - 1; i > 0; i--) {
    const m = /^((?:[A-Z]{1,2}-)?\d[\d -]{1,8}\d(?: ?[A-Z]{2})?)\s+(\D.*)$/.exec(lines[i]!)
    if (m) return { street: lines.slice(0, i).join(', '), postalCode: m[1]!.trim(), city: m[2]!.trim() }
  }
  return { street: lines.join(', '), postalCode: '', city: '' }
}

export async function viesCheckVat(ctx: ProviderContext, country: string, vatNumber: string, signal: AbortSignal): Promise<RegisterAnswer> {
  const endpoint = `${ctx.apiBase(VIES_PRODUCTION)}${VIES_PATH}`
  const body =
    `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:urn="${TYPES_NS}"><soapenv:Header/><soapenv:Body>` +
    `<urn:checkVat><urn:countryCode>${escapeXml(country)}</urn:countryCode><urn:vatNumber>${escapeXml(vatNumber)}</urn:vatNumber></urn:checkVat>` +
    `</soapenv:Body></soapenv:Envelope>`
  let res: Response
  try {
    res = await ctx.fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' }, body, signal })
  } catch (error) {
    throw new RegisterUnavailableError('vies', error instanceof Error ? error.message : 'network error')
  }
  const xml = await res.text().catch(() => '')
  if (hasElement(xml, 'Fault')) {
    const code = (elementText(xml, 'faultstring') ?? '').trim()
    // The number (or its country) is not one VIES can check: as good as "no such number".
    if (code === 'INVALID_INPUT') return { found: false }
    throw new RegisterUnavailableError('vies', `fault ${code || res.status}`)
  }
  if (!res.ok || !hasElement(xml, 'checkVatResponse')) throw new RegisterUnavailableError('vies', `HTTP ${res.status}`)
  const valid = (elementText(xml, 'valid') ?? '').trim() === 'true'
  if (!valid) return { found: false }
  const cc = (elementText(xml, 'countryCode') ?? country).trim()
  return {
    found: true,
    company: { name: shared(elementText(xml, 'name')), ...splitViesAddress(shared(elementText(xml, 'address'))), country: isoCountryOf(cc) },
  }
}
