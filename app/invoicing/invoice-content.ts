// What goes on an invoice for one completed sale, independent of the invoicing system: the buyer
// (a company with its VAT number, or a private person), one line per thing sold with its VAT rate,
// amounts in minor units. Every adapter maps this onto its own fields; the decimal strings they send
// come from toDecimal (integer arithmetic, never floats).

export type InvoiceLine = {
  name: string
  quantity: number
  /** Gross (VAT included) for the whole line, minor units. */
  grossTotal: number
  /** Percent (23, 8, 5, 0); null = exempt ("zw"). */
  vatRate: number | null
}

export type InvoiceBuyer = {
  kind: 'company' | 'person'
  /** Company name for a company, the person's full name otherwise. */
  name: string
  email: string
  /** As typed at checkout (international format, e.g. PL5252445767); companies only. */
  vatNumber: string | null
  address: string | null
  postalCode: string | null
  city: string | null
  /** ISO 3166-1 alpha-2 when known. */
  country: string | null
}

export type InvoiceContent = {
  /** Our idempotency key at the invoicing system: the transaction's public hash. */
  reference: string
  currency: string
  /** YYYY-MM-DD (Europe/Warsaw) of the payment: issue and sale date. */
  date: string
  buyer: InvoiceBuyer
  lines: InvoiceLine[]
  totalGross: number
}

/** 12345 → "123.45", -5 → "-0.05": exact, for systems that take decimal amounts. */
export function toDecimal(minor: number) {
  if (!Number.isSafeInteger(minor)) throw new Error(`not an integer amount: ${minor}`)
  const sign = minor < 0 ? '-' : ''
  const abs = Math.abs(minor)
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** The date part in Warsaw time (Polish invoices carry the local date). */
export function warsawDate(ms: number) {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(ms))
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${get('year')}-${get('month')}-${get('day')}`
}

/** "PL5252445767" → { prefix: "PL", number: "5252445767" }; digits only → no prefix. */
export function splitVatNumber(vat: string) {
  const m = /^([A-Z]{2})?([0-9A-Z]+)$/.exec(vat.replace(/[\s-]/g, '').toUpperCase())
  if (!m) return { prefix: null, number: vat }
  return { prefix: m[1] ?? null, number: m[2]! }
}

export type SaleForInvoice = {
  hash: string
  currency: string
  productTitle: string
  quantity: number
  unitAmount: number
  discountAmount: number
  bumpAmount: number
  shippingAmount: number
  totalAmount: number
  completedAt: number | null
  createdAt: number
  buyer: { name?: string; email?: string }
  invoiceDetails: {
    type?: 'person' | 'company'
    name?: string
    companyName?: string
    vatNumber?: string
    address?: string
    city?: string
    postalCode?: string
    country?: string
  } | null
}

export class InvoiceContentError extends Error {}

/**
 * One line per thing sold: the product × quantity (after the promo discount), the order bump, the
 * shipping (at the product's rate, like the checkout's VAT). The lines add up to the amount paid,
 * or this throws (never an invoice that disagrees with the payment).
 *
 * Buyer: the invoice details given at checkout (company with VAT number, or person with address);
 * without them, the buyer's name and email as a private person (an invoice to a person needs no
 * address under Polish VAT rules; systems that require one refuse it, with that reason).
 */
export function buildInvoiceContent(
  sale: SaleForInvoice,
  rates: { product: number | null; bump: { title: string; vatRate: number | null } | null },
  labels: { shipping: string; bump: string },
): InvoiceContent {
  const lines: InvoiceLine[] = []
  const main = sale.unitAmount * sale.quantity - sale.discountAmount
  lines.push({ name: sale.productTitle, quantity: sale.quantity, grossTotal: main, vatRate: rates.product })
  if (sale.bumpAmount > 0) lines.push({ name: rates.bump?.title || labels.bump, quantity: 1, grossTotal: sale.bumpAmount, vatRate: rates.bump?.vatRate ?? rates.product })
  if (sale.shippingAmount > 0) lines.push({ name: labels.shipping, quantity: 1, grossTotal: sale.shippingAmount, vatRate: rates.product })
  const sum = lines.reduce((s, l) => s + l.grossTotal, 0)
  if (sum !== sale.totalAmount || lines.some((l) => l.grossTotal < 0)) throw new InvoiceContentError(`lines add up to ${sum}, the sale to ${sale.totalAmount}`)
  if (sale.totalAmount <= 0) throw new InvoiceContentError('nothing was paid')

  const d = sale.invoiceDetails
  const email = (sale.buyer.email ?? '').trim()
  const personName = (d?.name || sale.buyer.name || email).trim()
  const buyer: InvoiceBuyer =
    d && d.type === 'company' && d.companyName && d.vatNumber
      ? {
          kind: 'company',
          name: d.companyName.trim(),
          email,
          vatNumber: d.vatNumber.replace(/\s/g, '').toUpperCase(),
          address: d.address?.trim() || null,
          postalCode: d.postalCode?.trim() || null,
          city: d.city?.trim() || null,
          country: d.country?.trim().toUpperCase() || null,
        }
      : {
          kind: 'person',
          name: personName,
          email,
          vatNumber: null,
          address: d?.address?.trim() || null,
          postalCode: d?.postalCode?.trim() || null,
          city: d?.city?.trim() || null,
          country: d?.country?.trim().toUpperCase() || null,
        }
  if (!buyer.name) throw new InvoiceContentError('the buyer has no name or email')
  return { reference: sale.hash, currency: sale.currency.toUpperCase(), date: warsawDate(sale.completedAt ?? sale.createdAt), buyer, lines, totalGross: sale.totalAmount }
}
