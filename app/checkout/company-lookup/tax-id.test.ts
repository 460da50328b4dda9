// NIP checksums and the reading of what the buyer typed (pure; runs with the company-lookup tests).
import { describe, expect, it } from 'vitest'
import { isValidNip, nipCheckDigit, parseTaxId, taxIdKey } from './tax-id.ts'

describe('NIP checksum', () => {
  it('accepts numbers whose tenth digit is Σ dᵢ·wᵢ mod 11, refuses any other last digit', () => {
    expect(nipCheckDigit('526025027')).toBe(4)
    expect(isValidNip('5260250274')).toBe(true)
    expect(isValidNip('1234563218')).toBe(true)
    for (const d of '012356789') expect(isValidNip(`526025027${d}`)).toBe(false)
    expect(isValidNip('526025027')).toBe(false)
    expect(isValidNip('52602502744')).toBe(false)
  })

  it('knows that prefixes summing to 10 mod 11 have no valid NIP at all', () => {
    // Some nine-digit prefix among the first thousand has the weighted sum ≡ 10 (mod 11).
    const tenPrefix = Array.from({ length: 1000 }, (_, i) => String(100000000 + i)).find((p) => nipCheckDigit(p) === null)!
    expect(tenPrefix).toBeDefined()
    for (let d = 0; d <= 9; d++) expect(isValidNip(`${tenPrefix}${d}`)).toBe(false)
  })
})

describe('parseTaxId', () => {
  it('reads a NIP with separators or the PL prefix', () => {
    expect(parseTaxId('526-025-02-74')).toEqual({ kind: 'nip', nip: '5260250274' })
    expect(parseTaxId(' pl 526 025 02 74 ')).toEqual({ kind: 'nip', nip: '5260250274' })
    expect(parseTaxId('PL5260250275')).toEqual({ kind: 'invalid', reason: 'checksum' })
    expect(parseTaxId('12345')).toEqual({ kind: 'invalid', reason: 'checksum' })
  })

  it('reads other EU VAT numbers for VIES and refuses non-EU prefixes', () => {
    expect(parseTaxId('DE 100000001')).toEqual({ kind: 'vat', country: 'DE', number: '100000001' })
    expect(parseTaxId('atu12345678')).toEqual({ kind: 'vat', country: 'AT', number: 'U12345678' })
    expect(parseTaxId('EL123456789')).toEqual({ kind: 'vat', country: 'EL', number: '123456789' })
    expect(parseTaxId('US123456789')).toEqual({ kind: 'invalid', reason: 'format' })
    expect(parseTaxId('')).toEqual({ kind: 'invalid', reason: 'format' })
  })

  it('keys the cache by prefix and national number', () => {
    expect(taxIdKey({ kind: 'nip', nip: '5260250274' })).toBe('PL5260250274')
    expect(taxIdKey({ kind: 'vat', country: 'DE', number: '100000001' })).toBe('DE100000001')
  })
})
