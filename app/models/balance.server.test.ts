import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { createTestSchool, db, dbs } from '#tests/factories.ts'
import { availableSql, checkBankAccount, emptyBalance, formatBankAccount, getBalances, getBalancesForSchools, missingPageSettings, setPayoutAccount } from './balance.server.ts'
import { updatePageSettings } from './page-settings.server.ts'
import { markWithdrawalPaid, requestWithdrawal } from './withdrawal.server.ts'

let n = 0
const DAY = 86_400_000
async function sold(tenantId: string, total: number, fee: number, currency: string, final: 'completed' | 'refunded' | 'canceled' | null, collector: 'platform' | 'school' | 'split' = 'platform', at = Date.now() - 8 * DAY) {
  const tx = await createTransaction(db(), tenantId, {
    collector,
    productKind: 'course',
    productTitle: 'Course',
    currency,
    unitAmount: total,
    totalAmount: total,
    feeAmount: fee,
    termsAcceptedAt: Date.now(),
    checkoutPath: '/c/checkout',
  })
  // Settled at `at` (by default past the hold, so platform-held money is released).
  const step = async (status: 'completed' | 'refunded' | 'canceled') =>
    settleTransaction(db(), tenantId, tx.id, { event: { provider: 'test', eventKey: `b-${++n}`, providerStatus: status, status }, status }, at)
  if (final === 'completed' || final === 'refunded') await step('completed')
  if (final === 'refunded') await step('refunded')
  if (final === 'canceled') await step('canceled')
  return tx
}

describe('checkBankAccount', () => {
  it('accepts IBANs with a valid checksum and 26-digit Polish NRBs, normalized', () => {
    expect(checkBankAccount('PL61 1090 1014 0000 0712 1981 2874')).toEqual({ ok: true, value: 'PL61109010140000071219812874' })
    expect(checkBankAccount('61-1090-1014-0000-0712-1981-2874')).toEqual({ ok: true, value: '61109010140000071219812874' })
    expect(checkBankAccount('de89 3704 0044 0532 0130 00')).toEqual({ ok: true, value: 'DE89370400440532013000' })
    expect(checkBankAccount('GB82WEST12345698765432')).toEqual({ ok: true, value: 'GB82WEST12345698765432' })
    expect(checkBankAccount('NO9386011117947')).toEqual({ ok: true, value: 'NO9386011117947' })
  })
  it('refuses a wrong digit (checksum) and anything that is not an account number (format)', () => {
    expect(checkBankAccount('PL61 1090 1014 0000 0712 1981 2875')).toEqual({ ok: false, error: 'checksum' })
    expect(checkBankAccount('61109010140000071219812875')).toEqual({ ok: false, error: 'checksum' })
    expect(checkBankAccount('GB82WEST12345698765433')).toEqual({ ok: false, error: 'checksum' })
    for (const bad of ['', '1234', 'PL6110901014000007121981287', 'PL611090101400000712198128744', 'XX', '6110901014000007121981287a', '<script>']) {
      expect(checkBankAccount(bad), bad).toEqual({ ok: false, error: 'format' })
    }
  })
  it('formats in groups of four', () => {
    expect(formatBankAccount('PL61109010140000071219812874')).toBe('PL61 1090 1014 0000 0712 1981 2874')
    expect(formatBankAccount('61109010140000071219812874')).toBe('61 1090 1014 0000 0712 1981 2874')
  })
})

describe('getBalances and requestWithdrawal', () => {
  it('sales − fees − refunds − withdrawals per currency; the withdrawal takes exactly the available figure', async () => {
    const school = await createTestSchool()
    await sold(school.tenantId, 12_300, 715, 'PLN', 'completed')
    await sold(school.tenantId, 4_000, 300, 'PLN', 'refunded')
    await sold(school.tenantId, 9_999, 600, 'PLN', 'canceled')
    await sold(school.tenantId, 5_000, 400, 'PLN', null)
    await sold(school.tenantId, 2_500, 105, 'EUR', 'completed')
    expect(await getBalances(db(), school.tenantId, 'EUR')).toEqual([
      { ...emptyBalance('EUR'), sales: 2_500, salesCount: 1, fees: 105, available: 2_395 },
      // 16300 − 1015 − 4000
      { ...emptyBalance('PLN'), sales: 16_300, salesCount: 2, fees: 1_015, refunds: 4_000, refundsCount: 1, available: 11_285 },
    ])

    expect(await requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })).toEqual({ outcome: 'no_bank_account' })
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: school.owner.id })))
    const created = outcomes.filter((o) => o.outcome === 'created')
    expect(created).toHaveLength(1)
    expect(outcomes.filter((o) => o.outcome === 'nothing_available')).toHaveLength(9)
    const withdrawal = created[0]!.outcome === 'created' ? created[0]!.withdrawal : null
    expect(withdrawal).toMatchObject({ amount: 11_285, currency: 'PLN', status: 'pending', requestedBy: school.owner.id, paidAt: null })

    const pln = (await getBalances(db(), school.tenantId)).find((b) => b.currency === 'PLN')
    expect(pln).toMatchObject({ pending: 11_285, paid: 0, available: 0 })

    expect(await markWithdrawalPaid([db()], withdrawal!.id, 'op-1', 1_000)).toEqual({ status: 'paid', tenantId: withdrawal!.tenantId, amount: withdrawal!.amount, currency: withdrawal!.currency })
    expect(await markWithdrawalPaid([db()], withdrawal!.id, 'op-2', 2_000)).toEqual({ status: 'already' })
    expect(await markWithdrawalPaid([db()], 'missing', 'op-1')).toEqual({ status: 'not_found' })
    expect((await getBalances(db(), school.tenantId)).find((b) => b.currency === 'PLN')).toMatchObject({ pending: 0, paid: 11_285, available: 0 })

    // A refund after the payout leaves the balance negative: no withdrawal until sales cover it.
    const late = await sold(school.tenantId, 1_000, 100, 'PLN', 'completed')
    await settleTransaction(db(), school.tenantId, late.id, { event: { provider: 'test', eventKey: `b-${++n}`, providerStatus: 'refunded', status: 'refunded' }, status: 'refunded' })
    expect((await getBalances(db(), school.tenantId)).find((b) => b.currency === 'PLN')).toMatchObject({ available: 0, debt: 100 })
    expect(await requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })).toEqual({ outcome: 'in_debt', debt: 100 })
  })

  it("a sale collected by the school adds nothing withdrawable and its fee to what the school owes", async () => {
    const school = await createTestSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    // Three sales paid into the school's own PayU account: 14,247.00 zł that the platform never held.
    for (const total of [4_749_00, 4_749_00, 4_749_00]) await sold(school.tenantId, total, 23_800, 'PLN', 'completed', 'school')
    expect((await getBalances(db(), school.tenantId)).find((b) => b.currency === 'PLN')).toEqual({
      ...emptyBalance('PLN'),
      collectedBySchool: 14_247_00,
      collectedBySchoolCount: 3,
      feesOwed: 71_400,
      debt: 71_400,
    })
    expect(await requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })).toEqual({ outcome: 'in_debt', debt: 71_400 })
    // A platform-held sale pays the fees owed first; only the rest becomes withdrawable.
    await sold(school.tenantId, 100_000, 5_000, 'PLN', 'completed', 'platform')
    expect((await getBalances(db(), school.tenantId)).find((b) => b.currency === 'PLN')).toMatchObject({ sales: 100_000, fees: 5_000, feesOwed: 71_400, available: 23_600, debt: 0 })
    const outcome = await requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })
    expect(outcome.outcome === 'created' && outcome.withdrawal.amount).toBe(23_600)
  })

  it('platform-held money becomes withdrawable only after the hold; the withdrawal never takes money on hold', async () => {
    const school = await createTestSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    const completedAt = Date.now() - 2 * DAY
    await sold(school.tenantId, 10_000, 500, 'PLN', 'completed', 'platform', completedAt)
    const pln = (await getBalances(db(), school.tenantId)).find((b) => b.currency === 'PLN')!
    expect(pln).toMatchObject({ sales: 10_000, fees: 500, onHold: 9_500, available: 0, debt: 0 })
    expect(pln.nextReleaseAt).toBe(completedAt + 7 * DAY)
    expect(await requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })).toEqual({ outcome: 'nothing_available' })
    // Once the hold has passed: exactly the net is withdrawn, once, whatever the concurrency.
    const later = completedAt + 7 * DAY + 1
    expect((await getBalances(db(), school.tenantId, 'PLN', later))[0]).toMatchObject({ onHold: 0, nextReleaseAt: null, available: 9_500 })
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null }, later)))
    expect(outcomes.filter((o) => o.outcome === 'created').map((o) => (o.outcome === 'created' ? o.withdrawal.amount : 0))).toEqual([9_500])
    expect((await getBalances(db(), school.tenantId, 'PLN', later))[0]).toMatchObject({ pending: 9_500, available: 0, debt: 0 })
  })

  it('is per school: another school\'s sales never count', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    await sold(a.tenantId, 10_000, 500, 'PLN', 'completed')
    expect(await getBalances(db(), b.tenantId)).toEqual([])
    await setPayoutAccount(db(), b.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'B' })
    expect(await requestWithdrawal(db(), b.tenantId, { currency: 'PLN', requestedBy: null })).toEqual({ outcome: 'nothing_available' })
  })
})

describe('split sales (paid through the platform, split at the provider)', () => {
  it('show as paid out by the provider with their fees taken at source: 0 withdrawable, 0 owed; a refunded one drops out', async () => {
    const school = await createTestSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    await sold(school.tenantId, 20_000, 1_100, 'PLN', 'completed', 'split')
    await sold(school.tenantId, 5_000, 350, 'PLN', 'completed', 'split')
    await sold(school.tenantId, 9_000, 500, 'PLN', 'refunded', 'split')
    // Completed moments ago: a split sale has no hold either (the provider paid it out).
    await sold(school.tenantId, 1_000, 130, 'PLN', 'completed', 'split', Date.now())
    const [pln] = await getBalances(db(), school.tenantId, 'PLN')
    expect(pln).toEqual({ ...emptyBalance('PLN'), paidOutByProvider: 18_900 + 4_650 + 870, paidOutByProviderCount: 3, feesAtSource: 1_100 + 350 + 130 })
    // Nothing to withdraw and nothing owed: the refusal says so (no debt message).
    expect(await requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })).toEqual({ outcome: 'nothing_available' })
    const [{ net }] = (await db().all(sql`select ${availableSql(school.tenantId, 'PLN')} as net`)) as Array<{ net: number }>
    expect(net).toBe(0)
  })

  it('with every kind of sale in one currency: only platform-held, released money minus the school-collected fees is withdrawable (SQL and figures agree)', async () => {
    const school = await createTestSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    const now = Date.now()
    await sold(school.tenantId, 10_000, 600, 'PLN', 'completed', 'platform', now - 10 * DAY) // released: 9,400
    await sold(school.tenantId, 4_000, 300, 'PLN', 'completed', 'platform', now - 2 * DAY) // on hold: 3,700
    await sold(school.tenantId, 7_000, 450, 'PLN', 'completed', 'school') // owes 450
    await sold(school.tenantId, 30_000, 1_600, 'PLN', 'completed', 'split') // paid out 28,400
    const [pln] = await getBalances(db(), school.tenantId, 'PLN', now)
    expect(pln).toMatchObject({ sales: 14_000, salesCount: 2, fees: 900, onHold: 3_700, collectedBySchool: 7_000, feesOwed: 450, paidOutByProvider: 28_400, feesAtSource: 1_600, available: 8_950, debt: 0 })
    expect(pln!.nextReleaseAt).toBe(now - 2 * DAY + 7 * DAY)
    const [{ net }] = (await db().all(sql`select ${availableSql(school.tenantId, 'PLN', now)} as net`)) as Array<{ net: number }>
    expect(net).toBe(8_950)
    // The operator's read of several schools gives the same figures.
    const other = await createTestSchool()
    const many = await getBalancesForSchools([school, other].map((s) => ({ id: s.tenantId, db: db() })), now)
    expect(many.get(school.tenantId)).toEqual([pln])
    expect(many.has(other.tenantId)).toBe(false)
  })

  it('two (and ten) concurrent withdrawals never overdraw: one takes the net, the others are refused, the sum never exceeds the net', async () => {
    const school = await createTestSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    await sold(school.tenantId, 10_000, 600, 'PLN', 'completed', 'platform')
    await sold(school.tenantId, 7_000, 450, 'PLN', 'completed', 'school')
    await sold(school.tenantId, 30_000, 1_600, 'PLN', 'completed', 'split')
    // Two requests fired together: both are in flight against D1 before either answers.
    const pair = await Promise.all([0, 1].map(() => requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: school.owner.id })))
    expect(pair.map((o) => o.outcome).sort()).toEqual(['created', 'nothing_available'])
    // A later sale, then ten at once.
    await sold(school.tenantId, 2_000, 200, 'PLN', 'completed', 'platform')
    const ten = await Promise.all(Array.from({ length: 10 }, () => requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: school.owner.id })))
    expect(ten.filter((o) => o.outcome === 'created')).toHaveLength(1)
    const rows = (await db().all(sql`select amount from withdrawals where tenant_id = ${school.tenantId} order by created_at`)) as Array<{ amount: number }>
    // 10,000 − 600 − 450 = 8,950, then 1,800: never more than what was there.
    expect(rows.map((r) => r.amount).sort((a, b) => a - b)).toEqual([1_800, 8_950])
    expect((await getBalances(db(), school.tenantId, 'PLN'))[0]).toMatchObject({ pending: 10_750, available: 0, debt: 0 })
  })

  it('a school in fee debt is refused while the net is below zero, with the amount it owes', async () => {
    const school = await createTestSchool()
    await setPayoutAccount(db(), school.tenantId, { bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ola' })
    await sold(school.tenantId, 1_000, 100, 'PLN', 'completed', 'platform')
    await sold(school.tenantId, 50_000, 2_500, 'PLN', 'completed', 'school')
    await sold(school.tenantId, 9_000, 500, 'PLN', 'completed', 'split')
    const outcomes = await Promise.all([0, 1].map(() => requestWithdrawal(db(), school.tenantId, { currency: 'PLN', requestedBy: null })))
    // 900 held − 2,500 owed = −1,600; split sales change nothing.
    expect(outcomes).toEqual([
      { outcome: 'in_debt', debt: 1_600 },
      { outcome: 'in_debt', debt: 1_600 },
    ])
    expect(await db().all(sql`select id from withdrawals where tenant_id = ${school.tenantId}`)).toEqual([])
  })
})

describe('missingPageSettings', () => {
  it('names the author and the contact email until both are set', async () => {
    const school = await createTestSchool()
    expect(await missingPageSettings(dbs(), school.tenantId)).toEqual(['authorName', 'contactEmail'])
    await updatePageSettings(dbs(), school.tenantId, { contactEmail: 'a@example.com', authorName: '  ' })
    expect(await missingPageSettings(dbs(), school.tenantId)).toEqual(['authorName'])
    await updatePageSettings(dbs(), school.tenantId, { authorName: 'Ann' })
    expect(await missingPageSettings(dbs(), school.tenantId)).toEqual([])
  })
})
