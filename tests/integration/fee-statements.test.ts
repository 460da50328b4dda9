// Issue 18 §1 through the app: the balance page of a school with every kind of sale (held by
// Coursefront, collected by the school, split at the provider) with its explanations in English and
// Polish, withdrawals refused with a clear message while the school owes fees, the monthly fee
// statements for the owner (list, detail; another school's is 404) and the operator console (money
// per school, statements, payments to check; not for anyone else). The owner's transaction list
// marks a payment the provider contradicted.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { setPayoutAccount } from '#app/models/balance.server.ts'
import { updatePageSettings } from '#app/models/page-settings.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { makeFeeStatements, type FeeStatementEnv } from '#app/payments/fee-statements.server.ts'
import { monthRange } from '#app/models/fee-statement.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, PLATFORM, type TestSchool, dbs, createTestOperator } from '#tests/factories.ts'

const DAY = 86_400_000
const MONTH = '2025-11'

async function textOf(res: Response | Promise<Response>) {
  return (await (await res).text()).replace(/[\u00a0\u202f]/g, ' ').replace(/<!-- -->/g, '').replace(/&#x27;/g, "'").replace(/&quot;/g, '"')
}

/** The text inside the element carrying `attr` (first match), tags dropped. */
function inside(html: string, attr: string) {
  const at = html.indexOf(attr)
  if (at < 0) return ''
  const open = html.indexOf('>', at) + 1
  const tag = /<([a-z0-9]+)[^<]*$/i.exec(html.slice(0, at))![1]
  const close = html.indexOf(`</${tag}>`, open)
  return html.slice(open, close).replace(/<[^>]+>/g, '').trim()
}

let n = 0
async function sale(school: TestSchool, o: { total: number; fee: number; collector: 'platform' | 'school' | 'split'; at?: number; status?: 'completed' | 'mismatch'; reason?: string; title?: string; currency?: string }) {
  const at = o.at ?? Date.now() - 10 * DAY
  const tx = await createTransaction(db(), school.tenantId, {
    collector: o.collector,
    productKind: 'course',
    productTitle: o.title ?? `Course ${++n}`,
    currency: o.currency ?? 'PLN',
    unitAmount: o.total,
    totalAmount: o.total,
    feeAmount: o.fee,
    provider: o.collector === 'school' ? 'payu' : 'test',
    providerRef: `ref-${school.slug}-${++n}`,
    buyer: JSON.stringify({ name: 'Buyer Person', email: `buyer${n}@example.com` }),
    termsAcceptedAt: at,
    checkoutPath: '/c/checkout',
  })
  const status = o.status ?? 'completed'
  await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'test', eventKey: `fsi-${++n}`, providerStatus: status, status }, status, reason: o.reason ?? null }, at)
  return tx
}

/** One operator per file, signed in once (a TOTP code works once per step). */
let operatorSignedIn: Promise<string> | null = null
function operatorCookie() {
  operatorSignedIn ??= createTestOperator({ id: 'op-fees', email: 'fees-op@coursefront.test', name: 'Fees Op' }).then((o) => o.cookie)
  return operatorSignedIn
}

let school: TestSchool
let owner: string
let polish: TestSchool
let plOwner: string
let other: TestSchool
let otherOwner: string
let mismatchId: string

beforeAll(async () => {
  ;[school, polish, other] = await Promise.all([createTestSchool({ name: 'Split School' }), createTestSchool({ language: 'pl' }), createTestSchool()])
  for (const s of [school, polish, other]) {
    await updatePageSettings(dbs(), s.tenantId, { authorName: 'Anna Author', contactEmail: 'hello@example.com' })
    await setPayoutAccount(db(), s.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Anna Author' })
  }
  const [start] = monthRange(MONTH)
  // Held by Coursefront: one released (10,000 − 600), one on hold (4,000 − 300).
  await sale(school, { total: 10_000, fee: 600, collector: 'platform' })
  await sale(school, { total: 4_000, fee: 300, collector: 'platform', at: Date.now() - 2 * DAY })
  // Collected by the school in the statement month: fees 450 + 250 owed, covered by the held money.
  await sale(school, { total: 7_000, fee: 450, collector: 'school', at: start + DAY })
  await sale(school, { total: 3_000, fee: 250, collector: 'school', at: start + 2 * DAY })
  // Split at the provider: 30,000 − 1,600 paid out.
  await sale(school, { total: 30_000, fee: 1_600, collector: 'split' })
  mismatchId = (await sale(school, { total: 14_900, fee: 0, collector: 'platform', status: 'mismatch', reason: 'amount: provider 100 EUR, transaction 14900 PLN', title: 'Mismatched course' })).id

  // The Polish school owes more than Coursefront holds for it.
  await sale(polish, { total: 1_000, fee: 100, collector: 'platform' })
  await sale(polish, { total: 50_000, fee: 2_500, collector: 'school', at: start + DAY })
  await sale(polish, { total: 9_000, fee: 500, collector: 'split' })

  await sale(other, { total: 2_000, fee: 150, collector: 'school', at: start + DAY })
  await makeFeeStatements(env as unknown as FeeStatementEnv, MONTH)
  ;[owner, plOwner, otherOwner] = await Promise.all([login(school.host, school.owner.email, school.owner.password), login(polish.host, polish.owner.email, polish.owner.password), login(other.host, other.owner.email, other.owner.password)])
})

describe('/home/balance with every kind of sale', () => {
  it('shows each figure per currency with its explanation: collected by you, paid out by the provider, fees at source, held, on hold until, fees owed, available', async () => {
    const res = await appFetch(school.host, '/home/balance', { cookie: owner })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    // The school's own currency (USD, nothing in it) comes first; the sales are in PLN.
    const card = html.slice(html.indexOf('data-balance="PLN"'))
    const figure = (name: string) => inside(card, `data-figure="${name}"`)
    expect(figure('collected-by-school')).toBe('PLN 100.00')
    expect(figure('paid-out-by-provider')).toBe('PLN 284.00')
    expect(figure('fees-at-source')).toBe('PLN 16.00')
    expect(figure('sales')).toBe('PLN 140.00')
    expect(figure('fees')).toBe('− PLN 9.00')
    expect(figure('on-hold')).toBe('− PLN 37.00')
    expect(figure('fees-owed')).toBe('− PLN 7.00')
    // 9,400 released − 700 owed.
    expect(figure('available')).toBe('PLN 87.00')
    expect(html).not.toContain('data-figure="debt"')
    expect(html).toContain('Paid out to you by the provider')
    expect(html).toContain('your share went straight to your payout account. It is already yours, so it is never withdrawn here.')
    expect(html).toContain("Coursefront's fee on those sales, kept by the provider before it paid you. Nothing more is owed on them.")
    expect(html).toContain('Paid straight into your own payment accounts (PayU, Stripe).')
    expect(html).toMatch(/The next part becomes available on \w+ \d+, \d{4}\./)
    expect(html).toContain('This is what a withdrawal pays to your bank account.')
    expect(html).toContain('Withdraw PLN 87.00')
  })

  it('lists the latest fee statements with month, sales, fees, covered and owed', async () => {
    const html = await textOf(appFetch(school.host, '/home/balance', { cookie: owner }))
    expect(html).toContain('Monthly fee statements')
    const row = html.slice(html.indexOf('data-fee-statement='), html.indexOf('</tr>', html.indexOf('data-fee-statement=')))
    expect(row).toContain('November 2025 · PLN')
    expect(inside(row, 'data-statement-sales')).toBe('PLN 100.00 (2 sales)')
    expect(inside(row, 'data-statement-fees')).toBe('PLN 7.00')
    expect(inside(row, 'data-statement-covered')).toBe('PLN 7.00')
    expect(inside(row, 'data-statement-owed')).toBe('PLN 0.00')
    expect(html).toContain('href="/home/balance/statements"')
  })

  it('in Polish: the explanations, the debt and the refusal of a withdrawal with the amount owed', async () => {
    const html = await textOf(appFetch(polish.host, '/home/balance', { cookie: plOwner }))
    const card = html.slice(html.indexOf('data-balance="PLN"'))
    expect(inside(card, 'data-figure="paid-out-by-provider"')).toBe('85,00 zł')
    expect(html).toContain('Wypłacone Ci przez operatora płatności')
    expect(html).toContain('Prowizje pobrane u źródła')
    expect(html).toContain('(1 sprzedaż)')
    // 900 held − 2,500 owed.
    expect(inside(card, 'data-figure="debt"')).toBe('Zalegasz Coursefront 16,00 zł z tytułu prowizji. Kwota zostanie potrącona z kolejnej sprzedaży przechowywanej przez Coursefront; do tego czasu wypłata nie jest możliwa.')
    const refused = await appFetch(polish.host, '/home/balance', { form: { intent: 'withdraw', currency: 'PLN' }, cookie: plOwner })
    expect(refused.status).toBe(409)
    expect(inside(await textOf(refused), 'data-withdraw-error')).toBe('Wypłata nie jest możliwa, dopóki zalegasz Coursefront 16,00 zł z tytułu prowizji od sprzedaży zebranej przez Ciebie.')
    expect(await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM withdrawals WHERE tenant_id = ?').bind(polish.tenantId).first('n')).toBe(0)
  })

  it('a withdrawal larger than the net is refused with the message in English too', async () => {
    const debtor = await createTestSchool()
    await updatePageSettings(dbs(), debtor.tenantId, { authorName: 'Anna Author', contactEmail: 'hello@example.com' })
    await setPayoutAccount(db(), debtor.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Anna Author' })
    await sale(debtor, { total: 8_000, fee: 400, collector: 'school' })
    const cookie = await login(debtor.host, debtor.owner.email, debtor.owner.password)
    const refused = await appFetch(debtor.host, '/home/balance', { form: { intent: 'withdraw', currency: 'PLN' }, cookie })
    expect(refused.status).toBe(409)
    expect(inside(await textOf(refused), 'data-withdraw-error')).toBe('No withdrawal is possible while you owe Coursefront PLN 4.00 in fees on the sales you collected.')
  })
})

describe('/home/balance/statements', () => {
  it('lists every statement with its invoice status and opens one with its sales; another school’s statement is 404', async () => {
    const list = await appFetch(school.host, '/home/balance/statements', { cookie: owner })
    expect(list.status).toBe(200)
    const html = await textOf(list)
    const id = /data-fee-statement="([a-z2-7]+)"/.exec(html)![1]!
    expect(html).toContain('data-statement-invoice="none"')

    const detail = await textOf(appFetch(school.host, `/home/balance/statements/${id}`, { cookie: owner }))
    expect(detail).toContain('Fee statement for November 2025 (PLN)')
    expect(inside(detail, 'data-statement-summary')).toBe('In November 2025 you collected 2 sales worth PLN 100.00 in your own payment accounts. The Coursefront fee on them is PLN 7.00.')
    expect(inside(detail, 'data-statement-covered')).toBe('PLN 7.00 of it was taken from the money Coursefront holds for you.')
    expect(inside(detail, 'data-statement-owed')).toBe('Nothing was owed when this statement was made.')
    expect(detail.match(/data-statement-sale="/g)).toHaveLength(2)

    // Another school's owner, on their own host: not found, and nothing of it shows.
    const foreign = await appFetch(other.host, `/home/balance/statements/${id}`, { cookie: otherOwner })
    expect(foreign.status).toBe(404)
    expect(await foreign.text()).not.toContain('November 2025')
    expect((await appFetch(school.host, '/home/balance/statements/nope', { cookie: owner })).status).toBe(404)
    // Students and visitors do not see it; nor does the platform host.
    const student = await createTestStudent(school.tenantId)
    const studentCookie = await login(school.host, student.email, student.password)
    expect((await appFetch(school.host, `/home/balance/statements/${id}`, { cookie: studentCookie })).status).toBe(404)
    expect((await appFetch(school.host, '/home/balance/statements', { cookie: studentCookie })).status).toBe(404)
    expect((await appFetch(school.host, '/home/balance/statements')).status).toBe(302)
    expect((await appFetch(PLATFORM, `/home/balance/statements/${id}`)).status).toBe(404)
  })

  it('in Polish, with the amount still owed', async () => {
    const html = await textOf(appFetch(polish.host, '/home/balance/statements', { cookie: plOwner }))
    const id = /data-fee-statement="([a-z2-7]+)"/.exec(html)![1]!
    expect(html).toContain('listopad 2025 · PLN')
    const detail = await textOf(appFetch(polish.host, `/home/balance/statements/${id}`, { cookie: plOwner }))
    expect(inside(detail, 'data-statement-summary')).toBe('Okres: listopad 2025. Zebrałeś(-aś) na swoich kontach płatności 1 sprzedaż o wartości 500,00 zł. Prowizja Coursefront od niej wynosi 25,00 zł.')
    expect(inside(detail, 'data-statement-owed')).toBe('16,00 zł pozostawało do zapłaty, gdy powstało to zestawienie. Kwota zostanie potrącona z kolejnej sprzedaży przechowywanej przez Coursefront.')
  })
})

describe('the owner’s transaction list', () => {
  it('marks a payment the provider contradicted, in words, not only by colour', async () => {
    const html = await textOf(appFetch(school.host, '/home/transactions', { cookie: owner }))
    const row = html.slice(html.indexOf(`data-transaction="${mismatchId}"`), html.indexOf('</tr>', html.indexOf(`data-transaction="${mismatchId}"`)))
    expect(row).toContain('data-needs-check')
    expect(row).toContain('Not confirmed by the provider')
    expect(row).toContain("The provider's record differs: nothing was granted or counted. Open the details.")
  })
})

describe('the operator console', () => {
  it('shows each school’s money per currency in the list, and on its page the figures, statements and payments to check', async () => {
    const cookie = await operatorCookie()
    const list = await textOf(appFetch(PLATFORM, `/operator/schools?q=${school.slug}`, { cookie }))
    const row = list.slice(list.indexOf(`data-school="${school.slug}"`), list.indexOf('</tr>', list.indexOf(`data-school="${school.slug}"`)))
    expect(inside(row, 'data-money-held')).toBe('PLN 140.00')
    expect(inside(row, 'data-money-on-hold')).toBe('PLN 37.00')
    expect(inside(row, 'data-money-fees-owed')).toBe('PLN 7.00')
    expect(inside(row, 'data-money-withdrawn')).toBe('PLN 0.00')
    expect(inside(row, 'data-money-split')).toBe('PLN 284.00')
    expect(row).not.toContain('data-money-debt')
    const plRow = await textOf(appFetch(PLATFORM, `/operator/schools?q=${polish.slug}`, { cookie }))
    expect(inside(plRow, 'data-money-debt')).toBe('PLN 16.00')

    const page = await textOf(appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie }))
    const op = (name: string) => inside(page, `data-op-figure="${name}"`)
    expect([op('sales'), op('on-hold'), op('collected-by-school'), op('fees-owed'), op('debt'), op('paid-out-by-provider'), op('fees-at-source'), op('available')]).toEqual([
      'PLN 140.00',
      'PLN 37.00',
      'PLN 100.00',
      'PLN 7.00',
      'PLN 0.00',
      'PLN 284.00',
      'PLN 16.00',
      'PLN 87.00',
    ])
    expect(page).toContain('data-operator-statements')
    expect(page).toContain('November 2025 · PLN')
    expect(page).toContain(`data-mismatch="${mismatchId}"`)
    expect(page).toContain('amount: provider 100 EUR, transaction 14900 PLN')
  })

  it('/operator/payments lists payments to check across schools with the school and what differs', async () => {
    const cookie = await operatorCookie()
    const otherMismatch = (await sale(other, { total: 500, fee: 0, collector: 'school', status: 'mismatch', reason: 'currency: provider EUR, transaction PLN', title: 'Other mismatch' })).id
    const res = await appFetch(PLATFORM, '/operator/payments', { cookie })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    for (const [id, s, reason] of [
      [mismatchId, school, 'amount: provider 100 EUR, transaction 14900 PLN'],
      [otherMismatch, other, 'currency: provider EUR, transaction PLN'],
    ] as const) {
      const row = html.slice(html.indexOf(`data-mismatch="${id}"`), html.indexOf('</tr>', html.indexOf(`data-mismatch="${id}"`)))
      expect(row).toContain(`href="/operator/schools/${s.tenantId}"`)
      expect(inside(row, 'data-mismatch-reason')).toBe(reason)
    }
    // Completed sales are not listed.
    expect(html).not.toContain('Course 1<')
  })

  it('is for operators only, on the platform host only', async () => {
    for (const path of ['/operator/payments', `/operator/schools/${school.tenantId}`, '/operator']) {
      const anonymous = await appFetch(PLATFORM, path)
      expect(anonymous.status, path).toBe(302)
      expect(anonymous.headers.get('Location')).toBe('/operator/login')
      // A school owner's session is not an operator's.
      const asOwner = await appFetch(PLATFORM, path, { cookie: owner })
      expect(asOwner.status, path).toBe(302)
      expect(asOwner.headers.get('Location')).toBe('/operator/login')
      expect((await appFetch(school.host, path, { cookie: owner })).status, path).toBe(404)
    }
  })
})
