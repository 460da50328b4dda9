// Transactions, balance and withdrawals (issue 8 item 8; seed 001 §1, §2, §4, §5, §8, §9): the
// balance arithmetic with figures, the guards and their messages, one withdrawal under concurrent
// requests, the operator marking it paid once, and who may see what.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import { updatePageSettings } from '#app/models/page-settings.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, PLATFORM, type TestSchool, dbs, d1For, createTestOperator } from '#tests/factories.ts'

const location = (res: Response) => res.headers.get('Location') ?? ''
const VALID_IBAN = 'PL61 1090 1014 0000 0712 1981 2874'

/** The page as text, with the no-break spaces of formatted money as plain spaces. */
async function textOf(res: Response | Promise<Response>) {
  return (await (await res).text()).replace(/[\u00a0\u202f]/g, ' ')
}

async function count(sql: string, ...binds: unknown[]) {
  return (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n
}

let eventCounter = 0
/** A transaction through the checkout's model function, then moved by provider events like a real payment. */
async function sale(school: TestSchool, opts: { userId: string; email: string; total: number; fee: number; currency?: string; status?: TransactionStatus; title?: string; productId?: string }) {
  const tx = await createTransaction(db(), school.tenantId, {
    userId: opts.userId,
    productId: opts.productId ?? null,
    productKind: 'course',
    productTitle: opts.title ?? 'Paid course',
    quantity: 1,
    currency: opts.currency ?? 'PLN',
    unitAmount: opts.total,
    totalAmount: opts.total,
    vatAmount: Math.round((opts.total * 23) / 123),
    feeAmount: opts.fee,
    provider: 'test',
    // The built-in test provider: the platform holds the money (ADR 023).
    collector: 'platform',
    buyer: JSON.stringify({ name: 'Buyer Person', email: opts.email }),
    invoiceDetails: JSON.stringify({ type: 'company', name: 'Buyer Person', companyName: 'Buyer Ltd', vatNumber: 'PL1234567890', address: 'Main 1', city: 'Kraków', postalCode: '30-001', country: 'PL' }),
    termsAcceptedAt: Date.now(),
    withdrawalWaiverAt: Date.now(),
    checkoutPath: '/paid-course/checkout',
  })
  const status = opts.status ?? 'completed'
  const move = async (to: TransactionStatus) => {
    const key = `pay-${++eventCounter}:${to}`
    // Settled eight days ago: past the hold, so completed sales are withdrawable.
    await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'test', eventKey: key, providerStatus: to.toUpperCase(), status: to }, status: to }, Date.now() - 8 * 86_400_000)
  }
  if (status === 'completed' || status === 'refunded') await move('completed')
  if (status === 'refunded') await move('refunded')
  if (status === 'failed' || status === 'canceled' || status === 'waiting') await move(status)
  return tx
}

async function completeSettings(school: TestSchool) {
  await updatePageSettings(dbs(), school.tenantId, { authorName: 'Anna Author', contactEmail: 'hello@example.com' })
}

/** One operator per file, signed in once (a TOTP code works once per step). */
let operatorSignedIn: Promise<string> | null = null
function operatorCookie() {
  operatorSignedIn ??= createTestOperator({ id: 'op-money', email: 'money-op@coursefront.test', name: 'Money Op' }).then((o) => o.cookie)
  return operatorSignedIn
}

/** The figures of one currency's card on /home/balance, as rendered. */
function figures(html: string, currency: string) {
  const card = html.slice(html.indexOf(`data-balance="${currency}"`))
  const out: Record<string, string> = {}
  for (const name of ['sales', 'fees', 'refunds', 'pending', 'paid', 'available']) {
    const m = new RegExp(`data-figure="${name}"[^>]*>(.*?)</dd>`).exec(card)
    out[name] = (m?.[1] ?? '').replace(/<!-- -->/g, '')
  }
  return out
}

let school: TestSchool
let owner: string
let student: { id: string; email: string; cookie: string }

beforeAll(async () => {
  school = await createTestSchool()
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId, { email: 'buyer@example.com', name: 'Buyer Person' })
  student = { ...s, cookie: await login(school.host, s.email, s.password) }
})

describe('who may see the money', () => {
  it('students get 404 on transactions and balance (GET and POST); visitors go to /login', async () => {
    const tx = await sale(school, { userId: student.id, email: student.email, total: 1000, fee: 150 })
    for (const path of ['/home/transactions', '/home/balance', `/home/transactions/${tx.id}`]) {
      expect((await appFetch(school.host, path, { cookie: student.cookie })).status, path).toBe(404)
    }
    const forms: Array<Record<string, string>> = [{ intent: 'withdraw', currency: 'PLN' }, { intent: 'bank', bankAccount: VALID_IBAN, bankAccountHolder: 'Hacker' }]
    for (const form of forms) {
      expect((await appFetch(school.host, '/home/balance', { form, cookie: student.cookie })).status).toBe(404)
    }
    const visitor = await appFetch(school.host, '/home/balance')
    expect(visitor.status).toBe(302)
    expect(location(visitor)).toBe('/login?redirectTo=%2Fhome%2Fbalance')
    expect(await count('SELECT count(*) AS n FROM withdrawals WHERE tenant_id = ?', school.tenantId)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM school_settings WHERE tenant_id = ? AND bank_account IS NOT NULL', school.tenantId)).toBe(0)
  })

  it('the money pages do not exist on the platform host, and the operator pages not on a school', async () => {
    expect((await appFetch(PLATFORM, '/home/balance')).status).toBe(404)
    expect((await appFetch(school.host, '/operator/withdrawals')).status).toBe(404)
    expect((await appFetch(school.host, '/operator/withdrawals', { form: { intent: 'mark_paid', withdrawalId: 'x' }, cookie: owner })).status).toBe(404)
  })
})

describe('/home/balance', () => {
  it('needs complete page settings first: a message with a link instead of the balance, and no withdrawal', async () => {
    const fresh = await createTestSchool()
    const cookie = await login(fresh.host, fresh.owner.email, fresh.owner.password)
    const res = await appFetch(fresh.host, '/home/balance', { cookie })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    expect(html).toContain('Complete your page settings before opening the balance page. Missing: author name, public contact email.')
    expect(html).toContain('href="/home/settings/page"')
    expect(html).not.toContain('data-balance=')

    await updatePageSettings(dbs(), fresh.tenantId, { authorName: 'Author' })
    const half = await textOf(appFetch(fresh.host, '/home/balance', { cookie }))
    expect(half).toContain('Missing: public contact email.')

    const post = await appFetch(fresh.host, '/home/balance', { form: { intent: 'bank', bankAccount: VALID_IBAN, bankAccountHolder: 'Anna' }, cookie })
    expect(post.status).toBe(409)
    expect(await post.text()).toContain('Complete your page settings (author name and public contact email) first.')
    expect(await count('SELECT count(*) AS n FROM school_settings WHERE tenant_id = ? AND bank_account IS NOT NULL', fresh.tenantId)).toBe(0)
  })

  it('with no completed transaction: "No transactions available so withdrawal is not possible", nothing written', async () => {
    const fresh = await createTestSchool()
    await completeSettings(fresh)
    const cookie = await login(fresh.host, fresh.owner.email, fresh.owner.password)
    const buyer = await createTestStudent(fresh.tenantId)
    // A pending and a failed checkout are not sales.
    await sale(fresh, { userId: buyer.id, email: buyer.email, total: 5000, fee: 300, status: 'pending' })
    await sale(fresh, { userId: buyer.id, email: buyer.email, total: 5000, fee: 300, status: 'failed' })
    expect((await appFetch(fresh.host, '/home/balance', { form: { intent: 'bank', bankAccount: VALID_IBAN, bankAccountHolder: 'Anna Author' }, cookie })).status).toBe(302)
    const page = await textOf(appFetch(fresh.host, '/home/balance', { cookie }))
    expect(page).toContain('data-withdraw-unavailable')
    const res = await appFetch(fresh.host, '/home/balance', { form: { intent: 'withdraw', currency: 'PLN' }, cookie })
    expect(res.status).toBe(409)
    expect(await res.text()).toContain('No transactions available so withdrawal is not possible')
    expect(await count('SELECT count(*) AS n FROM withdrawals WHERE tenant_id = ?', fresh.tenantId)).toBe(0)
  })

  it('validates the bank account (IBAN checksum, Polish NRB, holder) with field errors in the school language, writing nothing on bad input', async () => {
    const pl = await createTestSchool({ language: 'pl' })
    await completeSettings(pl)
    const cookie = await login(pl.host, pl.owner.email, pl.owner.password)
    const bad: Array<[Record<string, string>, string]> = [
      [{ bankAccount: 'not a number', bankAccountHolder: 'Jan' }, 'Podaj IBAN lub 26-cyfrowy numer polskiego rachunku'],
      [{ bankAccount: 'PL61 1090 1014 0000 0712 1981 2875', bankAccountHolder: 'Jan' }, 'Ten numer konta jest nieprawidłowy: sprawdź cyfry'],
      [{ bankAccount: '61 1090 1014 0000 0712 1981 2875', bankAccountHolder: 'Jan' }, 'Ten numer konta jest nieprawidłowy: sprawdź cyfry'],
      [{ bankAccount: '1234', bankAccountHolder: 'Jan' }, 'Podaj IBAN lub 26-cyfrowy numer polskiego rachunku'],
      [{ bankAccount: VALID_IBAN, bankAccountHolder: '   ' }, 'To pole jest wymagane'],
      [{ bankAccount: '', bankAccountHolder: 'Jan' }, 'To pole jest wymagane'],
      [{ bankAccount: VALID_IBAN, bankAccountHolder: 'x'.repeat(71) }, '70'],
    ]
    for (const [form, text] of bad) {
      const res = await appFetch(pl.host, '/home/balance', { form: { intent: 'bank', ...form }, cookie })
      expect(res.status, JSON.stringify(form)).toBe(400)
      expect(await textOf(res), JSON.stringify(form)).toContain(text)
    }
    expect(await count('SELECT count(*) AS n FROM school_settings WHERE tenant_id = ? AND bank_account IS NOT NULL', pl.tenantId)).toBe(0)

    // English field errors on an English school.
    await completeSettings(school)
    const en = await appFetch(school.host, '/home/balance', { form: { intent: 'bank', bankAccount: 'DE89 3704 0044 0532 0130 01', bankAccountHolder: 'Anna' }, cookie: owner })
    expect(en.status).toBe(400)
    const enHtml = await en.text()
    expect(enHtml).toContain('This account number is not valid: check its digits')

    let lastSaved: Response | undefined
    for (const [input, stored] of [
      ['61 1090 1014 0000 0712 1981 2874', '61109010140000071219812874'],
      ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
      ['gb82 west 1234 5698 7654 32', 'GB82WEST12345698765432'],
      [VALID_IBAN, 'PL61109010140000071219812874'],
    ]) {
      const ok = await appFetch(pl.host, '/home/balance', { form: { intent: 'bank', bankAccount: input, bankAccountHolder: 'Jan Kowalski' }, cookie })
      expect(ok.status, input).toBe(302)
      expect(location(ok)).toBe('/home/balance')
      expect(flashOf(ok)).toMatchObject({ done: 'bank', message: 'money.bank.saved' })
      lastSaved = ok
      const row = await env.DB_SHARD_0.prepare('SELECT bank_account, bank_account_holder FROM school_settings WHERE tenant_id = ?').bind(pl.tenantId).first<Record<string, string>>()
      expect(row).toEqual({ bank_account: stored, bank_account_holder: 'Jan Kowalski' })
    }
    const saved = await textOf(appFetch(pl.host, '/home/balance', { cookie: followFlash(cookie, lastSaved!) }))
    expect(saved).toContain('Zmiany zapisane')
    expect(saved).toContain('PL61 1090 1014 0000 0712 1981 2874')
  })

  it('balance = completed sales − fees − refunds − withdrawals, per currency, with the breakdown (figures)', async () => {
    await completeSettings(school)
    const b = { userId: student.id, email: student.email }
    // PLN: 3 sales (100.00, 250.00, 50.00 refunded later), a pending and a failed checkout.
    await sale(school, { ...b, total: 10000, fee: 600 })
    await sale(school, { ...b, total: 25000, fee: 1350 })
    await sale(school, { ...b, total: 5000, fee: 350, status: 'refunded' })
    await sale(school, { ...b, total: 9900, fee: 595, status: 'pending' })
    await sale(school, { ...b, total: 7000, fee: 450, status: 'failed' })
    // USD (the school's own currency): one sale of $49.00.
    await sale(school, { ...b, total: 4900, fee: 275, currency: 'USD' })
    // The 10.00 sale of the first test is PLN too: sales 410.00, fees 24.50 (600+1350+350+150), refunds 50.00.
    const html = await textOf(appFetch(school.host, '/home/balance', { cookie: owner }))
    const pln = figures(html, 'PLN')
    expect(pln.sales).toBe('PLN 410.00')
    expect(pln.fees).toBe('− PLN 24.50')
    expect(pln.refunds).toBe('− PLN 50.00')
    expect(pln.pending).toBe('− PLN 0.00')
    expect(pln.available).toBe('PLN 335.50')
    const usd = figures(html, 'USD')
    expect(usd.sales).toBe('$49.00')
    expect(usd.fees).toBe('− $2.75')
    expect(usd.available).toBe('$46.25')
    // The school's own currency comes first.
    expect(html.indexOf('data-balance="USD"')).toBeLessThan(html.indexOf('data-balance="PLN"'))
    expect(html).toContain('4 sales')
    expect(html).toContain('1 refund')
    expect(html).toContain('paid to your bank account within 7 days')
  })

  it('a withdrawal needs the bank account first (message and link), then takes the whole available balance as pending with a snapshot', async () => {
    const noBank = await appFetch(school.host, '/home/balance', { form: { intent: 'withdraw', currency: 'PLN' }, cookie: owner })
    expect(noBank.status).toBe(409)
    const noBankHtml = await noBank.text()
    expect(noBankHtml).toContain('Set your bank account before requesting a withdrawal.')
    expect(noBankHtml).toContain('href="#bank"')
    expect(await count('SELECT count(*) AS n FROM withdrawals WHERE tenant_id = ?', school.tenantId)).toBe(0)

    expect((await appFetch(school.host, '/home/balance', { form: { intent: 'bank', bankAccount: VALID_IBAN, bankAccountHolder: 'Anna Author' }, cookie: owner })).status).toBe(302)
    const res = await appFetch(school.host, '/home/balance', { form: { intent: 'withdraw', currency: 'PLN' }, cookie: owner })
    expect(res.status).toBe(302)
    expect(location(res)).toMatch(/^\/home\/balance\?requested=[a-z2-7]+$/)
    const row = await env.DB_SHARD_0.prepare('SELECT amount, currency, status, bank_account, requested_by, paid_at FROM withdrawals WHERE tenant_id = ?').bind(school.tenantId).first<Record<string, unknown>>()
    expect(row).toEqual({ amount: 33550, currency: 'PLN', status: 'pending', bank_account: JSON.stringify({ account: 'PL61109010140000071219812874', holder: 'Anna Author', type: 'iban', swift: null, routing: null }), requested_by: school.owner.id, paid_at: null })

    // A later change of the account does not change the request's snapshot.
    await appFetch(school.host, '/home/balance', { form: { intent: 'bank', bankAccount: 'DE89 3704 0044 0532 0130 00', bankAccountHolder: 'Other Holder' }, cookie: owner })
    expect(await count("SELECT count(*) AS n FROM withdrawals WHERE tenant_id = ? AND bank_account LIKE '%PL611090%'", school.tenantId)).toBe(1)

    const html = await textOf(appFetch(school.host, location(res), { cookie: owner }))
    expect(html).toContain('Withdrawal of PLN 335.50 requested. It will be paid within 7 days.')
    const pln = figures(html, 'PLN')
    expect(pln.pending).toBe('− PLN 335.50')
    expect(pln.available).toBe('PLN 0.00')
    expect(html).toMatch(/data-withdrawal-status="pending"/)
    expect(html).toContain('PL61 1090 1014 0000 0712 1981 2874')
    expect(html).toContain('to be paid by')

    // Nothing left in PLN: the seed's message.
    const again = await appFetch(school.host, '/home/balance', { form: { intent: 'withdraw', currency: 'PLN' }, cookie: owner })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('No transactions available so withdrawal is not possible')
    // A currency the school never sold in, or a bad one.
    expect((await appFetch(school.host, '/home/balance', { form: { intent: 'withdraw', currency: 'EUR' }, cookie: owner })).status).toBe(409)
    expect((await appFetch(school.host, '/home/balance', { form: { intent: 'withdraw', currency: 'pln; drop' }, cookie: owner })).status).toBe(400)
    expect(await count('SELECT count(*) AS n FROM withdrawals WHERE tenant_id = ?', school.tenantId)).toBe(1)
  })

  it('10 withdrawal requests at once make exactly one withdrawal', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => appFetch(school.host, '/home/balance', { form: { intent: 'withdraw', currency: 'USD' }, cookie: owner })))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses).toEqual([302, 409, 409, 409, 409, 409, 409, 409, 409, 409])
    expect(await count("SELECT count(*) AS n FROM withdrawals WHERE tenant_id = ? AND currency = 'USD'", school.tenantId)).toBe(1)
    expect(await count("SELECT sum(amount) AS n FROM withdrawals WHERE tenant_id = ? AND currency = 'USD'", school.tenantId)).toBe(4625)
  })

  it('a sale after the withdrawal becomes available again; the operator marks the withdrawal paid once', async () => {
    await sale(school, { userId: student.id, email: student.email, total: 2000, fee: 200 })
    const before = figures(await textOf(appFetch(school.host, '/home/balance', { cookie: owner })), 'PLN')
    expect(before.available).toBe('PLN 18.00')

    const withdrawal = await env.DB_SHARD_0.prepare("SELECT id FROM withdrawals WHERE tenant_id = ? AND currency = 'PLN'").bind(school.tenantId).first<{ id: string }>()
    // Not an operator: the login page, nothing changes.
    const anonymous = await appFetch(PLATFORM, '/operator/withdrawals', { form: { intent: 'mark_paid', withdrawalId: withdrawal!.id } })
    expect(anonymous.status).toBe(302)
    expect(location(anonymous)).toBe('/operator/login')
    // The school owner's session is not an operator's either.
    expect((await appFetch(PLATFORM, '/operator/withdrawals', { form: { intent: 'mark_paid', withdrawalId: withdrawal!.id }, cookie: owner })).status).toBe(302)
    expect(await count("SELECT count(*) AS n FROM withdrawals WHERE status = 'paid' AND tenant_id = ?", school.tenantId)).toBe(0)

    const operator = await operatorCookie()
    const list = await appFetch(PLATFORM, '/operator/withdrawals?status=pending', { cookie: operator })
    expect(list.status).toBe(200)
    const listHtml = await textOf(list)
    expect(listHtml).toContain(`data-withdrawal="${withdrawal!.id}"`)
    expect(listHtml).toContain('PLN 335.50')
    expect(listHtml).toContain('PL61 1090 1014 0000 0712 1981 2874')
    expect(listHtml).toContain('Anna Author')
    expect(listHtml).toContain('Mark as paid')

    const paid = await appFetch(PLATFORM, '/operator/withdrawals', { form: { intent: 'mark_paid', withdrawalId: withdrawal!.id }, cookie: operator })
    expect(paid.status).toBe(302)
    expect(location(paid)).toBe('/operator/withdrawals')
    expect(flashOf(paid)).toMatchObject({ done: 'paid', message: 'operator.withdrawals.paid_ok' })
    const first = await env.DB_SHARD_0.prepare('SELECT status, paid_at, paid_by FROM withdrawals WHERE id = ?').bind(withdrawal!.id).first<Record<string, unknown>>()
    expect(first).toMatchObject({ status: 'paid', paid_by: 'op-money' })
    expect(first!.paid_at).toBeGreaterThan(0)

    // Idempotent: again (and twice at once) changes nothing.
    const twice = await Promise.all([0, 1].map(() => appFetch(PLATFORM, '/operator/withdrawals', { form: { intent: 'mark_paid', withdrawalId: withdrawal!.id }, cookie: operator })))
    expect(twice.map(location)).toEqual(['/operator/withdrawals', '/operator/withdrawals'])
    expect(twice.map((res) => flashOf(res)?.done)).toEqual(['already', 'already'])
    expect(await env.DB_SHARD_0.prepare('SELECT status, paid_at, paid_by FROM withdrawals WHERE id = ?').bind(withdrawal!.id).first()).toEqual(first)
    expect((await appFetch(PLATFORM, '/operator/withdrawals', { form: { intent: 'mark_paid', withdrawalId: 'nope' }, cookie: operator })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/operator/withdrawals', { form: { intent: 'other' }, cookie: operator })).status).toBe(400)

    const html = await textOf(appFetch(school.host, '/home/balance', { cookie: owner }))
    const after = figures(html, 'PLN')
    expect(after.pending).toBe('− PLN 0.00')
    expect(after.paid).toBe('− PLN 335.50')
    expect(after.available).toBe('PLN 18.00')
    expect(html).toMatch(/data-withdrawal-status="paid"/)
  })
})

describe('/home/transactions', () => {
  it('lists the school\'s transactions newest first with translated statuses, fee, invoice status and provider; filters by status and email', async () => {
    const res = await appFetch(school.host, '/home/transactions', { cookie: owner })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    // 1 + 6 + 1 transactions of this school so far.
    expect(html).toContain('8 transactions')
    for (const label of ['Completed', 'Refunded', 'Pending', 'Failed', 'Test provider', 'None']) expect(html).toContain(label)
    expect(html).toContain(`href="/home/students/${student.id}"`)
    expect(html).toContain('PLN 20.00')
    // Newest first: the last sale (20.00) is above the first one (10.00).
    expect(html.indexOf('PLN 20.00')).toBeLessThan(html.indexOf('PLN 10.00'))

    const completed = await textOf(appFetch(school.host, '/home/transactions?status=completed', { cookie: owner }))
    expect(completed).toContain('5 transactions')
    expect(completed).not.toContain('data-status="failed"')
    const refunded = await textOf(appFetch(school.host, '/home/transactions?status=refunded', { cookie: owner }))
    expect(refunded).toContain('1 transaction<')

    const other = await createTestStudent(school.tenantId, { email: 'someone.else@example.com' })
    await sale(school, { userId: other.id, email: other.email, total: 1234, fee: 100, title: 'Other course' })
    const byEmail = await textOf(appFetch(school.host, '/home/transactions?email=SOMEONE.else', { cookie: owner }))
    expect(byEmail).toContain('1 transaction<')
    expect(byEmail).toContain('Other course')
    const none = await textOf(appFetch(school.host, '/home/transactions?email=%25', { cookie: owner }))
    expect(none).toContain('No transactions match these filters.')
    // A bad filter is ignored, not an error.
    expect((await appFetch(school.host, '/home/transactions?status=stolen&page=-3', { cookie: owner })).status).toBe(200)
  })

  it('pages by 25', async () => {
    const fresh = await createTestSchool()
    const cookie = await login(fresh.host, fresh.owner.email, fresh.owner.password)
    const buyer = await createTestStudent(fresh.tenantId)
    // One second apart: sales made in the same millisecond would tie on createdAt and order by their random ids.
    const start = Date.now() - 60_000
    for (let i = 0; i < 27; i++) {
      const tx = await sale(fresh, { userId: buyer.id, email: buyer.email, total: 100 + i, fee: 0, status: 'pending' })
      await env.DB_SHARD_0.prepare('update transactions set created_at = ? where id = ?').bind(start + i * 1000, tx.id).run()
    }
    const first = await textOf(appFetch(fresh.host, '/home/transactions', { cookie }))
    expect(first.match(/data-transaction="/g)).toHaveLength(25)
    expect(first).toContain('Page 1 of 2')
    const second = await textOf(appFetch(fresh.host, '/home/transactions?page=2', { cookie }))
    expect(second.match(/data-transaction="/g)).toHaveLength(2)
    // The two oldest (1.00 and 1.01) are on the second page.
    expect(second).toContain('PLN 1.00')
    expect(second).toContain('PLN 1.01')
  })

  it('shows one transaction with buyer, invoice details, consents and payment events; another school\'s id is 404', async () => {
    const tx = await sale(school, { userId: student.id, email: student.email, total: 3000, fee: 250, title: 'Detailed course' })
    const res = await appFetch(school.host, `/home/transactions/${tx.id}`, { cookie: owner })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    for (const text of ['Detailed course', 'Buyer Person', student.email, 'Buyer Ltd', 'PL1234567890', '30-001', 'PLN 30.00', 'PLN 2.50', 'PLN 27.50', 'Terms accepted', 'COMPLETED', ':completed']) {
      expect(html, text).toContain(text)
    }
    expect(html).not.toContain(tx.hash)
    const other = await createTestSchool()
    const otherOwner = await login(other.host, other.owner.email, other.owner.password)
    expect((await appFetch(other.host, `/home/transactions/${tx.id}`, { cookie: otherOwner })).status).toBe(404)
  })

  it('the student page lists that student\'s transactions only', async () => {
    // 9 so far; two more make 11, of which the page shows the newest 10.
    await sale(school, { userId: student.id, email: student.email, total: 700, fee: 0, status: 'pending' })
    await sale(school, { userId: student.id, email: student.email, total: 800, fee: 0, status: 'pending' })
    const html = await textOf(appFetch(school.host, `/home/students/${student.id}`, { cookie: owner }))
    expect(html).toContain('data-student-transactions')
    expect(html).toContain('Detailed course')
    expect(html).not.toContain('Other course')
    // 10 shown, the rest behind a link to the filtered list.
    expect(html.match(/data-transaction="/g)).toHaveLength(10)
    expect(html).toContain(`/home/transactions?student=${student.id}`)
    const filtered = await textOf(appFetch(school.host, `/home/transactions?student=${student.id}`, { cookie: owner }))
    expect(filtered).toContain('11 transactions')
    expect(filtered).not.toContain('Other course')
  })
})

describe('operator fee settings', () => {
  it('sets a school\'s fee (percent as basis points, fixed in minor units), empty = defaults; bad input writes nothing', async () => {
    const target = await createTestSchool({ name: 'Fee School' })
    const operator = await operatorCookie()
    const page = await appFetch(PLATFORM, `/operator/schools/${target.tenantId}`, { cookie: operator })
    expect(page.status).toBe(200)
    const html = (await page.text()).replace(/[\u00a0\u202f]/g, ' ')
    expect(html).toContain('Fee School')
    expect(html).toContain('Fee per sale: 5 % + PLN 1.00, $0.30, €0.30.')

    for (const [form, text] of [
      [{ feePercent: '51', feeFixed: '' }, 'Enter a percentage from 0 to 50 with at most two decimals'],
      [{ feePercent: '2.555', feeFixed: '' }, 'Enter a percentage from 0 to 50 with at most two decimals'],
      [{ feePercent: 'abc', feeFixed: '' }, 'Enter a percentage from 0 to 50 with at most two decimals'],
      [{ feePercent: '3', feeFixed: '-1' }, 'data-field-error="feeFixed"'],
      [{ feePercent: '3', feeFixed: '100.01' }, 'At most 100'],
    ] as const) {
      const res = await appFetch(PLATFORM, `/operator/schools/${target.tenantId}`, { form: { intent: 'fees', ...form }, cookie: operator })
      expect(res.status, JSON.stringify(form)).toBe(400)
      expect(await textOf(res), JSON.stringify(form)).toContain(text)
    }
    const fees = () => env.DB.prepare('SELECT fee_basis_points AS bps, fee_fixed AS fixed FROM tenants WHERE id = ?').bind(target.tenantId).first()
    expect(await fees()).toEqual({ bps: null, fixed: null })

    const ok = await appFetch(PLATFORM, `/operator/schools/${target.tenantId}`, { form: { intent: 'fees', feePercent: '2,5', feeFixed: '0.50' }, cookie: operator })
    expect(ok.status).toBe(302)
    expect(location(ok)).toBe(`/operator/schools/${target.tenantId}`)
    expect(flashOf(ok)).toMatchObject({ done: 'fees', message: 'operator.fees.saved' })
    expect(await fees()).toEqual({ bps: 250, fixed: 50 })
    const feesPage = await textOf(appFetch(PLATFORM, location(ok), { cookie: followFlash(operator, ok) }))
    expect(feesPage).toContain('Fee per sale: 2.5 % + 0.50.')
    expect(feesPage).toContain('data-done="fees"')

    await appFetch(PLATFORM, `/operator/schools/${target.tenantId}`, { form: { intent: 'fees', feePercent: '', feeFixed: '' }, cookie: operator })
    expect(await fees()).toEqual({ bps: null, fixed: null })

    // Only operators, only on the platform host; an unknown school is 404.
    expect(location(await appFetch(PLATFORM, `/operator/schools/${target.tenantId}`, { form: { intent: 'fees', feePercent: '0', feeFixed: '0' } }))).toBe('/operator/login')
    expect((await appFetch(target.host, `/operator/schools/${target.tenantId}`, { form: { intent: 'fees', feePercent: '0', feeFixed: '0' }, cookie: operator })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/operator/schools/nope', { cookie: operator })).status).toBe(404)
    expect(await fees()).toEqual({ bps: null, fixed: null })
  })
})
