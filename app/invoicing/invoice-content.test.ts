import { describe, expect, it } from 'vitest'
import { buildInvoiceContent, InvoiceContentError, splitVatNumber, toDecimal, warsawDate, type SaleForInvoice } from './invoice-content.ts'

const sale = (over: Partial<SaleForInvoice> = {}): SaleForInvoice => ({
  hash: 'h1',
  currency: 'pln',
  productTitle: 'Kurs',
  quantity: 3,
  unitAmount: 3333,
  discountAmount: 1000,
  bumpAmount: 4900,
  shippingAmount: 1299,
  totalAmount: 3333 * 3 - 1000 + 4900 + 1299,
  completedAt: Date.UTC(2026, 10, 30, 23, 30),
  createdAt: 0,
  buyer: { name: 'Jan Kowalski', email: 'jan@example.com' },
  invoiceDetails: null,
  ...over,
})
const labels = { shipping: 'Wysyłka', bump: 'Dodatek' }

describe('toDecimal', () => {
  it('converts minor units exactly', () => {
    expect([0, 1, 10, 99, 100, 12345, 1999999999, -5, -12345].map(toDecimal)).toEqual(['0.00', '0.01', '0.10', '0.99', '1.00', '123.45', '19999999.99', '-0.05', '-123.45'])
    expect(() => toDecimal(1.5)).toThrow()
  })
})

describe('buildInvoiceContent', () => {
  it('one line per thing sold, with each product’s VAT rate, adding up to the amount paid', () => {
    const c = buildInvoiceContent(sale(), { product: 23, bump: { title: 'Ebook', vatRate: 5 } }, labels)
    expect(c.lines).toEqual([
      { name: 'Kurs', quantity: 3, grossTotal: 8999, vatRate: 23 },
      { name: 'Ebook', quantity: 1, grossTotal: 4900, vatRate: 5 },
      { name: 'Wysyłka', quantity: 1, grossTotal: 1299, vatRate: 23 },
    ])
    expect(c.totalGross).toBe(15198)
    expect(c.currency).toBe('PLN')
    // Paid at 00:30 in Warsaw on 1 December.
    expect(c.date).toBe('2026-12-01')
    expect(c.buyer).toMatchObject({ kind: 'person', name: 'Jan Kowalski', email: 'jan@example.com', vatNumber: null, postalCode: null })
  })

  it('a company buyer with its VAT number; an exempt product', () => {
    const c = buildInvoiceContent(
      sale({ bumpAmount: 0, shippingAmount: 0, quantity: 1, discountAmount: 0, totalAmount: 3333, invoiceDetails: { type: 'company', name: 'Anna', companyName: 'ACME Sp. z o.o.', vatNumber: 'pl 5252445767', address: 'Prosta 1', city: 'Warszawa', postalCode: '00-001', country: 'pl' } }),
      { product: null, bump: null },
      labels,
    )
    expect(c.buyer).toEqual({ kind: 'company', name: 'ACME Sp. z o.o.', email: 'jan@example.com', vatNumber: 'PL5252445767', address: 'Prosta 1', postalCode: '00-001', city: 'Warszawa', country: 'PL' })
    expect(c.lines).toEqual([{ name: 'Kurs', quantity: 1, grossTotal: 3333, vatRate: null }])
  })

  it('refuses content that disagrees with the payment', () => {
    expect(() => buildInvoiceContent(sale({ totalAmount: 1 }), { product: 23, bump: null }, labels)).toThrow(InvoiceContentError)
    expect(() => buildInvoiceContent(sale({ buyer: {}, invoiceDetails: null }), { product: 23, bump: null }, labels)).toThrow(InvoiceContentError)
  })

  it('splits VAT numbers and formats Warsaw dates', () => {
    expect(splitVatNumber('PL5252445767')).toEqual({ prefix: 'PL', number: '5252445767' })
    expect(splitVatNumber('5252445767')).toEqual({ prefix: null, number: '5252445767' })
    expect(splitVatNumber('DE 123-456-789')).toEqual({ prefix: 'DE', number: '123456789' })
    expect(warsawDate(Date.UTC(2026, 5, 30, 22, 0))).toBe('2026-07-01')
  })
})
