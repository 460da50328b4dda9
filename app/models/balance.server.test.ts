import { describe, expect, it } from 'vitest'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { checkBankAccount, emptyBalance, formatBankAccount, getBalances, missingPageSettings, setPayoutAccount } from './balance.server.ts'
import { updatePageSettings } from './page-settings.server.ts'
import { markWithdrawalPaid, requestWithdrawal } from './withdrawal.server.ts'

let n = 0
const DAY = 86_400_000
async function sold(tenantId: string, total: number, fee: number, currency: string, final: 'completed' | 'refunded' | 'canceled' | null, collector: 'platform' | 'school' = 'platform', at = Date.now() - 8 * DAY) {
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

    expect(await markWithdrawalPaid(db(), withdrawal!.id, 'op-1', 1_000)).toBe('paid')
    expect(await markWithdrawalPaid(db(), withdrawal!.id, 'op-2', 2_000)).toBe('already')
    expect(await markWithdrawalPaid(db(), 'missing', 'op-1')).toBe('not_found')
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

describe('missingPageSettings', () => {
  it('names the author and the contact email until both are set', async () => {
    const school = await createTestSchool()
    expect(await missingPageSettings(db(), school.tenantId)).toEqual(['authorName', 'contactEmail'])
    await updatePageSettings(db(), school.tenantId, { contactEmail: 'a@example.com', authorName: '  ' })
    expect(await missingPageSettings(db(), school.tenantId)).toEqual(['authorName'])
    await updatePageSettings(db(), school.tenantId, { authorName: 'Ann' })
    expect(await missingPageSettings(db(), school.tenantId)).toEqual([])
  })
})
