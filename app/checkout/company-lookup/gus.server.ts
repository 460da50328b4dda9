// GUS BIR 1.1 client (the REGON register's public API, "BIR1.1 — dokumentacja usługi", GUS/api.stat.gov.pl
// RegonApiDescription): SOAP 1.2 with WS-Addressing (wsa:To = the endpoint, wsa:Action per operation,
// Content-Type application/soap+xml with the action parameter), operations in namespace
// http://CIS/BIR/PUBL/2014/07, search parameters in …/DataContract:
//   Zaloguj(pKluczUzytkownika)                 → ZalogujResult = session id ("" for an unknown key)
//   DaneSzukajPodmioty(pParametryWyszukiwania) → DaneSzukajPodmiotyResult = an XML document as an
//       escaped string: <root><dane><Regon/><Nip/><Nazwa/><Wojewodztwo/><Powiat/><Gmina/>
//       <Miejscowosc/><KodPocztowy/><Ulica/><NrNieruchomosci/><NrLokalu/><Typ/><SilosID/>
//       <MiejscowoscPoczty/>…</dane></root>; nothing found: an empty result or <dane><ErrorCode>4…
//   Wyloguj(pIdentyfikatorSesji)               → WylogujResult = true/false
// The session travels in the `sid` HTTP header. The service answers MTOM (multipart/related, XOP);
// plain SOAP is read too. Production https://wyszukiwarkaregon.stat.gov.pl, test
// https://wyszukiwarkaregontest.stat.gov.pl (public test key abcde12345abcde12345), both at
// /wsBIR/UslugaBIRzewnPubl.svc; development: the dev peer (workers/dev-peers/src/gus.ts).
import type { ProviderContext } from '#app/payments/providers/provider-module.server.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import { RegisterUnavailableError, type RegisterAnswer, type RegisterCompany } from './registers.ts'
import { elementText, escapeXml, hasElement, soapEnvelopeOf } from './soap-xml.ts'

export const GUS_PRODUCTION = 'https://wyszukiwarkaregon.stat.gov.pl'
export const GUS_TEST = 'https://wyszukiwarkaregontest.stat.gov.pl'
export const GUS_PATH = '/wsBIR/UslugaBIRzewnPubl.svc'
/** GUS's published key for its test endpoint (test data only). */
export const GUS_TEST_KEY = 'abcde12345abcde12345'

const NS = 'http://CIS/BIR/PUBL/2014/07'
const DATA_NS = `${NS}/DataContract`
export const gusAction = (operation: 'Zaloguj' | 'DaneSzukajPodmioty' | 'Wyloguj') => `${NS}/IUslugaBIRzewnPubl/${operation}`

/** The key: GUS_API_KEY; in development and tests the public test key when none is set. */
export function gusApiKey(env: { ENVIRONMENT: string; GUS_API_KEY?: string }) {
  return env.GUS_API_KEY || (isDevelopment(env) ? GUS_TEST_KEY : undefined)
}

export function gusEndpoint(ctx: ProviderContext, key: string) {
  return `${ctx.apiBase(GUS_PRODUCTION, GUS_TEST, key === GUS_TEST_KEY)}${GUS_PATH}`
}

function envelope(endpoint: string, action: string, body: string) {
  return (
    `<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:ns="${NS}" xmlns:dat="${DATA_NS}">` +
    `<soap:Header xmlns:wsa="http://www.w3.org/2005/08/addressing"><wsa:To>${escapeXml(endpoint)}</wsa:To><wsa:Action>${action}</wsa:Action></soap:Header>` +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`
  )
}

async function call(ctx: ProviderContext, endpoint: string, operation: 'Zaloguj' | 'DaneSzukajPodmioty' | 'Wyloguj', body: string, signal: AbortSignal, sid?: string) {
  const action = gusAction(operation)
  let res: Response
  try {
    res = await ctx.fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': `application/soap+xml; charset=utf-8; action="${action}"`, ...(sid ? { sid } : {}) },
      body: envelope(endpoint, action, body),
      signal,
    })
  } catch (error) {
    throw new RegisterUnavailableError('gus', `${operation}: ${error instanceof Error ? error.message : 'network error'}`)
  }
  // Decoded by hand: workerd warns on .text() of a multipart (MTOM) body.
  const text = await res
    .arrayBuffer()
    .then((b) => new TextDecoder().decode(b))
    .catch(() => '')
  const soap = soapEnvelopeOf(res.headers.get('Content-Type'), text)
  if (!res.ok || hasElement(soap, 'Fault')) throw new RegisterUnavailableError('gus', `${operation}: HTTP ${res.status} ${elementText(soap, 'Text') ?? ''}`.trim())
  const result = elementText(soap, `${operation}Result`)
  if (result === undefined) throw new RegisterUnavailableError('gus', `${operation}: no ${operation}Result`)
  return result
}

/** One <dane> record of DaneSzukajPodmioty as the checkout fills it. */
export function gusCompanyOf(dane: string): RegisterCompany {
  const field = (name: string) => (elementText(dane, name) ?? '').trim()
  const number = [field('NrNieruchomosci'), field('NrLokalu')].filter(Boolean).join('/')
  // A village without streets: the address is the place and the house number.
  const street = [field('Ulica') || field('Miejscowosc'), number].filter(Boolean).join(' ')
  const regon = field('Regon')
  return {
    name: field('Nazwa'),
    street,
    postalCode: field('KodPocztowy'),
    // Addressed by the post office's town where the place has none of its own.
    city: field('MiejscowoscPoczty') || field('Miejscowosc'),
    country: 'PL',
    ...(regon ? { regon } : {}),
  }
}

/** Read DaneSzukajPodmiotyResult (already unescaped). */
export function readGusSearchResult(result: string): RegisterAnswer {
  if (!result.trim()) return { found: false }
  const dane = /<dane>([\s\S]*?)<\/dane>/.exec(result)?.[1]
  if (dane === undefined) throw new RegisterUnavailableError('gus', 'DaneSzukajPodmioty: no <dane> record')
  const errorCode = elementText(dane, 'ErrorCode')
  if (errorCode !== undefined) {
    // 4: nothing found for the criteria; any other code (e.g. 7 no session) is the service's trouble.
    if (errorCode.trim() === '4') return { found: false }
    throw new RegisterUnavailableError('gus', `DaneSzukajPodmioty: ErrorCode ${errorCode} ${elementText(dane, 'ErrorMessageEn') ?? ''}`.trim())
  }
  const company = gusCompanyOf(dane)
  if (!company.name) throw new RegisterUnavailableError('gus', 'DaneSzukajPodmioty: a record without Nazwa')
  return { found: true, company }
}

/** Zaloguj → DaneSzukajPodmioty by NIP → Wyloguj (always, once logged in). */
export async function gusFindByNip(ctx: ProviderContext, key: string, nip: string, signal: AbortSignal): Promise<RegisterAnswer> {
  const endpoint = gusEndpoint(ctx, key)
  const sid = (await call(ctx, endpoint, 'Zaloguj', `<ns:Zaloguj><ns:pKluczUzytkownika>${escapeXml(key)}</ns:pKluczUzytkownika></ns:Zaloguj>`, signal)).trim()
  // An unknown or blocked key gets an empty session id, not a fault.
  if (!sid) throw new RegisterUnavailableError('gus', 'Zaloguj: empty session id (is GUS_API_KEY right?)')
  try {
    const result = await call(
      ctx,
      endpoint,
      'DaneSzukajPodmioty',
      `<ns:DaneSzukajPodmioty><ns:pParametryWyszukiwania><dat:Nip>${escapeXml(nip)}</dat:Nip></ns:pParametryWyszukiwania></ns:DaneSzukajPodmioty>`,
      signal,
      sid,
    )
    return readGusSearchResult(result)
  } finally {
    // The session would expire by itself (60 min); logging out keeps the key's sessions few.
    await call(ctx, endpoint, 'Wyloguj', `<ns:Wyloguj><ns:pIdentyfikatorSesji>${escapeXml(sid)}</ns:pIdentyfikatorSesji></ns:Wyloguj>`, signal, sid).catch(() => undefined)
  }
}
