// The VIES peer: checkVat over SOAP 1.1, valid/invalid numbers, "---" for unshared data, faults.
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'
import { xmlText } from './gus.ts'

const peersEnv = env as unknown as PeersEnv
const TYPES_NS = 'urn:ec.europa.eu:taxud:vies:services:checkVat:types'

function checkVat(countryCode: string, vatNumber: string, contentType = 'text/xml; charset=utf-8') {
  return peersApp.request(
    'http://dev-peers.internal/vies/services/checkVatService',
    {
      method: 'POST',
      headers: { 'Content-Type': contentType, SOAPAction: '""' },
      body: `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:urn="${TYPES_NS}"><soapenv:Body><urn:checkVat><urn:countryCode>${countryCode}</urn:countryCode><urn:vatNumber>${vatNumber}</urn:vatNumber></urn:checkVat></soapenv:Body></soapenv:Envelope>`,
    },
    peersEnv,
  )
}
const control = (path: string, json: unknown) =>
  peersApp.request(`http://dev-peers.internal/_peer/vies${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) }, peersEnv)
const freshNumber = () => String(100_000_000 + (crypto.getRandomValues(new Uint32Array(1))[0]! % 800_000_000))

describe('VIES peer', () => {
  afterEach(async () => {
    await control('/fault', { down: false })
  })

  it('answers valid with name and address for a known number, valid=false with "---" otherwise', async () => {
    const number = freshNumber()
    expect((await control('/companies', { countryCode: 'AT', vatNumber: `U${number.slice(0, 8)}`, name: 'Beispiel Kurse GmbH', address: 'Ringstraße 1\n1010 Wien' })).status).toBe(201)
    const res = await checkVat('AT', `U${number.slice(0, 8)}`)
    expect(res.status).toBe(200)
    const xml = await res.text()
    expect(xmlText(xml, 'valid')).toBe('true')
    expect(xmlText(xml, 'name')).toBe('Beispiel Kurse GmbH')
    expect(xmlText(xml, 'address')).toBe('Ringstraße 1\n1010 Wien')
    expect(xmlText(xml, 'requestDate')).toMatch(/^\d{4}-\d{2}-\d{2}\+01:00$/)

    const unknown = await (await checkVat('DE', freshNumber())).text()
    expect(xmlText(unknown, 'valid')).toBe('false')
    expect(xmlText(unknown, 'name')).toBe('---')
  })

  it('faults INVALID_INPUT for a country VIES does not know or an empty number; refuses other content types', async () => {
    const res = await checkVat('US', '123456789')
    expect(res.status).toBe(500)
    expect(xmlText(await res.text(), 'faultstring')).toBe('INVALID_INPUT')
    expect(xmlText(await (await checkVat('DE', '')).text(), 'faultstring')).toBe('INVALID_INPUT')
    expect((await checkVat('DE', '123', 'application/json')).status).toBe(415)
  })

  it('answers the chosen fault while down', async () => {
    await control('/fault', { down: true })
    expect(xmlText(await (await checkVat('DE', '100000001')).text(), 'faultstring')).toBe('MS_UNAVAILABLE')
    await control('/fault', { down: true, fault: 'TIMEOUT' })
    const res = await checkVat('DE', '100000001')
    expect(res.status).toBe(500)
    expect(xmlText(await res.text(), 'faultstring')).toBe('TIMEOUT')
  })
})
