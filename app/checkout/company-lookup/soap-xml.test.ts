// The SOAP reading helpers: local-name lookup, entities, the MTOM root part, VIES addresses.
import { describe, expect, it } from 'vitest'
import { readGusSearchResult } from './gus.server.ts'
import { RegisterUnavailableError } from './registers.ts'
import { elementText, escapeXml, hasElement, soapEnvelopeOf } from './soap-xml.ts'
import { splitViesAddress } from './vies.server.ts'

describe('soap-xml', () => {
  it('reads an element by local name whatever its prefix, decoding entities and keeping CDATA', () => {
    const xml = '<s:Envelope><s:Body><R xmlns="x"><a:Name attr="1">A &amp; B &lt;sp. z o.o.&gt; &#321;&#x105;</a:Name><Empty/><C><![CDATA[<x>]]></C></R></s:Body></s:Envelope>'
    expect(elementText(xml, 'Name')).toBe('A & B <sp. z o.o.> Łą')
    expect(elementText(xml, 'Empty')).toBe('')
    expect(elementText(xml, 'C')).toBe('<x>')
    expect(elementText(xml, 'Missing')).toBeUndefined()
    expect(hasElement(xml, 'Body')).toBe(true)
    expect(hasElement(xml, 'Bod')).toBe(false)
    expect(escapeXml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;')
  })

  it('does not confuse names that start alike (Miejscowosc / MiejscowoscPoczty, Nip / StatusNip)', () => {
    const dane = '<dane><StatusNip>x</StatusNip><Nip>1</Nip><MiejscowoscPoczty>P</MiejscowoscPoczty><Miejscowosc>M</Miejscowosc></dane>'
    expect(elementText(dane, 'Nip')).toBe('1')
    expect(elementText(dane, 'Miejscowosc')).toBe('M')
  })

  it('takes the root part of an MTOM answer (by its start Content-ID) and passes plain bodies through', () => {
    const boundary = 'uuid:abc+id=1'
    const type = `multipart/related; type="application/xop+xml"; start="<http://tempuri.org/0>"; boundary="${boundary}"; start-info="application/soap+xml"`
    const body = `--${boundary}\r\nContent-ID: <http://tempuri.org/1>\r\nContent-Type: text/plain\r\n\r\nnot this\r\n--${boundary}\r\nContent-ID: <http://tempuri.org/0>\r\nContent-Transfer-Encoding: 8bit\r\nContent-Type: application/xop+xml;charset=utf-8;type="application/soap+xml"\r\n\r\n<s:Envelope>ok</s:Envelope>\r\n--${boundary}--\r\n`
    expect(soapEnvelopeOf(type, body)).toBe('<s:Envelope>ok</s:Envelope>')
    expect(soapEnvelopeOf('application/soap+xml; charset=utf-8', '<s:Envelope/>')).toBe('<s:Envelope/>')
  })
})

describe('GUS search result', () => {
  it('maps a record to the checkout fields, with the flat number and the post office town', () => {
    const result = readGusSearchResult(
      '<root><dane><Regon>123456785</Regon><Nip>1234563218</Nip><Nazwa>WZOROWE SZKOLENIA S.A.</Nazwa><Miejscowosc>Kraków</Miejscowosc><KodPocztowy>30-001</KodPocztowy><Ulica>ul. Fikcyjna</Ulica><NrNieruchomosci>7</NrNieruchomosci><NrLokalu>3</NrLokalu><MiejscowoscPoczty>Kraków</MiejscowoscPoczty></dane></root>',
    )
    expect(result).toEqual({ found: true, company: { name: 'WZOROWE SZKOLENIA S.A.', street: 'ul. Fikcyjna 7/3', postalCode: '30-001', city: 'Kraków', country: 'PL', regon: '123456785' } })
  })

  it('uses the place as the street of a village without streets', () => {
    const result = readGusSearchResult(
      '<root><dane><Nazwa>S</Nazwa><Miejscowosc>Dąbrowa</Miejscowosc><KodPocztowy>97-217</KodPocztowy><Ulica /><NrNieruchomosci>41</NrNieruchomosci><NrLokalu /><MiejscowoscPoczty>Lubochnia</MiejscowoscPoczty></dane></root>',
    )
    expect(result.found && result.company).toMatchObject({ street: 'Dąbrowa 41', city: 'Lubochnia' })
  })

  it('reads an empty result and ErrorCode 4 as not found, other codes as the service failing', () => {
    expect(readGusSearchResult('')).toEqual({ found: false })
    expect(readGusSearchResult('<root><dane><ErrorCode>4</ErrorCode></dane></root>')).toEqual({ found: false })
    expect(() => readGusSearchResult('<root><dane><ErrorCode>7</ErrorCode></dane></root>')).toThrow(RegisterUnavailableError)
    expect(() => readGusSearchResult('<html>')).toThrow(RegisterUnavailableError)
  })
})

describe('VIES address', () => {
  it('splits "street\\nCODE TOWN" and keeps unreadable addresses whole in the street', () => {
    expect(splitViesAddress('Musterstraße 5\n10115 Berlin')).toEqual({ street: 'Musterstraße 5', postalCode: '10115', city: 'Berlin' })
    expect(splitViesAddress('RUE DE LA LOI 1, 1000 BRUXELLES')).toEqual({ street: 'RUE DE LA LOI 1', postalCode: '1000', city: 'BRUXELLES' })
    expect(splitViesAddress('KERKSTRAAT 3\n1234 AB AMSTERDAM')).toEqual({ street: 'KERKSTRAAT 3', postalCode: '1234 AB', city: 'AMSTERDAM' })
    expect(splitViesAddress('SOMEWHERE ONLY')).toEqual({ street: 'SOMEWHERE ONLY', postalCode: '', city: '' })
  })
})
