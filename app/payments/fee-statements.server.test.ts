// The monthly fee statement run (issue 18 §1) against real D1, the mail outbox and the invoicing
// peer: which sales count, covered vs owed as the balance defines them, one statement per (school,
// month, currency) however often and however concurrently it runs, one email in the school's
// language, and the platform's invoice only where its invoicing is configured.
import { env } from 'cloudflare:workers'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { getBalances, setPayoutAccount } from '#app/models/balance.server.ts'
import { listFeeStatements, monthOf, monthRange, previousMonth, splitCovered } from '#app/models/fee-statement.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { feeInvoiceContent, makeFeeStatements, platformInvoicing, runMonthlyFeeStatements, type FeeStatementEnv } from './fee-statements.server.ts'

const DAY = 86_400_000
const baseEnv = env as unknown as FeeStatementEnv
const FAKTUROWNIA = { PLATFORM_INVOICING_PROVIDER: 'fakturownia', PLATFORM_INVOICING_CREDENTIALS: JSON.stringify({ account: 'coursefront-dev', apiToken: 'coursefront_dev_fakturownia_token_0000' }) }

let n = 0
async function sale(tenantId: string, o: { total: number; fee: number; currency?: string; collector: 'platform' | 'school' | 'split'; at: number; refunded?: boolean; status?: 'completed' | 'canceled' }) {
  const tx = await createTransaction(db(), tenantId, {
    collector: o.collector,
    productKind: 'course',
    productTitle: `Course ${++n}`,
    currency: o.currency ?? 'PLN',
    unitAmount: o.total,
    totalAmount: o.total,
    feeAmount: o.fee,
    termsAcceptedAt: o.at,
    checkoutPath: '/c/checkout',
  })
  const step = (status: 'completed' | 'refunded' | 'canceled', at: number) => settleTransaction(db(), tenantId, tx.id, { event: { provider: 'test', eventKey: `fs-${++n}`, providerStatus: status, status }, status }, at)
  await step(o.status ?? 'completed', o.at)
  if (o.refunded) await step('refunded', o.at + DAY)
  return tx
}

async function outbox(tenantId: string) {
  const rows = (await db().all(sql`select to_address as "to", subject, text_body as text from email_outbox where tenant_id = ${tenantId} and template = 'fee_statement' order by created_at`)) as Array<{ to: string; subject: string; text: string }>
  // Formatted money has no-break spaces: plain ones to compare.
  return rows.map((r) => ({ ...r, text: r.text.replace(/[\u00a0\u202f]/g, ' ') }))
}

async function peerInvoices(reference: string) {
  const res = await (env as unknown as { DEV_PEERS: Fetcher }).DEV_PEERS.fetch('http://peers.internal/_peer/invoicing/invoices?system=fakturownia')
  const { invoices } = (await res.json()) as { invoices: Array<{ reference: string | null; number: string; gross_total: number }> }
  return invoices.filter((i) => i.reference === reference)
}

describe('months and the covered/owed split', () => {
  it('works in UTC calendar months', () => {
    expect(monthOf(Date.UTC(2026, 0, 31, 23, 59))).toBe('2026-01')
    expect(previousMonth(Date.UTC(2026, 0, 1, 0, 0))).toBe('2025-12')
    expect(previousMonth(Date.UTC(2026, 2, 31))).toBe('2026-02')
    expect(monthRange('2024-02')).toEqual([Date.UTC(2024, 1, 1), Date.UTC(2024, 2, 1)])
    expect(() => monthRange('2024-13')).toThrow()
  })
  it('owes this month’s fees up to the debt; the rest was covered', () => {
    expect(splitCovered(1_000, 0)).toEqual({ covered: 1_000, owed: 0 })
    expect(splitCovered(1_000, 400)).toEqual({ covered: 600, owed: 400 })
    expect(splitCovered(1_000, 5_000)).toEqual({ covered: 0, owed: 1_000 })
    expect(splitCovered(0, 5_000)).toEqual({ covered: 0, owed: 0 })
  })
})

describe('makeFeeStatements', () => {
  it('sums the school-collected sales completed in the month (refunded ones keep their fee), records covered vs owed like the balance, emails the owner once', async () => {
    const month = '2025-03'
    const [start, end] = monthRange(month)
    const school = await createTestSchool()
    const t = school.tenantId
    await sale(t, { total: 10_000, fee: 500, collector: 'school', at: start + 2 * DAY })
    await sale(t, { total: 4_000, fee: 250, collector: 'school', at: end - 1, refunded: true })
    // Not in this statement: other months, platform-held and split sales, a free order, a canceled one.
    await sale(t, { total: 8_000, fee: 400, collector: 'school', at: start - 1 })
    await sale(t, { total: 8_000, fee: 400, collector: 'school', at: end })
    await sale(t, { total: 3_000, fee: 150, collector: 'split', at: start + DAY })
    await sale(t, { total: 0, fee: 0, collector: 'school', at: start + DAY })
    await sale(t, { total: 6_000, fee: 300, collector: 'school', at: start + DAY, status: 'canceled' })
    // Money the platform holds for the school (released): 1,000 − 100 = 900 covers part of the 1,550 owed in total.
    await sale(t, { total: 1_000, fee: 100, collector: 'platform', at: start + DAY })

    const [balance] = await getBalances(db(), t, 'PLN')
    expect(balance).toMatchObject({ feesOwed: 1_550, debt: 650 })

    const summary = await makeFeeStatements(baseEnv, month)
    expect(summary).toMatchObject({ month, invoiced: 0 })
    const [statement, ...more] = await listFeeStatements(db(), t)
    expect(more).toEqual([])
    // The month's fees 750; the debt now (650) is the uncovered part: owed 650, covered 100.
    expect(statement).toMatchObject({ month, currency: 'PLN', salesCount: 2, salesAmount: 14_000, feesAmount: 750, coveredAmount: 100, owedAmount: 650, invoiceStatus: 'none', invoiceNumber: null })
    expect(statement!.emailedAt).toBeGreaterThan(0)

    const mails = await outbox(t)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.to).toBe(school.owner.email)
    expect(mails[0]!.subject).toBe('Your Coursefront fee statement for March 2025 (PLN)')
    expect(mails[0]!.text).toContain('You collected 2 sales worth PLN 140.00 in your own payment accounts.')
    expect(mails[0]!.text).toContain('The Coursefront fee on them is PLN 7.50.')
    expect(mails[0]!.text).toContain('PLN 1.00 of it was taken from the money Coursefront holds for you.')
    expect(mails[0]!.text).toContain('You still owe PLN 6.50.')
    expect(mails[0]!.text).toContain(`http://${school.slug}.localhost/home/balance/statements`)

    // Again, and three times at once: nothing new, no second email.
    await makeFeeStatements(baseEnv, month)
    const runs = await Promise.all([0, 1, 2].map(() => makeFeeStatements(baseEnv, month)))
    expect(runs.map((r) => r.written)).toEqual([0, 0, 0])
    expect(await listFeeStatements(db(), t)).toEqual([statement])
    expect(await outbox(t)).toHaveLength(1)
  })

  it('concurrent first runs write one statement per school, month and currency, and send one email each', async () => {
    const month = '2025-05'
    const [start] = monthRange(month)
    const a = await createTestSchool()
    const b = await createTestSchool({ language: 'pl' })
    await sale(a.tenantId, { total: 2_000, fee: 130, collector: 'school', at: start + DAY })
    await sale(a.tenantId, { total: 5_000, fee: 200, currency: 'EUR', collector: 'school', at: start + DAY })
    await sale(b.tenantId, { total: 12_300, fee: 715, collector: 'school', at: start + 3 * DAY })
    await sale(b.tenantId, { total: 4_000, fee: 250, collector: 'school', at: start + 4 * DAY })
    // Plenty held for b: everything covered.
    await sale(b.tenantId, { total: 100_000, fee: 5_000, collector: 'platform', at: start + DAY })

    const runs = await Promise.all([0, 1, 2, 3].map(() => makeFeeStatements(baseEnv, month)))
    expect(runs.reduce((sum, r) => sum + r.written, 0)).toBe(3)
    expect((await listFeeStatements(db(), a.tenantId)).map((s) => [s.currency, s.feesAmount, s.coveredAmount, s.owedAmount])).toEqual([
      ['EUR', 200, 0, 200],
      ['PLN', 130, 0, 130],
    ])
    expect((await listFeeStatements(db(), b.tenantId)).map((s) => [s.currency, s.salesCount, s.feesAmount, s.coveredAmount, s.owedAmount])).toEqual([['PLN', 2, 965, 965, 0]])
    expect(await outbox(a.tenantId)).toHaveLength(2)
    const [pl] = await outbox(b.tenantId)
    // In the school's language, with Polish plurals.
    expect(pl!.subject).toBe('Zestawienie prowizji Coursefront za maj 2025 (PLN)')
    expect(pl!.text).toContain('Zebrałeś(-aś) na swoich kontach płatności 2 sprzedaże o wartości 163,00 zł.')
    expect(pl!.text).toContain('Nic nie pozostaje do zapłaty.')
    expect(await db().all(sql`select count(*) as n from fee_statements where month = ${month}`)).toEqual([{ n: 3 }])
  })

  it('with the platform invoicing configured, invoices each statement once in the invoicing system; unset or broken settings record none', async () => {
    const month = '2025-07'
    const [start] = monthRange(month)
    const school = await createTestSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    await sale(school.tenantId, { total: 20_000, fee: 1_100, collector: 'school', at: start + DAY })

    expect(platformInvoicing({})).toBeNull()
    expect(platformInvoicing({ PLATFORM_INVOICING_PROVIDER: 'fakturownia', PLATFORM_INVOICING_CREDENTIALS: '{"account":"x"}' })).toBeNull()
    expect(platformInvoicing({ PLATFORM_INVOICING_PROVIDER: 'nope', PLATFORM_INVOICING_CREDENTIALS: '{}' })).toBeNull()
    expect(platformInvoicing(FAKTUROWNIA)).toMatchObject({ provider: 'fakturownia', vatRate: 23 })

    const invoicingEnv = { ...baseEnv, ...FAKTUROWNIA }
    const runs = await Promise.all([0, 1].map(() => makeFeeStatements(invoicingEnv, month)))
    expect(runs.reduce((sum, r) => sum + r.written, 0)).toBe(1)
    const [statement] = await listFeeStatements(db(), school.tenantId)
    expect(statement).toMatchObject({ feesAmount: 1_100, invoiceStatus: 'issued' })
    expect(statement!.invoiceNumber).toMatch(/^FV /)
    const reference = feeInvoiceContent(statement!, { school: '', email: '' }, 23).reference
    const issued = await peerInvoices(reference)
    expect(issued).toHaveLength(1)
    expect(issued[0]).toMatchObject({ number: statement!.invoiceNumber, gross_total: 1_100 })
    await makeFeeStatements(invoicingEnv, month)
    expect(await peerInvoices(reference)).toHaveLength(1)

    // Without the setting: no invoice, never a pretend 'issued'.
    const plain = await createTestSchool()
    await sale(plain.tenantId, { total: 20_000, fee: 1_100, collector: 'school', at: start + DAY })
    await makeFeeStatements({ ...baseEnv, PLATFORM_INVOICING_PROVIDER: 'fakturownia', PLATFORM_INVOICING_CREDENTIALS: 'not json' }, month)
    expect((await listFeeStatements(db(), plain.tenantId))[0]).toMatchObject({ invoiceStatus: 'none', invoiceNumber: null })
  })
})

describe('runMonthlyFeeStatements (the cron)', () => {
  it('writes the previous month in the first days of a month only', async () => {
    const school = await createTestSchool()
    const at = Date.UTC(2025, 8, 15)
    await sale(school.tenantId, { total: 3_000, fee: 200, collector: 'school', at })
    expect(await runMonthlyFeeStatements(baseEnv, Date.UTC(2025, 9, 4, 0, 5))).toBeNull()
    expect(await listFeeStatements(db(), school.tenantId)).toEqual([])
    const summary = await runMonthlyFeeStatements(baseEnv, Date.UTC(2025, 9, 1, 0, 5))
    expect(summary).toMatchObject({ month: '2025-09' })
    expect((await listFeeStatements(db(), school.tenantId)).map((s) => s.month)).toEqual(['2025-09'])
    expect(await runMonthlyFeeStatements(baseEnv, Date.UTC(2025, 9, 3, 23, 55))).toMatchObject({ written: 0 })
  })
})
