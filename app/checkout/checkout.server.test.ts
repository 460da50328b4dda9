import { describe, expect, it } from 'vitest'
import type { Product } from '#app/db/schema.server.ts'
import { parseWith } from '#app/utils/validation.ts'
import { checkoutSchema, quantityMax, quote, unavailable, type CheckoutOffer } from './checkout.server.ts'
import { seedStatus } from './pending.server.ts'

function offer(over: Partial<Product> = {}, extra: Partial<CheckoutOffer> = {}): CheckoutOffer {
  const product = { id: 'p1', kind: 'course', slug: 'c', title: 'C', vatRate: 23, isFree: false, shippingLockerPrice: 1200, shippingCourierPrice: 1900, ...over } as Product
  return { product, prices: [{ id: 'v1', name: '', amount: 10000 }, { id: 'v2', name: 'Pro', amount: 20000 }], promo: false, lowestPrice30Days: null, hasAccess: false, bump: null, remaining: null, ...extra }
}

const base = { name: 'Ann', email: 'ann@example.com', password: 'secret-1', terms: 'on', waiver: 'on' }
const errorsOf = (o: CheckoutOffer, input: Record<string, string>, signedIn = false, country = 'PL') => {
  const r = parseWith(checkoutSchema(o, signedIn, country), input)
  return r.ok ? {} : r.errors
}

describe('checkout schema', () => {
  it('simplified checkout (issue 23 §11): name, e-mail and consents; invoice and address fields dropped, a courier keeps its address', () => {
    const simple = (o: CheckoutOffer, input: Record<string, string>) => parseWith(checkoutSchema(o, false, 'PL', true), input)
    const ok = simple(offer(), { name: 'Ann', email: 'ann@example.com', terms: 'on', waiver: 'on', invoice: 'company', companyName: '', vatNumber: 'bad!', postalCode: '12345' })
    expect(ok.ok && { invoice: ok.data.invoice, companyName: ok.data.companyName, vatNumber: ok.data.vatNumber, postalCode: ok.data.postalCode }).toEqual({ invoice: 'none', companyName: '', vatNumber: '', postalCode: '' })
    const refused = simple(offer(), { name: '', email: 'ann@example.com', terms: 'on', waiver: 'on' })
    expect(!refused.ok && Object.keys(refused.errors)).toEqual(['name'])
    const courier = simple(offer({ kind: 'physical' }), { name: 'Ann', email: 'ann@example.com', terms: 'on', shipmentType: 'courier' })
    expect(!courier.ok && Object.keys(courier.errors).sort()).toEqual(['address', 'city', 'postalCode'])
    // The full checkout still asks for a password.
    expect(errorsOf(offer(), { name: 'Ann', email: 'ann@example.com', terms: 'on', waiver: 'on' }).password?.key).toBe('validation.password_min')
  })

  it('VAT number: international format, letters and digits only, or empty', () => {
    const company = { ...base, invoice: 'company', companyName: 'ACME', address: 'Polna 1', city: 'Kraków', postalCode: '12-345' }
    for (const ok of ['PL1234567890', 'pl1234567890', 'DE123456789', ' PL1234567890 ']) expect(errorsOf(offer(), { ...company, vatNumber: ok }), ok).toEqual({})
    for (const bad of ['1234567890', 'PL 1234567890', 'PL-1234567890', 'P1', 'PL12345678901234567']) expect(errorsOf(offer(), { ...company, vatNumber: bad }).vatNumber?.key, bad).toBe('checkout.error.vat')
    expect(errorsOf(offer(), { ...base, vatNumber: '' })).toEqual({})
  })

  it('postal code 12-345 only when the country is PL', () => {
    const person = { ...base, invoice: 'person', address: 'Main 1', city: 'Town' }
    expect(errorsOf(offer(), { ...person, postalCode: '12345' }).postalCode?.key).toBe('checkout.error.postal_code')
    expect(errorsOf(offer(), { ...person, postalCode: '12-345' })).toEqual({})
    expect(errorsOf(offer(), { ...person, postalCode: '10001', country: 'US' })).toEqual({})
    expect(errorsOf(offer(), { ...person, postalCode: '10001' }, false, 'US')).toEqual({})
  })

  it('seats: 1..1000 for a course, 1 for anything else, within the sale limit', () => {
    expect(quantityMax(offer())).toBe(1000)
    expect(quantityMax(offer({ kind: 'file' }))).toBe(1)
    expect(quantityMax(offer({}, { remaining: 3 }))).toBe(3)
    for (const q of ['0', '10000', '-1', '2.5', 'abc']) expect(errorsOf(offer(), { ...base, quantity: q }).quantity?.key, q).toBe('checkout.error.quantity')
    expect(errorsOf(offer({}, { remaining: 3 }), { ...base, quantity: '4' }).quantity).toEqual({ key: 'checkout.error.quantity', values: { max: 3 } })
    expect(errorsOf(offer({ kind: 'file' }), { ...base, quantity: '2' }).quantity?.key).toBe('checkout.error.quantity')
    expect(unavailable(offer({}, { remaining: 0 }))).toBe('sold_out')
    expect(unavailable(offer({}, { prices: [] }))).toBe('not_priced')
  })

  it('consents: terms always, the waiver for digital content (also a digital bump on a physical order)', () => {
    expect(errorsOf(offer(), { ...base, terms: '' }).terms?.key).toBe('checkout.error.required_consent')
    expect(errorsOf(offer(), { ...base, waiver: '' }).waiver?.key).toBe('checkout.error.required_consent')
    const physical = offer({ kind: 'physical' }, { bump: { productId: 'b', title: 'B', kind: 'file', amount: 500, vatRate: 23, text: '' } })
    const order = { ...base, waiver: '', shipmentType: 'parcel_locker', parcelLockerCode: 'KRA01M' }
    expect(errorsOf(physical, order)).toEqual({})
    expect(errorsOf(physical, { ...order, bump: 'on' }).waiver?.key).toBe('checkout.error.required_consent')
  })

  it('a visitor logging in needs no name and no new-password length', () => {
    expect(errorsOf(offer(), { ...base, mode: 'login', name: '', password: 'x' })).toEqual({})
    expect(errorsOf(offer(), { ...base, mode: 'register', name: '', password: 'x' })).toMatchObject({ name: { key: 'validation.required' }, password: { key: 'validation.password_min' } })
    expect(errorsOf(offer(), { terms: 'on', waiver: 'on' }, true)).toEqual({})
  })
})

describe('quote', () => {
  it('prices the chosen variant × seats, the promo on that line, the bump and shipping', () => {
    const o = offer({}, { bump: { productId: 'b', title: 'B', kind: 'file', amount: 1900, vatRate: 8, text: '' } })
    expect(quote(o, { price: 'v2', quantity: 2, shipmentType: undefined, bump: 'on' }, { kind: 'percent', value: 10 })!.breakdown).toMatchObject({
      subtotal: 40000,
      discount: 4000,
      bump: 1900,
      total: 37900,
      vat: Math.round((36000 * 23) / 123) + Math.round((1900 * 8) / 108),
    })
    expect(quote(o, { price: 'someone-elses', quantity: 1, shipmentType: undefined, bump: undefined }, null)).toBeNull()
    const parcel = quote(offer({ kind: 'physical' }), { price: '', quantity: 1, shipmentType: 'parcel_locker', bump: 'on' }, null)!
    expect(parcel.breakdown).toMatchObject({ shipping: 1200, bump: 0, total: 11200 })
  })
})

describe('pending statuses', () => {
  it('maps transaction statuses to the seed\'s', () => {
    expect(seedStatus({ status: 'completed', totalAmount: 100 })).toBe('PERFORMED')
    expect(seedStatus({ status: 'completed', totalAmount: 0 })).toBe('ACCESS_GRANTED')
    expect(seedStatus({ status: 'failed', totalAmount: 100 })).toBe('FAILURE')
    expect(seedStatus({ status: 'canceled', totalAmount: 100 })).toBe('CANCELED')
    expect(seedStatus({ status: 'pending', totalAmount: 100 })).toBe('PENDING')
    expect(seedStatus({ status: 'waiting', totalAmount: 100 })).toBe('PENDING')
  })
})
