import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { membershipPaymentProblemEmail } from '#app/membership/membership-emails.server.ts'
import { testCardToken } from '#app/models/membership.server.ts'
import { addPeriod, afterFailedCharge, MAX_FAILED_CHARGES, renewalRef } from './membership-billing.server.ts'
import { firstChargeAt } from '#app/models/membership-lifecycle.server.ts'
import { subscriptionNotificationOf } from '#app/payments/stripe-adapter.server.ts'
import { chargeStoredCard } from '#app/payments/test-provider.server.ts'

const DAY = 86_400_000
const T0 = Date.UTC(2026, 0, 31, 12)

describe('renewal schedule', () => {
  it('retries after 1 day, then 3 days; the third failure in a row ends the membership', () => {
    expect(afterFailedCharge(0, T0)).toEqual({ failedCharges: 1, status: 'at_risk', nextChargeAt: T0 + DAY, endedAt: null })
    expect(afterFailedCharge(1, T0)).toEqual({ failedCharges: 2, status: 'at_risk', nextChargeAt: T0 + 3 * DAY, endedAt: null })
    expect(afterFailedCharge(2, T0)).toEqual({ failedCharges: MAX_FAILED_CHARGES, status: 'ended', nextChargeAt: null, endedAt: T0 })
  })

  it('periods are calendar months (31 January + 1 month = end of February)', () => {
    expect(new Date(addPeriod(T0, 1)).toISOString()).toBe('2026-02-28T12:00:00.000Z')
    expect(new Date(addPeriod(T0, 12)).toISOString()).toBe('2027-01-31T12:00:00.000Z')
  })

  it('one claim key per period and attempt', () => {
    expect(renewalRef({ id: 'm1', currentPeriodEnd: T0, failedCharges: 0 })).toBe(`renewal:m1:${T0}`)
    expect(renewalRef({ id: 'm1', currentPeriodEnd: T0, failedCharges: 2 })).toBe(`renewal:m1:${T0}:r2`)
  })

  it('charges on schedule only for providers without subscriptions, never for lifetime', () => {
    const base = { periodMonths: 1, currentPeriodEnd: T0, providerSubscriptionId: null }
    expect(firstChargeAt({ ...base, provider: 'test' })).toBe(T0)
    expect(firstChargeAt({ ...base, provider: 'payu' })).toBe(T0)
    expect(firstChargeAt({ ...base, provider: 'stripe', providerSubscriptionId: 'sub_1' })).toBeNull()
    expect(firstChargeAt({ ...base, provider: 'stripe' })).toBeNull()
    expect(firstChargeAt({ periodMonths: -1, currentPeriodEnd: null, providerSubscriptionId: null, provider: 'test' })).toBeNull()
  })
})

describe('chargeStoredCard (built-in test provider)', () => {
  it('declines the test card 4000 0000 0000 0002, approves others, refuses a missing token', async () => {
    expect(await chargeStoredCard({ token: testCardToken('4000 0000 0000 0002'), amount: 4900, currency: 'PLN', idempotencyKey: 'a' })).toEqual({ ok: false, reason: 'card_declined' })
    const ok = await chargeStoredCard({ token: testCardToken('4242 4242 4242 4242'), amount: 4900, currency: 'PLN', idempotencyKey: 'a' })
    expect(ok).toMatchObject({ ok: true })
    // Same attempt, same charge id (idempotent).
    expect(await chargeStoredCard({ token: testCardToken('5555555555554444'), amount: 4900, currency: 'PLN', idempotencyKey: 'a' })).toEqual(ok)
    expect(await chargeStoredCard({ token: null, amount: 4900, currency: 'PLN', idempotencyKey: 'a' })).toEqual({ ok: false, reason: 'no_card' })
    expect(await chargeStoredCard({ token: 'tok_live_123', amount: 4900, currency: 'PLN', idempotencyKey: 'a' })).toEqual({ ok: false, reason: 'no_card' })
  })
})

describe('Stripe subscription events', () => {
  const event = (type: string, object: Record<string, unknown>) => ({ id: 'evt_1', type, data: { object } }) as unknown as Stripe.Event
  it('reads renewals, failures and the end; the first invoice and other events are ignored', () => {
    expect(subscriptionNotificationOf(event('invoice.paid', { id: 'in_1', subscription: 'sub_1', billing_reason: 'subscription_cycle', amount_paid: 3900, currency: 'pln' }))).toEqual({
      kind: 'renewed',
      eventKey: 'evt_1',
      providerStatus: 'invoice.paid',
      subscriptionId: 'sub_1',
      invoiceId: 'in_1',
      amountPaid: 3900,
      currency: 'PLN',
      periodEnd: null,
    })
    // Newer API versions: the subscription under parent, the new period on the line.
    expect(
      subscriptionNotificationOf(
        event('invoice.paid', { id: 'in_2', parent: { subscription_details: { subscription: 'sub_2' } }, billing_reason: 'subscription_cycle', amount_paid: 100, currency: 'usd', lines: { data: [{ period: { end: 1_900_000_000 } }] } }),
      ),
    ).toMatchObject({ kind: 'renewed', subscriptionId: 'sub_2', periodEnd: 1_900_000_000_000 })
    expect(subscriptionNotificationOf(event('invoice.paid', { id: 'in_3', subscription: 'sub_1', billing_reason: 'subscription_create', amount_paid: 3900, currency: 'pln' }))).toMatchObject({ kind: 'ignored' })
    expect(subscriptionNotificationOf(event('invoice.payment_failed', { id: 'in_4', subscription: { id: 'sub_1' } }))).toMatchObject({ kind: 'payment_failed', subscriptionId: 'sub_1' })
    expect(subscriptionNotificationOf(event('customer.subscription.deleted', { id: 'sub_1', status: 'canceled' }))).toMatchObject({ kind: 'deleted', subscriptionId: 'sub_1' })
    expect(subscriptionNotificationOf(event('customer.subscription.updated', { id: 'sub_1' }))).toMatchObject({ kind: 'ignored' })
    expect(subscriptionNotificationOf(event('checkout.session.completed', { id: 'cs_1' }))).toBe('not_subscription')
  })
})

describe('payment problem email', () => {
  const args = { school: 'Ada <School>', name: 'Ada', to: 'ada@example.com', product: 'Club', amount: '49,00 zł', url: 'https://ada.example.com/panel' }
  it('English and Polish, escaped, with the action link', () => {
    const en = membershipPaymentProblemEmail({ ...args, kind: 'card', locale: 'en' })
    expect(en).toMatchObject({ template: 'membership_payment_problem', to: 'ada@example.com', subject: 'Payment problem: your membership Club' })
    expect(en.text).toContain('Update card: https://ada.example.com/panel')
    expect(en.html).toContain('Ada &lt;School&gt;')
    expect(en.html).not.toContain('Ada <School>')
    const pl = membershipPaymentProblemEmail({ ...args, kind: 'pay_link', locale: 'pl' })
    expect(pl).toMatchObject({ template: 'membership_renewal_due', subject: 'Odnów członkostwo Club' })
    expect(pl.text).toContain('Odnów członkostwo: https://ada.example.com/panel')
  })
})
