// Przelewy24 behind the PaymentAdapter interface (issue 25, ADR 023): register → the buyer on P24's
// page (or BLIK level 0: the code typed in our checkout, charged by code, confirmed in the bank's
// app) → the signed notification only triggers → confirmPayment reads P24's record by sessionId and,
// for money paid but not yet accepted, calls transaction/verify (idempotently: state is read first).
// Refunds through transaction/refund. No stored cards: P24 memberships renew by the pay-link e-mail.
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type { PaymentAdapter, ProviderPaymentState, RefundCapable, RefundResult, StartPaymentResult, VerifiedNotification } from '../../provider.server.ts'
import type { ProviderContext } from '../provider-module.server.ts'
import { notificationSign, p24Client, p24NotificationSchema, p24Sign, P24_PRODUCTION_URL, P24_SANDBOX_URL, sameSign, type P24Credentials, type P24Transaction } from './client.server.ts'

/** P24's transaction statuses (by/sessionId) in our words. */
const P24_STATUS = { 0: 'no_payment', 1: 'advance_payment', 2: 'payment_made', 3: 'payment_returned' } as const
const providerStatusOf = (status: number) => P24_STATUS[status as keyof typeof P24_STATUS] ?? `status_${status}`

/** A refund's status in P24's refund list: 1 completed, 2 pending, 3 awaiting P24's acceptance, 4 rejected. */
const REFUND_STATUS: Record<number, string> = { 1: 'completed', 2: 'pending', 3: 'awaiting_acceptance', 4: 'rejected' }

/** P24 wants a 200 for a notification it may stop sending (anything else is sent again): the default JSON answer does. */
export type P24Adapter = PaymentAdapter & RefundCapable

/**
 * Where the buyer's browser reaches P24's page. In production and sandbox that is the API's host;
 * in development the API is the dev peer (a worker-internal URL), whose hosted pages the app
 * forwards from pay.{PLATFORM_HOST} on the school's port (server.ts PEER_HOSTED_PAGES).
 */
function payPageHost(ctx: ProviderContext, base: string, origin: string) {
  if (base === P24_PRODUCTION_URL || base === P24_SANDBOX_URL) return base
  const school = new URL(origin)
  return `${school.protocol}//pay.${ctx.env.PLATFORM_HOST}${school.port ? `:${school.port}` : ''}/p24/hosted`
}

export function p24Adapter(ctx: ProviderContext, credentials: P24Credentials): P24Adapter {
  const client = p24Client(ctx, credentials)

  function state(t: P24Transaction, status: TransactionStatus | null): ProviderPaymentState {
    return { ok: true, providerRef: t.sessionId, status, providerStatus: providerStatusOf(t.status), amount: t.amount, currency: t.currency }
  }

  return {
    provider: 'p24',

    async startPayment(input): Promise<StartPaymentResult> {
      const tx = input.transaction
      const blikCode = input.blikCode?.trim()
      if (blikCode !== undefined && !/^\d{6}$/.test(blikCode)) return { ok: false, reason: 'refused', detail: 'blik_code_format' }
      const registered = await client.register({
        // Our transaction id is P24's sessionId, and the providerRef everything else finds it by.
        sessionId: tx.id,
        amount: tx.totalAmount,
        currency: tx.currency,
        description: input.description,
        email: input.buyer.email,
        client: input.buyer.name,
        language: input.locale === 'en' ? 'en' : 'pl',
        urlReturn: input.continueUrl,
        urlStatus: input.notifyUrl,
        blik: blikCode ? { ip: input.customerIp } : undefined,
      })
      if (!registered.ok) return registered
      if (blikCode) {
        const charged = await client.chargeByCode(registered.token, blikCode)
        // A refused code is the buyer's to fix (a new code from the bank's app), not our credentials.
        if (!charged.ok) return { ok: false, reason: charged.reason, detail: charged.reason === 'refused' ? 'blik_code_refused' : charged.detail }
      }
      return { ok: true, redirectUrl: client.payPageUrl(payPageHost(ctx, client.base, input.origin), registered.token), providerRef: tx.id }
    },

    async readNotification(request, rawBody): Promise<VerifiedNotification | 'ignored' | null> {
      // P24 posts its notification as JSON; anything else is not P24's.
      const type = request.headers.get('Content-Type')?.split(';')[0]?.trim().toLowerCase()
      if (type !== 'application/json') return null
      let json: unknown
      try {
        json = JSON.parse(rawBody)
      } catch {
        return null
      }
      const parsed = p24NotificationSchema.safeParse(json)
      if (!parsed.success) return null
      const n = parsed.data
      if (n.merchantId !== credentials.merchantId || n.posId !== credentials.posId) return null
      if (!sameSign(n.sign, await notificationSign(credentials, n))) return null
      // P24 notifies only payments made; whether it counts is P24's record's to say (confirmPayment).
      return { providerRef: n.sessionId, event: { provider: 'p24', eventKey: `${n.orderId}:paid`, providerStatus: 'paid', status: 'completed' } }
    },

    async confirmPayment(sessionId): Promise<ProviderPaymentState> {
      const found = await client.transaction(sessionId)
      if (!found.ok) return { ok: false, reason: found.reason }
      const t = found.transaction
      if (t.status === 2) return state(t, 'completed')
      // Paid, not yet accepted: verify with what P24 recorded (the amount registered for this sessionId).
      if (t.status === 1) {
        const verified = await client.verify({ sessionId: t.sessionId, orderId: t.orderId, amount: t.amount, currency: t.currency })
        if (verified === 'unavailable') return { ok: false, reason: 'unavailable' }
        // Refused: perhaps verified meanwhile by a concurrent notification — P24's record decides.
        const now = verified === 'ok' ? { ...t, status: 2 } : await client.transaction(sessionId).then((r) => (r.ok ? r.transaction : null))
        if (!now) return { ok: false, reason: 'unavailable' }
        return state(now, now.status === 2 ? 'completed' : null)
      }
      // 0: not paid (a declined attempt leaves it so: the buyer may try again); 3: refunded, recorded by the refund itself.
      return state(t, null)
    },

    async refund(input): Promise<RefundResult> {
      const found = await client.transaction(input.providerRef)
      if (!found.ok) return { ok: false, reason: found.reason === 'not_found' ? 'refused' : 'unavailable' }
      const t = found.transaction
      if (input.currency !== t.currency) return { ok: false, reason: 'refused' }
      // P24 refunds only verified money: a sale paid but not yet accepted (its confirmation has not
      // run) is accepted first, as confirmPayment would.
      if (t.status === 1) {
        const verified = await client.verify({ sessionId: t.sessionId, orderId: t.orderId, amount: t.amount, currency: t.currency })
        if (verified === 'unavailable') return { ok: false, reason: 'unavailable' }
      }
      const requestId = input.idempotencyKey.slice(0, 45)
      // refundsUuid (≤ 35 characters): derived from the same key, so a repeat is the same refund.
      const refundsUuid = (await p24Sign({ refund: input.idempotencyKey })).slice(0, 32)
      const sent = await client.refund({ requestId, refundsUuid, orderId: t.orderId, sessionId: t.sessionId, amount: input.amount, description: input.description })
      if (sent === 'created') return { ok: true, refundRef: requestId, providerStatus: 'created' }
      if (sent !== 'exists') return { ok: false, reason: sent }
      // Already sent with this key: the same refund, as P24's list shows it.
      const listed = await client.refunds(t.orderId)
      const same = listed.ok ? listed.refunds.find((r) => r.requestId === requestId) : null
      if (!same) return { ok: false, reason: 'unavailable' }
      return same.status === 4 ? { ok: false, reason: 'refused' } : { ok: true, refundRef: requestId, providerStatus: REFUND_STATUS[same.status] ?? String(same.status) }
    },
  }
}
