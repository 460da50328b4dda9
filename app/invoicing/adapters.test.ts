// Each adapter against its local peer (workers/dev-peers), reached through DEV_PEERS like in
// development: documented auth (right and wrong), a company invoice with NIP and several VAT
// rates, read back by id and by our reference.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { InvoicingError } from './adapter.server.ts'
import { ifirmaHash } from './ifirma.server.ts'
import { buildInvoiceContent, type SaleForInvoice } from './invoice-content.ts'
import { invoicingAdapter, type InvoiceProvider } from './registry.server.ts'

const testEnv = env as unknown as { ENVIRONMENT: string; DEV_PEERS: Fetcher }

const GOOD = {
  fakturownia: { account: 'coursefront-dev', apiToken: 'coursefront_dev_fakturownia_token_0000' },
  infakt: { apiKey: 'coursefront_dev_infakt_api_key_000000' },
  ifirma: { login: 'coursefront-dev', invoiceKey: 'C0FFEE0123456789' },
} satisfies Record<InvoiceProvider, Record<string, string>>

const WRONG = {
  fakturownia: { account: 'coursefront-dev', apiToken: 'not-the-token' },
  infakt: { apiKey: 'not-the-key' },
  ifirma: { login: 'coursefront-dev', invoiceKey: 'C0FFEE0123456780' },
} satisfies Record<InvoiceProvider, Record<string, string>>

let n = 0
/** 2 × 123.00 − 10.00 at 23%, a 49.00 bump at 8%, 15.99 shipping at 23%: 301.99 paid by a company. */
function companyContent() {
  const hash = `ref-${Date.now().toString(36)}-${++n}`
  const sale: SaleForInvoice = {
    hash,
    currency: 'PLN',
    productTitle: 'Kurs fotografii',
    quantity: 2,
    unitAmount: 12300,
    discountAmount: 1000,
    bumpAmount: 4900,
    shippingAmount: 1599,
    totalAmount: 24600 - 1000 + 4900 + 1599,
    completedAt: Date.UTC(2026, 10, 20, 12),
    createdAt: 0,
    buyer: { name: 'Anna Nowak', email: 'anna@example.com' },
    invoiceDetails: { type: 'company', name: 'Anna Nowak', companyName: 'Nowak Szkolenia Sp. z o.o.', vatNumber: 'PL5252445767', address: 'Prosta 1', city: 'Warszawa', postalCode: '00-001', country: 'PL' },
  }
  return buildInvoiceContent(sale, { product: 23, bump: { title: 'Ebook', vatRate: 8 } }, { shipping: 'Wysyłka', bump: 'Dodatek' })
}

async function peerInvoice(system: InvoiceProvider, reference: string) {
  const res = await testEnv.DEV_PEERS.fetch(`http://peers.internal/_peer/invoicing/invoices?system=${system}`)
  const { invoices } = (await res.json()) as { invoices: Array<{ reference: string | null; number: string; gross_total: number; body: Record<string, unknown> }> }
  return invoices.filter((i) => i.reference?.includes(reference))
}

const adapter = (p: InvoiceProvider, creds: Record<string, string>) => invoicingAdapter(testEnv, p, creds)

describe.each(['fakturownia', 'infakt', 'ifirma'] as const)('%s adapter against its peer', (provider) => {
  it('is refused with wrong credentials (kind auth, not retryable) and nothing is issued', async () => {
    const content = companyContent()
    const wrong = adapter(provider, WRONG[provider])
    const refused = await wrong.create(content).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(InvoicingError)
    expect(refused).toMatchObject({ kind: 'auth', retryable: false })
    await expect(wrong.testConnection()).rejects.toMatchObject({ kind: 'auth' })
    expect(await peerInvoice(provider, content.reference)).toHaveLength(0)
  })

  it('tests the connection with the right credentials', async () => {
    await expect(adapter(provider, GOOD[provider]).testConnection()).resolves.toBeUndefined()
  })

  it('issues a company invoice with the NIP and each line’s VAT rate, then finds it by id and by reference', async () => {
    const content = companyContent()
    const good = adapter(provider, GOOD[provider])

    const issued = await good.create(content)

    const [stored, ...more] = await peerInvoice(provider, content.reference)
    expect(more).toHaveLength(0)
    expect(stored!.gross_total).toBe(30099)
    expect(issued.number).toBe(stored!.number)
    expect(await good.get(issued.externalId)).toEqual(issued)
    expect(await good.findByReference(content.reference, content)).toEqual(issued)
    expect(await good.findByReference(`${content.reference}-other`, content)).toBeNull()
    const pdf = await good.pdf(issued.externalId)
    expect(new TextDecoder().decode(pdf!).slice(0, 8)).toBe('%PDF-1.4')
    expect(new TextDecoder().decode(pdf!)).toContain(`Faktura ${issued.number} - 300.99`)
    expect(await good.pdf('999999999')).toBeNull()
    const body = stored!.body
    if (provider === 'fakturownia') {
      expect(body).toMatchObject({ kind: 'vat', buyer_company: true, buyer_name: 'Nowak Szkolenia Sp. z o.o.', buyer_tax_no: 'PL5252445767', oid: content.reference, oid_unique: 'yes', currency: 'PLN', paid: '300.99', status: 'paid' })
      expect(body.positions).toEqual([
        { name: 'Kurs fotografii', quantity: 2, total_price_gross: '236.00', tax: 23 },
        { name: 'Ebook', quantity: 1, total_price_gross: '49.00', tax: 8 },
        { name: 'Wysyłka', quantity: 1, total_price_gross: '15.99', tax: 23 },
      ])
      expect(issued.url).toMatch(/^https:\/\/coursefront-dev\.fakturownia\.pl\/invoice\//)
    } else if (provider === 'infakt') {
      expect(body).toMatchObject({ kind: 'vat', client_company_name: 'Nowak Szkolenia Sp. z o.o.', client_tax_code: '5252445767', client_business_activity_kind: 'other_business', client_post_code: '00-001', paid_price: 30099, currency: 'PLN' })
      expect(body.services).toEqual([
        { name: 'Kurs fotografii', quantity: 2, gross_price: 23600, tax_symbol: '23' },
        { name: 'Ebook', quantity: 1, gross_price: 4900, tax_symbol: '8' },
        { name: 'Wysyłka', quantity: 1, gross_price: 1599, tax_symbol: '23' },
      ])
    } else {
      expect(body).toMatchObject({ LiczOd: 'BRT', Zaplacono: 300.99, Kontrahent: { Nazwa: 'Nowak Szkolenia Sp. z o.o.', NIP: '5252445767', KodPocztowy: '00-001', Miejscowosc: 'Warszawa', OsobaFizyczna: false } })
      expect(body.Pozycje).toEqual([
        { TypStawkiVat: 'PRC', StawkaVat: 0.23, Ilosc: 2, CenaJednostkowa: 118, NazwaPelna: 'Kurs fotografii', Jednostka: 'szt.' },
        { TypStawkiVat: 'PRC', StawkaVat: 0.08, Ilosc: 1, CenaJednostkowa: 49, NazwaPelna: 'Ebook', Jednostka: 'szt.' },
        { TypStawkiVat: 'PRC', StawkaVat: 0.23, Ilosc: 1, CenaJednostkowa: 15.99, NazwaPelna: 'Wysyłka', Jednostka: 'szt.' },
      ])
    }
  })
})

describe('iFirma specifics', () => {
  it('computes the documented HMAC-SHA1 over url + user + key name + body with the hex key as bytes', async () => {
    // RFC 2202 test case 2 shape: key "Jefe" (hex 4a656665), data "what do ya want for nothing?".
    expect(await ifirmaHash('4a656665', 'what do ya ', 'want ', 'for ', 'nothing?')).toBe('effcdf6ae5eb2fa2d27416d5f184df9c259a7c79')
  })

  it('refuses what fakturakraj cannot carry, before calling: a person without an address, another currency', async () => {
    const content = companyContent()
    const good = adapter('ifirma', GOOD.ifirma)
    await expect(good.create({ ...content, buyer: { ...content.buyer, kind: 'person', postalCode: null, city: null, vatNumber: null } })).rejects.toMatchObject({ kind: 'unsupported' })
    await expect(good.create({ ...content, currency: 'EUR' })).rejects.toMatchObject({ kind: 'unsupported' })
    expect(await peerInvoice('ifirma', content.reference)).toHaveLength(0)
  })

  it('sends an uneven line as one unit so the amount stays exact', async () => {
    const content = companyContent()
    const good = adapter('ifirma', GOOD.ifirma)
    await good.create({ ...content, lines: [{ name: 'Kurs', quantity: 3, grossTotal: 10000, vatRate: 23 }], totalGross: 10000 })
    const [stored] = await peerInvoice('ifirma', content.reference)
    expect(stored!.gross_total).toBe(10000)
    expect(stored!.body.Pozycje).toEqual([{ TypStawkiVat: 'PRC', StawkaVat: 0.23, Ilosc: 1, CenaJednostkowa: 100, NazwaPelna: 'Kurs × 3', Jednostka: 'szt.' }])
  })
})

describe('Fakturownia specifics', () => {
  it('a second create with the same oid returns the first invoice (oid_unique) instead of a duplicate', async () => {
    const content = companyContent()
    const good = adapter('fakturownia', GOOD.fakturownia)
    const first = await good.create(content)
    const second = await good.create(content)
    expect(second).toEqual(first)
    expect(await peerInvoice('fakturownia', content.reference)).toHaveLength(1)
  })
})
