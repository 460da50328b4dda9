// The built-in test payment provider (issue 8, ADR 019): development and tests only, so a school
// can sell with no external account. It speaks like a real provider: the buyer is sent to its
// hosted page (`/pay/test/{ref}` on the school's host) and the outcome comes back as a signed
// notification to `/payments/test/{integrationId}/notify`, verified like any other.
//
// Notification: JSON `{ "id": "evt_…", "payment": "tp_…", "status": "succeeded" | "failed" |
// "3ds_failed" | "pending", "reason"?: DeclineReason }` with the header
//   X-Test-Payments-Signature: t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{raw body}")}
// accepted within 300 s of t. The event id is the deduplication key. A decline names its reason
// (app/domain/payment-failure.ts: the test cards answer like Stripe's); the event carries it as
// `statusReason` = `decline:{reason}` for the transaction (a decline without one is 'sale_error',
// a failed 3-D Secure 'three_ds_failed').
import { z } from 'zod'
import { newId } from '#app/utils/ids.server.ts'
import { testCardTokenDeclines } from '#app/models/membership.server.ts'
import { DECLINE_REASONS, declineFromStatusReason, declineFromTestCardLast4, declineStatusReason, type DeclineReason } from '#app/domain/payment-failure.ts'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type { PaymentEvent } from '#app/models/transaction.server.ts'
import type { PaymentAdapter, ProviderPaymentState, VerifiedNotification } from './provider.server.ts'

export const TEST_SIGNATURE_HEADER = 'X-Test-Payments-Signature'
export const TEST_SIGNATURE_TOLERANCE_SECONDS = 300
export const TEST_OUTCOMES = ['succeeded', 'failed', '3ds_failed', 'pending'] as const
export type TestOutcome = (typeof TEST_OUTCOMES)[number]

const STATUS_OF: Record<TestOutcome, TransactionStatus | null> = { succeeded: 'completed', failed: 'failed', '3ds_failed': 'failed', pending: null }

const notificationSchema = z.object({
  id: z.string().regex(/^evt_[a-z0-9]{8,64}$/),
  payment: z.string().regex(/^tp_[a-z0-9]{8,64}$/),
  status: z.enum(TEST_OUTCOMES),
  reason: z.enum(DECLINE_REASONS).optional(),
})

/** Why a test payment failed: the notification's reason, else what its outcome says; null when it did not fail. */
export function testDecline(status: TestOutcome, reason?: DeclineReason | null): DeclineReason | null {
  if (status === '3ds_failed') return reason ?? 'three_ds_failed'
  if (status === 'failed') return reason ?? 'sale_error'
  return null
}

/** A verified event of the test provider; a decline also says why (`decline:{reason}`, for `transactions.status_reason`). */
export type TestPaymentEvent = PaymentEvent & { statusReason: string | null }

async function hmacKey(secret: string) {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

const toHex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('')

export async function signTestNotification(secret: string, rawBody: string, nowSeconds = Math.floor(Date.now() / 1000)) {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), new TextEncoder().encode(`${nowSeconds}.${rawBody}`))
  return `t=${nowSeconds},v1=${toHex(mac)}`
}

/** Signature check in constant time (WebCrypto's HMAC verify), with the timestamp tolerance. */
export async function verifyTestSignature(secret: string, rawBody: string, header: string | null, nowSeconds = Math.floor(Date.now() / 1000)) {
  const m = header ? /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header.trim()) : null
  if (!m) return false
  const t = Number(m[1])
  if (Math.abs(nowSeconds - t) > TEST_SIGNATURE_TOLERANCE_SECONDS) return false
  const given = new Uint8Array(m[2]!.match(/../g)!.map((h) => parseInt(h, 16)))
  return crypto.subtle.verify('HMAC', await hmacKey(secret), given, new TextEncoder().encode(`${t}.${rawBody}`))
}

/** A signed notification, as the hosted page sends it (also used by tests). */
export async function testNotification(secret: string, payment: string, status: TestOutcome, eventId = `evt_${newId()}`, reason?: DeclineReason | null) {
  const body = JSON.stringify({ id: eventId, payment, status, ...(reason && (status === 'failed' || status === '3ds_failed') ? { reason } : {}) })
  return { body, signature: await signTestNotification(secret, body) }
}

export function testProviderAdapter(secret: string): PaymentAdapter {
  return {
    provider: 'test',
    async startPayment(input) {
      const ref = `tp_${newId()}`
      return { ok: true, providerRef: ref, redirectUrl: `${input.origin}/pay/test/${ref}` }
    },
    async readNotification(request, rawBody): Promise<VerifiedNotification | null> {
      if (!(await verifyTestSignature(secret, rawBody, request.headers.get(TEST_SIGNATURE_HEADER)))) return null
      let parsed
      try {
        parsed = notificationSchema.safeParse(JSON.parse(rawBody))
      } catch {
        return null
      }
      if (!parsed.success) return null
      const { id, payment, status, reason } = parsed.data
      const decline = testDecline(status, reason)
      const event: TestPaymentEvent = { provider: 'test', eventKey: id, providerStatus: status, status: STATUS_OF[status], statusReason: decline ? declineStatusReason(decline) : null }
      return { providerRef: payment, event }
    },
    /**
     * The built-in test provider is the platform itself: its notifications are signed with the
     * platform's secret (never a school's), and it charges exactly the transaction's total. So a
     * verified notification is its answer; with none there is nothing to ask.
     */
    async confirmPayment(payment, claimed): Promise<ProviderPaymentState> {
      if (!claimed) return { ok: false, reason: 'unavailable' }
      // A decline's reason travels with the verified notification: the settlement records it.
      const declineReason = declineFromStatusReason((claimed as Partial<TestPaymentEvent>).statusReason)
      const state = { ok: true as const, providerRef: payment, status: claimed.status, providerStatus: claimed.providerStatus, amount: null, currency: null, declineReason }
      return state
    },
  }
}

/**
 * Charging a stored card (membership renewals, issue 8 item 6). The built-in test provider keeps no
 * card: the token the card form wrote (app/models/membership.server.ts, `tok_test_{last4}_{ok|decline}_…`)
 * says how the card behaves. Test cards (any future expiry, any CVV):
 *   a card whose token says `decline` — every charge is declined ('card_declined'); why is
 *   `storedCardDecline(token)`: the reason of the test card that ends in those four digits
 *   (payment-failure.ts TEST_CARDS: 0002 the generic 'sale_error', 9995 'insufficient_funds', …);
 *   any other valid number (e.g. 4242 4242 4242 4242, 5555 5555 5555 4444) — charges succeed.
 * A missing or unreadable token is 'no_card' (nothing to charge).
 */
export type StoredCardCharge = { token: string | null; amount: number; currency: string; idempotencyKey: string }
export type StoredCardResult = { ok: true; chargeId: string } | { ok: false; reason: 'card_declined' | 'no_card' }

/** Why a stored test card is declined (its token says `decline`): the reason of the test card with its last four digits; null for a card that pays or no card. */
export function storedCardDecline(token: string | null | undefined): DeclineReason | null {
  if (testCardTokenDeclines(token) !== true) return null
  return declineFromTestCardLast4(/^tok_test_(\d{4})_/.exec(token ?? '')?.[1] ?? '')
}

export async function chargeStoredCard(charge: StoredCardCharge): Promise<StoredCardResult> {
  const declines = testCardTokenDeclines(charge.token)
  if (declines === null || !Number.isInteger(charge.amount) || charge.amount < 0) return { ok: false, reason: 'no_card' }
  if (declines) return { ok: false, reason: 'card_declined' }
  // Deterministic per attempt, like a provider answering an Idempotency-Key.
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(charge.idempotencyKey))
  return { ok: true, chargeId: `ch_${toHex(digest).slice(0, 24)}` }
}
