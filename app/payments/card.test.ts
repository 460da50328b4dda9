// Card data (seed 000 §4/§5): validation by brand with card-validator, month/year options, and the
// cypher round trip through the card vault (encrypt as the browser does, open as the server does).
import { describe, expect, it } from 'vitest'
import { CANCEL_REASONS, RETURN_INTENTS } from '#app/db/schema.server.ts'
import { SURVEY_REASONS, SURVEY_RETURN_INTENTS } from '#app/domain/membership-survey.ts'
import { testCardToken, testCardTokenDeclines } from '#app/models/membership.server.ts'
import { cardStates, cvvState, detectBrand, encryptCard, formatCardNumber, monthOptions, monthState, numberState, yearOptions, yearState } from './card.ts'
import { cardVaultPublicKey, openCardCypher } from './card-vault.server.ts'

// 15 March 2026, midday UTC.
const NOW = Date.UTC(2026, 2, 15, 12)
const dev = { ENVIRONMENT: 'development' }
const ORIGIN = 'http://code-academy.localhost:8787'
const good = { cardNumber: '4111 1111 1111 1111', cardMonth: '04', cardYear: '2026', cardCvv: '123' }

describe('card fields', () => {
  it('recognises brands with their code size and spacing', () => {
    expect(detectBrand('4111').type).toBe('visa')
    expect(detectBrand('5555 5555').type).toBe('mastercard')
    expect(detectBrand('6011').type).toBe('discover')
    const amex = detectBrand('3782')
    expect(amex).toMatchObject({ type: 'american-express', codeSize: 4, lengths: [15] })
    expect(detectBrand('').codeSize).toBe(3)
    expect(detectBrand('').lengths).toEqual([16])
    expect(formatCardNumber('4111111111111111')).toBe('4111 1111 1111 1111')
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005')
    // Cut at the brand's longest length.
    expect(formatCardNumber('37828224631000599')).toBe('3782 822463 10005')
  })

  it('number: valid, potentially valid while typing, invalid once it cannot become valid', () => {
    expect(numberState('4111 1111 1111 1111')).toBe('valid')
    expect(numberState('4111 1111')).toBe('potential')
    // Visa may still grow to 19 digits: a 16-digit Luhn failure is only potentially invalid...
    expect(numberState('4111 1111 1111 1112')).toBe('potential')
    // ...Mastercard is 16 digits only, so the same failure is final.
    expect(numberState('5555 5555 5555 4445')).toBe('invalid')
    expect(numberState('5555 5555 5555 4444')).toBe('valid')
    expect(numberState('abcd')).toBe('invalid')
  })

  it('security code follows the brand (Amex 4 digits)', () => {
    expect(cvvState('123', '4111111111111111')).toBe('valid')
    expect(cvvState('12', '4111111111111111')).toBe('potential')
    expect(cvvState('1234', '4111111111111111')).toBe('invalid')
    expect(cvvState('1234', '378282246310005')).toBe('valid')
    expect(cvvState('123', '378282246310005')).toBe('potential')
    expect(cvvState('12a', '4111111111111111')).toBe('invalid')
  })

  it('months 01-12 and years this year + 11; this year only from the current month', () => {
    expect(monthOptions()).toEqual(['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'])
    const years = yearOptions(NOW)
    expect(years).toHaveLength(12)
    expect(years[0]).toBe('2026')
    expect(years[11]).toBe('2037')
    expect(monthState('02', '2026', NOW)).toBe('invalid')
    expect(monthState('03', '2026', NOW)).toBe('valid')
    expect(monthState('02', '2027', NOW)).toBe('valid')
    expect(monthState('13', '2027', NOW)).toBe('invalid')
    expect(monthState('', '2027', NOW)).toBe('potential')
    expect(yearState('2025', NOW)).toBe('invalid')
    expect(yearState('2038', NOW)).toBe('invalid')
    expect(yearState('2037', NOW)).toBe('valid')
    expect(cardStates(good, NOW)).toEqual({ cardNumber: 'valid', cardMonth: 'valid', cardYear: 'valid', cardCvv: 'valid' })
  })

  it('the browser-side survey lists equal the schema enums', () => {
    expect([...SURVEY_REASONS]).toEqual([...CANCEL_REASONS])
    expect([...SURVEY_RETURN_INTENTS]).toEqual([...RETURN_INTENTS])
  })
})

describe('cypher round trip', () => {
  const key = cardVaultPublicKey(dev)!

  it('opens what the card form encrypts: only brand, last 4 and expiry come out', async () => {
    expect(key.d).toBeUndefined()
    const cypher = await encryptCard(key, { ...good, origin: ORIGIN })
    expect(cypher).toMatch(/^v1\.[\w-]+\.[\w-]{16}\.[\w-]+$/)
    expect(cypher).not.toContain('4111')
    const opened = await openCardCypher(dev, cypher, ORIGIN, NOW)
    expect(opened).toEqual({ ok: true, card: { number: '4111111111111111', brand: 'visa', last4: '1111', expMonth: 4, expYear: 2026 } })
    // Each encryption is different (random key and IV).
    expect(await encryptCard(key, { ...good, origin: ORIGIN })).not.toBe(cypher)
  })

  it('refuses another origin, an altered cypher, garbage, and an invalid card; reports missing fields', async () => {
    const cypher = await encryptCard(key, { ...good, origin: ORIGIN })
    expect(await openCardCypher(dev, cypher, 'http://other-school.localhost:8787', NOW)).toEqual({ ok: false, problem: 'invalid' })
    const parts = cypher.split('.')
    const last = parts[3]!
    const flipped = [...parts.slice(0, 3), (last[0] === 'A' ? 'B' : 'A') + last.slice(1)].join('.')
    expect(await openCardCypher(dev, flipped, ORIGIN, NOW)).toEqual({ ok: false, problem: 'invalid' })
    expect(await openCardCypher(dev, 'v1.abc.def.ghi', ORIGIN, NOW)).toEqual({ ok: false, problem: 'invalid' })
    expect(await openCardCypher(dev, 'x'.repeat(5000), ORIGIN, NOW)).toEqual({ ok: false, problem: 'invalid' })
    const luhn = await encryptCard(key, { ...good, cardNumber: '4111111111111112', origin: ORIGIN })
    expect(await openCardCypher(dev, luhn, ORIGIN, NOW)).toEqual({ ok: false, problem: 'invalid' })
    const expired = await encryptCard(key, { ...good, cardMonth: '02', origin: ORIGIN })
    expect(await openCardCypher(dev, expired, ORIGIN, NOW)).toEqual({ ok: false, problem: 'invalid' })
    const amexShortCode = await encryptCard(key, { cardNumber: '378282246310005', cardMonth: '12', cardYear: '2030', cardCvv: '123', origin: ORIGIN })
    expect(await openCardCypher(dev, amexShortCode, ORIGIN, NOW)).toEqual({ ok: false, problem: 'invalid' })
    const missing = await encryptCard(key, { ...good, cardCvv: '', origin: ORIGIN })
    expect(await openCardCypher(dev, missing, ORIGIN, NOW)).toEqual({ ok: false, problem: 'incomplete' })
  })

  it('production without CARD_VAULT_KEY has no vault; a configured key is used instead of the development one', async () => {
    expect(cardVaultPublicKey({ ENVIRONMENT: 'production' })).toBeNull()
    expect(await openCardCypher({ ENVIRONMENT: 'production' }, 'v1.a.b.c', ORIGIN, NOW)).toEqual({ ok: false, problem: 'unavailable' })
    const pair = (await crypto.subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt'])) as CryptoKeyPair
    const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey
    const prod = { ENVIRONMENT: 'production', CARD_VAULT_KEY: JSON.stringify(jwk) }
    const publicKey = cardVaultPublicKey(prod)!
    expect(publicKey.n).toBe(jwk.n)
    const cypher = await encryptCard(publicKey, { ...good, origin: ORIGIN })
    expect((await openCardCypher(prod, cypher, ORIGIN, NOW)).ok).toBe(true)
    // Made for the development key: refused by this deployment.
    expect(await openCardCypher(prod, await encryptCard(key, { ...good, origin: ORIGIN }), ORIGIN, NOW)).toEqual({ ok: false, problem: 'invalid' })
  })
})

describe('test card tokens (contract with the billing side)', () => {
  it('marks 4000 0000 0000 0002 as declining and nothing else', () => {
    const decline = testCardToken('4000 0000 0000 0002')
    expect(decline).toMatch(/^tok_test_0002_decline_[a-z0-9]+$/)
    expect(testCardTokenDeclines(decline)).toBe(true)
    const ok = testCardToken('4242424242424242')
    expect(ok).toMatch(/^tok_test_4242_ok_[a-z0-9]+$/)
    expect(testCardTokenDeclines(ok)).toBe(false)
    expect(testCardTokenDeclines('pm_123')).toBeNull()
    expect(testCardTokenDeclines(null)).toBeNull()
  })
})
