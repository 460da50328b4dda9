// The GUS BIR 1.1 peer: SOAP 1.2 + WS-Addressing checks, sessions, the escaped search answer, MTOM,
// and its control switches (the app's client is tested in app/checkout/company-lookup/).
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { GUS_DEV, xmlText } from './gus.ts'

const peersEnv = env as unknown as PeersEnv
const ENDPOINT = 'http://dev-peers.internal/gus/wsBIR/UslugaBIRzewnPubl.svc'
const NS = 'http://CIS/BIR/PUBL/2014/07'
const action = (op: string) => `${NS}/IUslugaBIRzewnPubl/${op}`

function soap(op: string, inner: string, opts: { sid?: string; action?: string | null; to?: string; contentType?: string } = {}) {
  const act = opts.action === undefined ? action(op) : opts.action
  const header = `<soap:Header xmlns:wsa="http://www.w3.org/2005/08/addressing"><wsa:To>${opts.to ?? ENDPOINT}</wsa:To>${act ? `<wsa:Action>${act}</wsa:Action>` : ''}</soap:Header>`
  return peersApp.request(
    ENDPOINT,
    {
      method: 'POST',
      headers: { 'Content-Type': opts.contentType ?? `application/soap+xml; charset=utf-8; action="${act}"`, ...(opts.sid ? { sid: opts.sid } : {}) },
      body: `<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:ns="${NS}" xmlns:dat="${NS}/DataContract">${header}<soap:Body>${inner}</soap:Body></soap:Envelope>`,
    },
    peersEnv,
  )
}
/** MTOM bodies read as bytes (workerd warns on .text() of multipart). */
const text = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer())
const login = async (key: string) => xmlText(await text(await soap('Zaloguj', `<ns:Zaloguj><ns:pKluczUzytkownika>${key}</ns:pKluczUzytkownika></ns:Zaloguj>`)), 'ZalogujResult')
const search = (sid: string, nip: string) =>
  soap('DaneSzukajPodmioty', `<ns:DaneSzukajPodmioty><ns:pParametryWyszukiwania><dat:Nip>${nip}</dat:Nip></ns:pParametryWyszukiwania></ns:DaneSzukajPodmioty>`, { sid })
const logout = (sid: string) => soap('Wyloguj', `<ns:Wyloguj><ns:pIdentyfikatorSesji>${sid}</ns:pIdentyfikatorSesji></ns:Wyloguj>`, { sid })
const control = (path: string, json?: unknown) =>
  peersApp.request(`http://dev-peers.internal/_peer/gus${path}`, json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) }, peersEnv)

/** A NIP with a valid checksum that no fixture uses (random first nine digits). */
function freshNip() {
  const w = [6, 5, 7, 2, 3, 4, 5, 6, 7]
  for (;;) {
    const nine = Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b % 10).join('')
    const check = w.reduce((s, x, i) => s + x * Number(nine[i]), 0) % 11
    if (check !== 10 && nine[0] !== '0') return `${nine}${check}`
  }
}

describe('GUS BIR 1.1 peer', () => {
  afterEach(async () => {
    await control('/fault', { down: false, mtom: true })
  })

  it('logs in with the test key, finds a fixture as an escaped XML string in an MTOM answer, logs out once', async () => {
    const sid = await login(GUS_DEV.key)
    expect(sid).toMatch(/^[a-z0-9]{20}$/)
    const res = await search(sid!, '5260250274')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toMatch(/^multipart\/related; type="application\/xop\+xml"; start="<http:\/\/tempuri.org\/0>"; boundary="uuid:/)
    const raw = await text(res)
    expect(raw).toContain('&lt;root&gt;&lt;dane&gt;')
    expect(raw).toContain(`<a:Action s:mustUnderstand="1">${action('DaneSzukajPodmioty')}Response</a:Action>`)
    const dane = xmlText(raw, 'DaneSzukajPodmiotyResult')!
    expect(xmlText(dane, 'Nazwa')).toBe('PRZYKŁADOWA AKADEMIA KURSÓW SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ')
    expect(xmlText(dane, 'KodPocztowy')).toBe('00-916')
    expect(xmlText(dane, 'Ulica')).toBe('ul. Testowa')

    expect(xmlText(await text(await logout(sid!)), 'WylogujResult')).toBe('true')
    expect(xmlText(await text(await logout(sid!)), 'WylogujResult')).toBe('false')
    const { sessions } = (await (await control(`/sessions?key=${GUS_DEV.key}`)).json()) as { sessions: Array<{ sid: string; closedAt: number | null }> }
    expect(sessions.find((s) => s.sid === sid)?.closedAt).toEqual(expect.any(Number))
    // A closed session finds nothing.
    expect(xmlText(await text(await search(sid!, '5260250274')), 'DaneSzukajPodmiotyResult')).toBe('')
  })

  it('answers an empty session id to an unknown key, and ErrorCode 4 for a NIP it does not know', async () => {
    expect(await login('00000000000000000000')).toBe('')
    const sid = await login(GUS_DEV.strangerKey)
    const dane = xmlText(await text(await search(sid!, freshNip())), 'DaneSzukajPodmiotyResult')!
    expect(xmlText(dane, 'ErrorCode')).toBe('4')
  })

  it('finds a company added through the control API; refuses a fixture with a wrong checksum', async () => {
    const nip = freshNip()
    const wrong = `${nip.slice(0, 9)}${(Number(nip[9]) + 1) % 10}`
    expect((await control('/companies', { nip: wrong, name: 'X', place: 'Gdańsk', postalCode: '80-001' })).status).toBe(400)
    expect((await control('/companies', { nip, name: 'Fikcja Testowa sp. z o.o.', place: 'Gdańsk', postalCode: '80-001', street: 'ul. Długa', building: '1', unit: '2' })).status).toBe(201)
    const sid = await login(GUS_DEV.key)
    const dane = xmlText(await text(await search(sid!, nip)), 'DaneSzukajPodmiotyResult')!
    expect(xmlText(dane, 'Nazwa')).toBe('Fikcja Testowa sp. z o.o.')
    expect(xmlText(dane, 'NrLokalu')).toBe('2')
  })

  it('checks the envelope: content type, wsa:Action, wsa:To, the operation in the body', async () => {
    const zaloguj = `<ns:Zaloguj><ns:pKluczUzytkownika>${GUS_DEV.key}</ns:pKluczUzytkownika></ns:Zaloguj>`
    expect((await soap('Zaloguj', zaloguj, { contentType: 'text/xml; charset=utf-8' })).status).toBe(415)
    const noAction = await soap('Zaloguj', zaloguj, { action: null })
    expect(noAction.status).toBe(500)
    expect(await text(noAction)).toContain('a:MessageAddressingHeaderRequired')
    expect(await text(await soap('Zaloguj', zaloguj, { action: `${NS}/IUslugaBIRzewnPubl/Nope` }))).toContain('a:ActionNotSupported')
    expect(await text(await soap('Zaloguj', zaloguj, { to: 'http://elsewhere.example/svc' }))).toContain('a:DestinationUnreachable')
    expect(await text(await soap('Zaloguj', zaloguj, { action: action('Wyloguj') }))).toContain('a:DeserializationFailed')
  })

  it('answers 503 to searches for one NIP while that NIP is switched down, and the rest as before', async () => {
    const down = freshNip()
    await control('/fault', { nip: down, down: true })
    const sid = (await login(GUS_DEV.key))!
    expect((await search(sid, down)).status).toBe(503)
    expect(xmlText(await text(await search(sid, '5260250274')), 'DaneSzukajPodmiotyResult')).toContain('5260250274')
    await control('/fault', { nip: down, down: false })
    expect((await search(sid, down)).status).toBe(200)
  })

  it('answers plain SOAP 1.2 when MTOM is switched off, and 503 while down', async () => {
    await control('/fault', { mtom: false })
    const res = await soap('Zaloguj', `<ns:Zaloguj><ns:pKluczUzytkownika>${GUS_DEV.key}</ns:pKluczUzytkownika></ns:Zaloguj>`)
    expect(res.headers.get('Content-Type')).toBe('application/soap+xml; charset=utf-8')
    expect(await text(res)).toMatch(/^<s:Envelope/)
    await control('/fault', { down: true })
    expect((await soap('Zaloguj', `<ns:Zaloguj><ns:pKluczUzytkownika>${GUS_DEV.key}</ns:pKluczUzytkownika></ns:Zaloguj>`)).status).toBe(503)
  })
})
