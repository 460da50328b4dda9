// Test helpers for invoicing (worker and app projects): a completed sale with its student.paid
// event, a school's invoicing integration, and the peers' record of issued invoices.
import { env } from 'cloudflare:workers'
import type { BusinessProvider } from '#app/db/schema.server.ts'
import { createBusinessIntegration } from '#app/models/business-integration.server.ts'
import { getPaidEventForTransaction } from '#app/models/invoice.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, settleTransaction, type InvoiceDetails } from '#app/models/transaction.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'

const testEnv = env as unknown as { INTEGRATIONS_KEY: string; DEV_PEERS: Fetcher }

/** The development accounts seeded in workers/dev-peers/migrations/0005_invoicing.sql. */
export const PEER_CREDENTIALS = {
  fakturownia: { account: 'coursefront-dev', apiToken: 'coursefront_dev_fakturownia_token_0000' },
  infakt: { apiKey: 'coursefront_dev_infakt_api_key_000000' },
  ifirma: { login: 'coursefront-dev', invoiceKey: 'C0FFEE0123456789' },
} as const

export const COMPANY: InvoiceDetails = { type: 'company', name: 'Anna Nowak', companyName: 'Nowak Szkolenia Sp. z o.o.', vatNumber: 'PL5252445767', address: 'Prosta 1', city: 'Warszawa', postalCode: '00-001', country: 'PL' }

let n = 0

/**
 * A completed sale: product × quantity (promo discount), optional bump and shipping, VAT rates
 * from the products; settled like a provider's notification would (writes student.paid).
 */
export async function paidSale(
  opts: {
    school?: { tenantId: string }
    vatRate?: number | null
    unitAmount?: number
    quantity?: number
    discountAmount?: number
    bump?: { amount: number; vatRate: number | null; title?: string }
    shippingAmount?: number
    invoiceDetails?: InvoiceDetails | null
    currency?: string
    buyerName?: string
  } = {},
) {
  const school = opts.school ?? (await createTestSchool({ language: 'pl' }))
  const student = await createTestStudent(school.tenantId, { name: opts.buyerName ?? 'Jan Kowalski' })
  const product = await createProduct(db(), school.tenantId, { kind: opts.shippingAmount ? 'physical' : 'course', title: `Kurs ${++n}`, vatRate: opts.vatRate === undefined ? 23 : opts.vatRate })
  const bump = opts.bump ? await createProduct(db(), school.tenantId, { kind: 'course', title: opts.bump.title ?? `Dodatek ${n}`, vatRate: opts.bump.vatRate }) : null
  const quantity = opts.quantity ?? 1
  const unitAmount = opts.unitAmount ?? 12300
  const discountAmount = opts.discountAmount ?? 0
  const total = unitAmount * quantity - discountAmount + (opts.bump?.amount ?? 0) + (opts.shippingAmount ?? 0)
  const tx = await createTransaction(db(), school.tenantId, {
    userId: student.id,
    productId: product.id,
    productKind: product.kind,
    productTitle: product.title,
    quantity,
    currency: opts.currency ?? 'PLN',
    unitAmount,
    discountAmount,
    bumpProductId: bump?.id ?? null,
    bumpAmount: opts.bump?.amount ?? 0,
    shippingAmount: opts.shippingAmount ?? 0,
    totalAmount: total,
    buyer: JSON.stringify({ name: opts.buyerName ?? 'Jan Kowalski', email: student.email }),
    invoiceDetails: opts.invoiceDetails ? JSON.stringify(opts.invoiceDetails) : null,
    termsAcceptedAt: Date.now(),
    checkoutPath: `/${product.slug}/checkout`,
  })
  await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'test', eventKey: `pay-${tx.id}:completed`, providerStatus: 'completed', status: 'completed' }, status: 'completed' })
  const event = await getPaidEventForTransaction(db(), school.tenantId, tx.id)
  if (!event) throw new Error('no student.paid event')
  return { school, student, product, bump, tx, eventId: event.id, job: { eventId: event.id, tenantId: school.tenantId, type: 'student.paid' as const } }
}

export async function connectInvoicing(tenantId: string, provider: Exclude<BusinessProvider, 'mailchimp'>, credentials: Record<string, string> = PEER_CREDENTIALS[provider]) {
  return createBusinessIntegration(db(), testEnv.INTEGRATIONS_KEY, tenantId, { provider, credentials })
}

export type PeerInvoiceView = { id: number; account: string; reference: string | null; number: string; gross_total: number; body: Record<string, unknown> }

/** Invoices the peer issued for this reference (Fakturownia oid, inFakt notes, iFirma Uwagi). */
export async function peerInvoices(system: 'fakturownia' | 'infakt' | 'ifirma', reference?: string) {
  const res = await testEnv.DEV_PEERS.fetch(`http://peers.internal/_peer/invoicing/invoices?system=${system}`)
  const { invoices } = (await res.json()) as { invoices: PeerInvoiceView[] }
  return reference === undefined ? invoices : invoices.filter((i) => i.reference !== null && i.reference.includes(reference))
}

/** The next `count` invoice creates of the system answer `status` (its own 5xx body). */
export async function failNextCreates(system: 'fakturownia' | 'infakt' | 'ifirma', count: number, status = 503) {
  const res = await testEnv.DEV_PEERS.fetch('http://peers.internal/_peer/invoicing/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ system, count, status }) })
  if (res.status !== 201) throw new Error(`faults: ${res.status}`)
}
