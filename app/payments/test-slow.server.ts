// The test provider's "pay (slow confirmation)" (ADR 019): the hosted page records a PENDING
// notification now, and the confirmation is "sent" once SLOW_DELAY_MS have passed — delivered when
// the buyer's pending page next asks (every 5 s), not by a background timer a worker may drop.
// Event ids are derived from the payment, so concurrent polls confirm it once (payment_events is
// unique per event key).
import { testPaymentsAllowed } from '#app/payments/payment-mode.server.ts'
import type { AppLoadContext } from '@remix-run/cloudflare'
import { getPaymentEventByKey } from '#app/models/payment-event.server.ts'
import type { Transaction } from '#app/models/transaction.server.ts'
import { handleProviderNotification } from './notify.server.ts'
import { TEST_SIGNATURE_HEADER, testNotification } from './test-provider.server.ts'

export const SLOW_DELAY_MS = 8000

export const slowEventIds = (ref: string) => ({ started: `evt_slow${ref.slice(3)}`, confirmed: `evt_slowok${ref.slice(3)}` })

/** Deliver a notification of this test payment in-process, through the same handler as `/payments/test/{integration}/notify`. */
export async function deliverTestNotification(context: AppLoadContext, tenantId: string, tx: Pick<Transaction, 'integrationId'>, origin: string, secret: string, ref: string, status: 'succeeded' | 'failed' | '3ds_failed' | 'pending', eventId?: string) {
  const n = await testNotification(secret, ref, status, eventId)
  const request = new Request(`${origin}/payments/test/${tx.integrationId}/notify`, { method: 'POST', body: n.body, headers: { 'Content-Type': 'application/json', [TEST_SIGNATURE_HEADER]: n.signature } })
  return handleProviderNotification(context, tenantId, 'test', tx.integrationId!, request)
}

/** Confirm a slow test payment whose delay has passed; true when a confirmation was delivered now. */
export async function confirmDueSlowPayment(context: AppLoadContext, tenantId: string, tx: Transaction, origin: string, now = Date.now()) {
  const secret = context.cloudflare.env.TEST_PAYMENTS_SECRET
  if (tx.provider !== 'test' || tx.status !== 'pending' || !tx.providerRef || !tx.integrationId) return false
  if (!secret || !testPaymentsAllowed(context.cloudflare.env)) return false
  const ids = slowEventIds(tx.providerRef)
  const started = await getPaymentEventByKey(context.db, tenantId, 'test', ids.started)
  if (!started || started.receivedAt > now - SLOW_DELAY_MS) return false
  await deliverTestNotification(context, tenantId, tx, origin, secret, tx.providerRef, 'succeeded', ids.confirmed)
  return true
}
