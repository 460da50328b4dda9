// Issue the invoice of one completed sale (the invoicing worker's unit of work; issue 9 item 2).
// Exactly one invoice per transaction, however often the event arrives:
//   - the invoices row is unique per transaction; 'issued' and 'failed' rows are final (a failed
//     one comes back only through the owner's Retry);
//   - each attempt is claimed by moving `attempts` from the value read, so two deliveries racing
//     never both call the system;
//   - from the second attempt on, the system is first asked for an invoice with our reference (the
//     transaction hash), so a create that went through before a crash is found, not repeated.
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { controlDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import { getAppEvent } from '#app/models/app-event.server.ts'
import { getActiveIntegrationOfKind, openBusinessCredentials } from '#app/models/business-integration.server.ts'
import { listProductVatRates } from '#app/models/product.server.ts'
import { getTenantTax } from '#app/models/school-settings.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { claimInvoiceAttempt, ensureInvoice, getInvoiceForTransaction, markInvoiceIssued, recordInvoiceFailure } from '#app/models/invoice.server.ts'
import { getTransaction, type Transaction } from '#app/models/transaction.server.ts'
import { effectiveVatRate } from '#app/payments/pricing.ts'
import { InvoicingError, type FetchLike } from './adapter.server.ts'
import { buildInvoiceContent, InvoiceContentError, type InvoiceContent } from './invoice-content.ts'
import { invoicingAdapter, isInvoiceProvider, type InvoicingEnv } from './registry.server.ts'

export type IssueEnv = InvoicingEnv & DatabaseEnv & { INTEGRATIONS_KEY?: string }

export type IssueOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'issued'; number: string; found: boolean }
  | { kind: 'retry'; reason: string }
  | { kind: 'failed'; reason: string }

const LABELS = {
  en: { shipping: 'Shipping', bump: 'Add-on' },
  pl: { shipping: 'Wysyłka', bump: 'Dodatek' },
} as const

/** The sale as invoice content: product and bump VAT rates from the catalogue, labels in the school's language. */
export async function invoiceContentFor(dbs: { control: ControlDb; db: ShardDb }, tenantId: string, tx: Transaction): Promise<InvoiceContent> {
  const { db } = dbs
  const ids = [tx.productId, tx.bumpProductId].filter((id): id is string => !!id)
  const [rows, tenantTax, tenant] = await Promise.all([ids.length ? listProductVatRates(db, tenantId, ids) : Promise.resolve([]), getTenantTax(db, tenantId), getTenantById(dbs.control, tenantId)])
  const product = rows.find((r) => r.id === tx.productId)
  if (!product) throw new InvoiceContentError('the product was deleted, so its VAT rate is unknown')
  const bump = tx.bumpProductId ? rows.find((r) => r.id === tx.bumpProductId) : undefined
  const tax = { vatMode: tenantTax.vatMode }
  const parse = <T,>(json: string | null, fallback: T): T => {
    try {
      return json ? (JSON.parse(json) as T) : fallback
    } catch {
      return fallback
    }
  }
  return buildInvoiceContent(
    { ...tx, buyer: parse(tx.buyer, {}), invoiceDetails: parse(tx.invoiceDetails, null) },
    // A school that charges no VAT (issue 23 §4) invoices every line without VAT (exempt).
    { product: effectiveVatRate(tax, product.vatRate), bump: bump ? { title: bump.title, vatRate: effectiveVatRate(tax, bump.vatRate) } : null },
    LABELS[tenant?.language ?? 'pl'],
  )
}

/** Issue (or find) the invoice of the transaction a student.paid event names. */
export async function issueInvoiceForEvent(db: ShardDb, env: IssueEnv, job: { tenantId: string; eventId: string }, opts: { lastDelivery: boolean; fetch?: FetchLike }, now = Date.now()): Promise<IssueOutcome> {
  const event = await getAppEvent(db, job.tenantId, job.eventId)
  if (!event || event.type !== 'student.paid') return { kind: 'skipped', reason: 'no such sale event' }
  return issueInvoiceForTransaction(db, env, job.tenantId, event.subjectId, opts, now)
}

export async function issueInvoiceForTransaction(db: ShardDb, env: IssueEnv, tenantId: string, transactionId: string, opts: { lastDelivery: boolean; fetch?: FetchLike }, now = Date.now()): Promise<IssueOutcome> {
  const tx = await getTransaction(db, tenantId, transactionId)
  if (!tx || tx.status !== 'completed') return { kind: 'skipped', reason: 'the transaction is not completed' }
  const existing = await getInvoiceForTransaction(db, tenantId, tx.id)
  if (existing && existing.status !== 'pending') return { kind: 'skipped', reason: `the invoice is ${existing.status}` }

  const integration = await getActiveIntegrationOfKind(db, tenantId, 'invoice')
  if (!integration || !isInvoiceProvider(integration.provider)) {
    if (!existing) return { kind: 'skipped', reason: 'no invoicing system connected' }
    const reason = 'No invoicing system is connected'
    await recordInvoiceFailure(db, tenantId, existing, reason, true, now)
    return { kind: 'failed', reason }
  }
  const invoice = existing ?? (await ensureInvoice(db, tenantId, tx.id, integration, now))
  const claimed = await claimInvoiceAttempt(db, tenantId, invoice, integration, now)
  if (!claimed) return { kind: 'skipped', reason: 'another delivery holds this invoice' }

  const fail = async (reason: string, final: boolean): Promise<IssueOutcome> => {
    await recordInvoiceFailure(db, tenantId, claimed, reason, final, now)
    return final ? { kind: 'failed', reason } : { kind: 'retry', reason }
  }

  const credentials = env.INTEGRATIONS_KEY ? await openBusinessCredentials(env.INTEGRATIONS_KEY, integration) : null
  if (!credentials) return fail('The integration credentials cannot be opened; connect the invoicing system again', true)
  let content: InvoiceContent
  try {
    content = await invoiceContentFor({ control: controlDb(env), db }, tenantId, tx)
  } catch (error) {
    if (error instanceof InvoiceContentError) return fail(`Invoice content: ${error.message}`, true)
    throw error
  }

  const adapter = invoicingAdapter(env, integration.provider, credentials, opts.fetch)
  try {
    const found = claimed.attempts > 1 ? await adapter.findByReference(content.reference, content) : null
    const issued = found ?? (await adapter.create(content))
    await markInvoiceIssued(db, tenantId, claimed, issued, now)
    return { kind: 'issued', number: issued.number, found: !!found }
  } catch (error) {
    if (!(error instanceof InvoicingError)) throw error
    return fail(error.message, !error.retryable || opts.lastDelivery)
  }
}

/** The dead letter queue's last word: a sale whose invoice is still pending ends failed with the reason. */
export async function failInvoiceForEvent(db: ShardDb, job: { tenantId: string; eventId: string }, reason: string, now = Date.now()) {
  const event = await getAppEvent(db, job.tenantId, job.eventId)
  if (!event || event.type !== 'student.paid') return false
  let invoice = await getInvoiceForTransaction(db, job.tenantId, event.subjectId)
  if (!invoice) {
    const integration = await getActiveIntegrationOfKind(db, job.tenantId, 'invoice')
    const tx = await getTransaction(db, job.tenantId, event.subjectId)
    if (!integration || !tx || tx.status !== 'completed') return false
    invoice = await ensureInvoice(db, job.tenantId, tx.id, integration, now)
  }
  if (invoice.status !== 'pending') return false
  const prior = invoice.error ? ` Last error: ${invoice.error}` : ''
  await recordInvoiceFailure(db, job.tenantId, invoice, `${reason}.${prior}`, true, now)
  return true
}
