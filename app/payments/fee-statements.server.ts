// The monthly fee statement run (issue 18 §1): for the previous UTC month, every school that
// collected sales itself (its own PayU/Stripe keys) gets one statement per currency — the sales,
// the platform's fees on them, how much of the fees the money Coursefront holds for the school
// covered, and how much was still owed (balance.server.ts: `debt`) — emailed to the owner in the
// school's language, and, where the platform's own invoicing is configured, invoiced to the school
// through the same adapters schools use for their sales (app/invoicing).
//
// Run from the app cron (server.ts `scheduled`, every 5 minutes). Statements are written in the
// first days of a month (STATEMENT_WINDOW_DAYS, so a cron outage of a day or two still catches the
// month); every run in that window picks up what is not written yet, a bounded batch at a time.
// Exactly once: the unique (tenant, month, currency) index decides which run writes a statement and
// only that run emails it; an email interrupted by a crash is picked up by the next run.
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { allShards, controlDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { InvoiceContent } from '#app/invoicing/invoice-content.ts'
import { invoicingAdapter, isInvoiceProvider, CREDENTIAL_FIELDS, type InvoiceProvider } from '#app/invoicing/registry.server.ts'
import { getBalances } from '#app/models/balance.server.ts'
import { enqueueEmail, type OutgoingEmail } from '#app/models/email-outbox.server.ts'
import {
  claimFeeStatementEmail,
  insertFeeStatement,
  listFeeStatementsToInvoice,
  listStatementsDue,
  listUnemailedFeeStatements,
  monthRange,
  previousMonth,
  setFeeStatementInvoice,
  splitCovered,
  statementRecipient,
  type FeeStatement,
} from '#app/models/fee-statement.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { activePrimaryHostname } from '#app/models/school-address.server.ts'
import { originForHost, primaryHost } from '#app/utils/school-origin.server.ts'
import { formatMoney } from '#app/utils/money.ts'

/** Statements are written while the day of the month (UTC) is at most this. */
export const STATEMENT_WINDOW_DAYS = 3
/** (school, currency) pairs one run writes at most; the next run (5 minutes later) continues. */
export const STATEMENTS_PER_RUN = 100
/** The VAT rate on the platform's fee invoice when PLATFORM_INVOICING_VAT_RATE is not set (Poland's standard rate). */
export const DEFAULT_FEE_VAT_RATE = 23

/**
 * The platform's own invoicing (unset = no invoices; statements record invoice_status 'none'):
 *   PLATFORM_INVOICING_PROVIDER     fakturownia | infakt | ifirma
 *   PLATFORM_INVOICING_CREDENTIALS  JSON of that system's credential fields (a secret), e.g.
 *                                   {"account":"…","apiToken":"…"} for Fakturownia
 *   PLATFORM_INVOICING_VAT_RATE     percent on the fee line (default 23); "zw" = exempt
 */
export type PlatformInvoicingVars = { PLATFORM_INVOICING_PROVIDER?: string; PLATFORM_INVOICING_CREDENTIALS?: string; PLATFORM_INVOICING_VAT_RATE?: string }

export type FeeStatementEnv = DatabaseEnv & Pick<Env, 'MAIL_QUEUE' | 'PLATFORM_HOST' | 'ENVIRONMENT' | 'DEV_PEERS' | 'PUBLIC_PORT'> & PlatformInvoicingVars

export type FeeStatementSummary = { month: string; written: number; emailed: number; invoiced: number; invoiceFailed: number }

type PlatformInvoicing = { provider: InvoiceProvider; credentials: Record<string, string>; vatRate: number | null }

/** The platform's invoicing settings, or null when they are absent or incomplete (logged: an operator should know). */
export function platformInvoicing(env: PlatformInvoicingVars): PlatformInvoicing | null {
  const provider = env.PLATFORM_INVOICING_PROVIDER?.trim()
  if (!provider) return null
  let credentials: Record<string, string> = {}
  try {
    const parsed = JSON.parse(env.PLATFORM_INVOICING_CREDENTIALS ?? '') as unknown
    if (parsed && typeof parsed === 'object') credentials = Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'))
  } catch {
    credentials = {}
  }
  if (!isInvoiceProvider(provider) || CREDENTIAL_FIELDS[provider].some((f) => !credentials[f])) {
    console.error(JSON.stringify({ event: 'platform_invoicing_misconfigured', provider }))
    return null
  }
  const rate = env.PLATFORM_INVOICING_VAT_RATE?.trim()
  const vatRate = rate === 'zw' ? null : rate && /^\d{1,2}$/.test(rate) ? Number(rate) : DEFAULT_FEE_VAT_RATE
  return { provider, credentials, vatRate }
}

/** The cron's entry: writes last month's statements in the window, then finishes emails and invoices left over. */
export async function runMonthlyFeeStatements(env: FeeStatementEnv, now = Date.now()): Promise<FeeStatementSummary | null> {
  if (new Date(now).getUTCDate() > STATEMENT_WINDOW_DAYS) return null
  return makeFeeStatements(env, previousMonth(now), now)
}

/** Writes the statements of `month` not written yet (one batch), emails each new one, then issues pending invoices. */
export async function makeFeeStatements(env: FeeStatementEnv, month: string, now = Date.now()): Promise<FeeStatementSummary> {
  const control = controlDb(env)
  const invoicing = platformInvoicing(env)
  const summary: FeeStatementSummary = { month, written: 0, emailed: 0, invoiced: 0, invoiceFailed: 0 }
  // Each shard's schools in turn (ADR 033); a statement's school is in the shard it is written to.
  for (const { db } of allShards(env)) {
    const dbs = { control, db }
    for (const due of await listStatementsDue(db, month, { limit: STATEMENTS_PER_RUN })) {
      const balance = (await getBalances(db, due.tenantId, undefined, now)).find((b) => b.currency === due.currency)
      const { covered, owed } = splitCovered(due.feesAmount, balance?.debt ?? 0)
      const statement = await insertFeeStatement(
        db,
        due.tenantId,
        { month, currency: due.currency, salesCount: due.salesCount, salesAmount: due.salesAmount, feesAmount: due.feesAmount, coveredAmount: covered, owedAmount: owed, invoiceStatus: invoicing && due.feesAmount > 0 ? 'pending' : 'none' },
        now,
      )
      // Another run wrote it first: that run emails it.
      if (!statement) continue
      summary.written++
      if (await emailStatement(dbs, env, statement, now)) summary.emailed++
    }
    // Left over by a run that ended between writing and emailing.
    for (const statement of await listUnemailedFeeStatements(db)) if (await emailStatement(dbs, env, statement, now)) summary.emailed++
    if (invoicing) {
      for (const statement of await listFeeStatementsToInvoice(db)) {
        const result = await invoiceStatement(dbs, env, invoicing, statement, now)
        if (result === 'issued') summary.invoiced++
        if (result === 'failed') summary.invoiceFailed++
      }
    }
  }
  return summary
}

async function emailStatement(dbs: { control: ControlDb; db: ShardDb }, env: FeeStatementEnv, statement: FeeStatement, now: number) {
  const { db } = dbs
  if (!(await claimFeeStatementEmail(db, statement.tenantId, statement.id, now))) return false
  const recipient = await statementRecipient(dbs, statement.tenantId)
  if (!recipient) return false
  // Issue 19 §6: the school's configured primary host and this deployment's scheme (and dev port).
  const origin = originForHost(env, primaryHost(env, { slug: recipient.slug, primaryHostname: await activePrimaryHostname(dbs.control, statement.tenantId) }))
  await enqueueEmail(db, env.MAIL_QUEUE, statement.tenantId, feeStatementEmail({ locale: recipient.language, to: recipient.email, name: recipient.name, school: recipient.school, statement, url: `${origin}/home/balance/statements` }))
  return true
}

/** 'issued' | 'failed' | 'retry' (the system was unavailable: the next run asks again). */
async function invoiceStatement(dbs: { control: ControlDb; db: ShardDb }, env: FeeStatementEnv, invoicing: PlatformInvoicing, statement: FeeStatement, now: number) {
  const { db } = dbs
  const recipient = await statementRecipient(dbs, statement.tenantId)
  const adapter = invoicingAdapter(env, invoicing.provider, invoicing.credentials)
  const content = feeInvoiceContent(statement, recipient ? { school: recipient.school, email: recipient.email } : { school: statement.tenantId, email: '' }, invoicing.vatRate)
  try {
    const issued = (await adapter.findByReference(content.reference, content)) ?? (await adapter.create(content))
    await setFeeStatementInvoice(db, statement.tenantId, statement.id, { status: 'issued', number: issued.number }, now)
    return 'issued' as const
  } catch (error) {
    const retryable = typeof error === 'object' && error !== null && 'retryable' in error && (error as { retryable: boolean }).retryable
    console.error(JSON.stringify({ event: 'fee_statement_invoice_failed', tenantId: statement.tenantId, statementId: statement.id, retryable, error: error instanceof Error ? error.message : String(error) }))
    if (retryable) return 'retry' as const
    await setFeeStatementInvoice(db, statement.tenantId, statement.id, { status: 'failed' }, now)
    return 'failed' as const
  }
}

/** The invoice to the school for a month's fees: one line, the statement as our reference (one invoice per statement at the system). */
export function feeInvoiceContent(statement: FeeStatement, school: { school: string; email: string }, vatRate: number | null): InvoiceContent {
  const [, end] = monthRange(statement.month)
  const last = new Date(end - 1)
  const date = `${last.getUTCFullYear()}-${String(last.getUTCMonth() + 1).padStart(2, '0')}-${String(last.getUTCDate()).padStart(2, '0')}`
  return {
    reference: `fee-${statement.id}`,
    currency: statement.currency,
    date,
    buyer: { kind: 'company', name: school.school, email: school.email, vatNumber: null, address: null, postalCode: null, city: null, country: null },
    lines: [{ name: `Coursefront fees ${statement.month} (${statement.salesCount})`, quantity: 1, grossTotal: statement.feesAmount, vatRate }],
    totalGross: statement.feesAmount,
  }
}

/** "March 2026" / "marzec 2026". */
export function monthLabel(month: string, locale: Locale) {
  const [start] = monthRange(month)
  return new Intl.DateTimeFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(start))
}

/** A statement as the owner's pages list it (the balance page and /home/balance/statements). */
export function feeStatementRow(s: FeeStatement, locale: Locale) {
  return {
    id: s.id,
    month: monthLabel(s.month, locale),
    currency: s.currency,
    salesCount: s.salesCount,
    salesAmount: s.salesAmount,
    feesAmount: s.feesAmount,
    coveredAmount: s.coveredAmount,
    owedAmount: s.owedAmount,
    invoiceStatus: s.invoiceStatus,
    invoiceNumber: s.invoiceNumber,
  }
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** The owner's email about a new statement, in the school's language. */
export function feeStatementEmail({ locale, to, name, school, statement, url }: { locale: Locale; to: string; name: string; school: string; statement: FeeStatement; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const money = (minor: number) => formatMoney(minor, statement.currency, locale)
  const month = monthLabel(statement.month, locale)
  const lines = [
    t('mail.greeting', { name }),
    t('fee_statements.mail.intro', { month, school }),
    t('fee_statements.mail.sales', { count: statement.salesCount, amount: money(statement.salesAmount) }),
    t('fee_statements.mail.fees', { amount: money(statement.feesAmount) }),
    t('fee_statements.mail.covered', { amount: money(statement.coveredAmount) }),
    statement.owedAmount > 0 ? t('fee_statements.mail.owed', { amount: money(statement.owedAmount) }) : t('fee_statements.mail.settled'),
    t('mail.signature', { school: 'Coursefront' }),
  ]
  const label = t('fee_statements.mail.action')
  const body = lines.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`)
  body.splice(
    lines.length - 1,
    0,
    `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>`,
  )
  return {
    template: 'fee_statement',
    to,
    subject: t('fee_statements.mail.subject', { month, currency: statement.currency }),
    text: [...lines.slice(0, -1), `${label}: ${url}`, lines[lines.length - 1]].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${body.join('')}</body></html>`,
  }
}
