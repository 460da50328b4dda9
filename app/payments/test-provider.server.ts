// The built-in test payment provider (issue 8, ADR 019): development and tests only, so a school
// can sell with no external account. It speaks like a real provider: the buyer is sent to its
// hosted page (`/pay/test/{ref}` on the school's host) and the outcome comes back as a signed
// notification to `/payments/test/{integrationId}/notify`, verified like any other.
//
// Notification: JSON `{ "id": "evt_…", "payment": "tp_…", "status": "succeeded" | "failed" |
// "3ds_failed" | "pending" }` with the header
//   X-Test-Payments-Signature: t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{raw body}")}
// accepted within 300 s of t. The event id is the deduplication key.
import { z } from 'zod'
import { newId } from '#app/utils/ids.server.ts'
import { testCardTokenDeclines } from '#app/models/membership.server.ts'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type { PaymentAdapter, ProviderPaymentState, VerifiedNotification } from './provider.server.ts'

export const TEST_SIGNATURE_HEADER = 'X-Test-Payments-Signature'
export const TEST_SIGNATURE_TOLERANCE_SECONDS = 300
export const TEST_OUTCOMES = ['succeeded', 'failed', '3ds_failed', 'pending'] as const
export type TestOutcome = (typeof TEST_OUTCOMES)[number]

const STATUS_OF: Record<TestOutcome, TransactionStatus | null> = { succeeded: 'completed', failed: 'failed', '3ds_failed': 'failed', pending: null }

const notificationSchema = z.object({ id: z.string().regex(/^evt_[a-z0-9]{8,64}$/), payment: z.string().regex(/^tp_[a-z0-9]{8,64}$/), status: z.enum(TEST_OUTCOMES) })

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
export async function testNotification(secret: string, payment: string, status: TestOutcome, eventId = `evt_${newId()}`) {
  const body = JSON.stringify({ id: eventId, payment, status })
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
      const { id, payment, status } = parsed.data
      return { providerRef: payment, event: { provider: 'test', eventKey: id, providerStatus: status, status: STATUS_OF[status] } }
    },
    /**
     * The built-in test provider is the platform itself: its notifications are signed with the
     * platform's secret (never a school's), and it charges exactly the transaction's total. So a
     * verified notification is its answer; with none there is nothing to ask.
     */
    async confirmPayment(payment, claimed): Promise<ProviderPaymentState> {
      if (!claimed) return { ok: false, reason: 'unavailable' }
      return { ok: true, providerRef: payment, status: claimed.status, providerStatus: claimed.providerStatus, amount: null, currency: null }
    },
  }
}

/**
 * Charging a stored card (membership renewals, issue 8 item 6). The built-in test provider keeps no
 * card: the token the card form wrote (app/models/membership.server.ts, `tok_test_{last4}_{ok|decline}_…`)
 * says how the card behaves. Test cards (any future expiry, any CVV):
 *   4000 0000 0000 0002 — every charge is declined ('card_declined');
 *   any other valid number (e.g. 4242 4242 4242 4242, 5555 5555 5555 4444) — charges succeed.
 * A missing or unreadable token is 'no_card' (nothing to charge).
 */
export type StoredCardCharge = { token: string | null; amount: number; currency: string; idempotencyKey: string }
export type StoredCardResult = { ok: true; chargeId: string } | { ok: false; reason: 'card_declined' | 'no_card' }

export async function chargeStoredCard(charge: StoredCardCharge): Promise<StoredCardResult> {
  const declines = testCardTokenDeclines(charge.token)
  if (declines === null || !Number.isInteger(charge.amount) || charge.amount < 0) return { ok: false, reason: 'no_card' }
  if (declines) return { ok: false, reason: 'card_declined' }
  // Deterministic per attempt, like a provider answering an Idempotency-Key.
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(charge.idempotencyKey))
  return { ok: true, chargeId: `ch_${toHex(digest).slice(0, 24)}` }
}
