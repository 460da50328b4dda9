import { describe, expect, it } from 'vitest'
import { collectorOf, reconcile } from './payment-confirm.ts'

const tx = { providerRef: 'ORDER1', totalAmount: 14_900, currency: 'PLN' }
const paid = { ok: true as const, providerRef: 'ORDER1', status: 'completed' as const, providerStatus: 'COMPLETED', amount: 14_900, currency: 'PLN' }

describe('reconcile: the provider decides, the notification only asks', () => {
  it("takes the provider's status, whatever the notification claimed", () => {
    expect(reconcile(tx, { ...paid, status: null, providerStatus: 'NEW' }, 'completed')).toEqual({ kind: 'status', status: null, providerStatus: 'NEW', subscriptionId: null })
    expect(reconcile(tx, paid, null)).toEqual({ kind: 'status', status: 'completed', providerStatus: 'COMPLETED', subscriptionId: null })
    expect(reconcile(tx, { ...paid, status: 'waiting', providerStatus: 'WAITING_FOR_CONFIRMATION' }, 'completed')).toMatchObject({ status: 'waiting' })
  })
  it('lets a notification end a payment the provider does not call paid, never one it does', () => {
    expect(reconcile(tx, { ...paid, status: 'waiting', providerStatus: 'complete/unpaid' }, 'failed')).toMatchObject({ kind: 'status', status: 'failed' })
    expect(reconcile(tx, { ...paid, status: null }, 'canceled')).toMatchObject({ kind: 'status', status: 'canceled' })
    expect(reconcile(tx, paid, 'failed')).toMatchObject({ kind: 'status', status: 'completed' })
  })
  it('a different order, amount or currency is a mismatch that says which', () => {
    expect(reconcile(tx, { ...paid, providerRef: 'ORDER2' }, 'completed')).toMatchObject({ kind: 'mismatch', reason: 'order: provider ORDER2, transaction ORDER1' })
    expect(reconcile(tx, { ...paid, amount: 100, currency: 'EUR' }, 'completed')).toMatchObject({ kind: 'mismatch', reason: 'amount: provider 100 EUR, transaction 14900 PLN' })
    expect(reconcile(tx, { ...paid, currency: 'EUR' }, 'completed')).toMatchObject({ kind: 'mismatch', reason: 'currency: provider EUR, transaction PLN' })
    expect(reconcile(tx, { ok: false, reason: 'not_found' }, 'completed')).toMatchObject({ kind: 'mismatch', reason: 'order: unknown to the provider' })
    expect(reconcile({ ...tx, providerRef: null }, paid, 'completed')).toMatchObject({ kind: 'mismatch' })
  })
  it('asks again later when the provider does not answer; the test provider charges the transaction by construction', () => {
    expect(reconcile(tx, { ok: false, reason: 'unavailable' }, 'completed')).toEqual({ kind: 'retry' })
    expect(reconcile(tx, { ...paid, amount: null, currency: null }, 'completed')).toMatchObject({ kind: 'status', status: 'completed' })
  })
})

describe('collectorOf', () => {
  it("is the platform only for the platform's built-in test provider; every school integration collects for the school", () => {
    expect(collectorOf({ id: 'test', provider: 'test' })).toBe('platform')
    expect(collectorOf({ id: 'abc', provider: 'test' })).toBe('school')
    expect(collectorOf({ id: 'abc', provider: 'payu' })).toBe('school')
    expect(collectorOf({ id: 'abc', provider: 'stripe' })).toBe('school')
    expect(collectorOf(null)).toBe('school')
  })
})
