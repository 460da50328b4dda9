// The PayPal adapter (issue 25), per PayPal's REST docs (developer.paypal.com):
// - Orders v2: POST /v2/checkout/orders (intent CAPTURE, purchase_units[0] custom_id/invoice_id/amount,
//   payment_source.paypal.experience_context) → the `payer-action` link; PayPal does not capture on
//   approval, so confirmPayment reads the order and, when APPROVED, captures it
//   (POST …/{id}/capture, PayPal-Request-Id = the order id, so a replayed notification does not capture twice).
// - Vault "save PayPal during purchase": attributes.vault {store_in_vault ON_SUCCESS, usage_type MERCHANT};
//   the vault id comes back in payment_source.paypal.attributes.vault.id of the captured order. Renewals
//   are orders with payment_source.paypal.vault_id (merchant-initiated), PayPal-Request-Id = our key.
// - Webhooks: every event is checked with POST /v1/notifications/verify-webhook-signature (the PAYPAL-*
//   headers, our webhook id and the event as received); anything but SUCCESS is not from PayPal.
// - Payments v2: POST /v2/payments/captures/{id}/refund with PayPal-Request-Id.
// - Payment Method Tokens v3: setup token (payer approves) → payment token = the new vault id.
import { z } from 'zod'
import type { PaymentEvent } from '#app/models/transaction.server.ts'
import type { DeclineReason } from '#app/domain/payment-failure.ts'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import type { CardUpdateCapable, PaymentAdapter, ProviderPaymentState, RefundCapable, StartPaymentInput, StoredCard, StoredCardCapable } from '../../provider.server.ts'
import type { ProviderContext } from '../provider-module.server.ts'
import {
  approvalLink,
  fromPaypalValue,
  issueOf,
  orderSchema,
  paymentTokenSchema,
  paypalClient,
  refundSchema,
  setupTokenSchema,
  toPaypalValue,
  verifySchema,
  type PaypalCredentials,
  type PaypalOrder,
} from './client.server.ts'

/** The events the webhook created at connect listens for. */
export const PAYPAL_EVENT_TYPES = ['CHECKOUT.ORDER.APPROVED', 'PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.PENDING', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.REFUNDED'] as const

/** PayPal's limits: custom_id and invoice_id 127, description 127 characters. */
const cut = (text: string, max = 127) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const paypalLocale = (locale: string | undefined) => (locale?.startsWith('pl') ? 'pl-PL' : 'en-US')

const notificationHeaders = z.object({
  'paypal-auth-algo': z.string().min(1),
  'paypal-cert-url': z.string().url(),
  'paypal-transmission-id': z.string().min(1),
  'paypal-transmission-sig': z.string().min(1),
  'paypal-transmission-time': z.string().min(1),
})
const webhookEvent = z
  .object({
    id: z.string().min(1),
    event_type: z.string().min(1),
    resource: z
      .object({
        id: z.string().optional(),
        status: z.string().optional(),
        supplementary_data: z
          .object({ related_ids: z.object({ order_id: z.string().optional() }).passthrough() })
          .partial()
          .optional(),
      })
      .passthrough(),
  })
  .passthrough()

/** What a capture event claims (confirmPayment decides). */
const CAPTURE_EVENTS: Record<string, TransactionStatus | null> = {
  'PAYMENT.CAPTURE.COMPLETED': 'completed',
  'PAYMENT.CAPTURE.PENDING': null,
  'PAYMENT.CAPTURE.DENIED': 'failed',
  'PAYMENT.CAPTURE.REFUNDED': 'refunded',
}

/** A declined funding source (INSTRUMENT_DECLINED and kin) in the seed's words. */
function declineOf(issue: string): DeclineReason {
  if (issue === 'INSTRUMENT_DECLINED' || issue === 'TRANSACTION_REFUSED' || issue === 'PAYER_CANNOT_PAY') return 'sale_error'
  if (issue === 'RESOURCE_NOT_FOUND' || issue === 'INVALID_RESOURCE_ID') return 'card_invalid'
  return 'payment_failed'
}

function captureOf(order: PaypalOrder) {
  return order.purchase_units?.[0]?.payments?.captures?.[0] ?? null
}

/** The captured (else ordered) amount as PayPal recorded it, in minor units. */
function amountOf(order: PaypalOrder) {
  const money = captureOf(order)?.amount ?? order.purchase_units?.[0]?.amount
  const amount = money ? fromPaypalValue(money.value) : null
  return { amount, currency: money?.currency_code ?? null }
}

function storedCardOf(order: PaypalOrder): StoredCard | null {
  const vault = order.payment_source?.paypal?.attributes?.vault
  if (!vault?.id || (vault.status && vault.status !== 'VAULTED')) return null
  // A PayPal wallet has no card number: the student sees "PayPal".
  return { token: vault.id, brand: 'PayPal', last4: null, expMonth: null, expYear: null }
}

/** The order's state in our words; a COMPLETED order is decided by its capture. */
function stateOf(order: PaypalOrder): ProviderPaymentState {
  const { amount, currency } = amountOf(order)
  const base = { ok: true as const, providerRef: order.id, amount, currency, card: storedCardOf(order) }
  if (order.status !== 'COMPLETED') {
    const status: TransactionStatus | null = order.status === 'VOIDED' ? 'canceled' : null
    return { ...base, status, providerStatus: order.status }
  }
  const capture = captureOf(order)
  const captureStatus = capture?.status ?? 'COMPLETED'
  const status: TransactionStatus | null =
    captureStatus === 'COMPLETED' || captureStatus === 'PARTIALLY_REFUNDED'
      ? 'completed'
      : captureStatus === 'REFUNDED'
      ? 'refunded'
      : captureStatus === 'DECLINED' || captureStatus === 'FAILED'
      ? 'failed'
      : null
  return { ...base, status, providerStatus: `COMPLETED/${captureStatus}`, ...(status === 'failed' ? { declineReason: 'sale_error' as const } : {}) }
}

export type PaypalAdapter = PaymentAdapter & RefundCapable & StoredCardCapable & CardUpdateCapable

export function paypalAdapter(ctx: ProviderContext, credentials: PaypalCredentials): PaypalAdapter {
  const client = paypalClient(ctx, credentials)

  async function getOrder(id: string) {
    return client.call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`, orderSchema)
  }

  /** Captures an APPROVED order once: the order id as PayPal-Request-Id, and an already captured order is read again. */
  async function capture(id: string, requestId: string): Promise<ProviderPaymentState> {
    const captured = await client.call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, orderSchema, { json: {}, requestId })
    if (captured.ok) return stateOf(captured.body)
    if (captured.kind === 'unavailable') return { ok: false, reason: 'unavailable' }
    const issue = issueOf(captured)
    if (issue === 'ORDER_ALREADY_CAPTURED') {
      const again = await getOrder(id)
      return again.ok ? stateOf(again.body) : { ok: false, reason: 'unavailable' }
    }
    if (captured.status === 404) return { ok: false, reason: 'not_found' }
    if (issue === 'INSTRUMENT_DECLINED' || issue === 'TRANSACTION_REFUSED' || issue === 'PAYER_CANNOT_PAY' || issue === 'PAYER_ACCOUNT_RESTRICTED') {
      // The payer's money was refused: the payment ends failed (a new checkout starts a new order).
      const order = await getOrder(id)
      const { amount, currency } = order.ok ? amountOf(order.body) : { amount: null, currency: null }
      return { ok: true, providerRef: id, status: 'failed', providerStatus: `APPROVED/${issue}`, amount, currency, declineReason: declineOf(issue) }
    }
    // ORDER_NOT_APPROVED (the payer has not approved yet) and the like: still pending.
    if (captured.status === 422) {
      const order = await getOrder(id)
      if (!order.ok) return { ok: false, reason: 'unavailable' }
      const state = stateOf(order.body)
      return state.ok ? { ...state, providerStatus: `${order.body.status}/${issue}` } : state
    }
    return { ok: false, reason: 'unavailable' }
  }

  return {
    provider: 'paypal',

    async startPayment(input: StartPaymentInput) {
      const tx = input.transaction
      const body = {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: 'default',
            custom_id: cut(tx.id),
            invoice_id: cut(tx.hash),
            description: cut(input.description),
            amount: { currency_code: tx.currency.toUpperCase(), value: toPaypalValue(tx.totalAmount) },
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              return_url: input.continueUrl,
              // Canceling leads to the same page: the transaction is still pending there and can be paid again.
              cancel_url: input.continueUrl,
              locale: paypalLocale(input.locale),
              user_action: 'PAY_NOW',
              shipping_preference: 'NO_SHIPPING',
            },
            ...(input.storeCard ? { attributes: { vault: { store_in_vault: 'ON_SUCCESS', usage_type: 'MERCHANT' } } } : {}),
          },
        },
      }
      // The same transaction started twice (a double submit) gets the same order.
      const created = await client.call('POST', '/v2/checkout/orders', orderSchema, { json: body, requestId: `order-${tx.id}` })
      if (!created.ok) return created.kind === 'unavailable' ? { ok: false, reason: 'unavailable' } : { ok: false, reason: 'refused', detail: issueOf(created) }
      const redirectUrl = approvalLink(created.body.links)
      if (!redirectUrl) return { ok: false, reason: 'refused', detail: `no approval link (${created.body.status})` }
      return { ok: true, redirectUrl, providerRef: created.body.id }
    },

    async readNotification(request, rawBody) {
      if (!credentials.webhookId) return null
      const headers = notificationHeaders.safeParse(
        Object.fromEntries(
          ['paypal-auth-algo', 'paypal-cert-url', 'paypal-transmission-id', 'paypal-transmission-sig', 'paypal-transmission-time'].map((h) => [h, request.headers.get(h) ?? undefined]),
        ),
      )
      if (!headers.success) return null
      let raw: unknown
      try {
        raw = JSON.parse(rawBody)
      } catch {
        return null
      }
      const event = webhookEvent.safeParse(raw)
      if (!event.success) return null
      const h = headers.data
      // PayPal checks the event as it was sent: the parsed body, never our zod-trimmed copy.
      const verified = await client.call('POST', '/v1/notifications/verify-webhook-signature', verifySchema, {
        json: {
          auth_algo: h['paypal-auth-algo'],
          cert_url: h['paypal-cert-url'],
          transmission_id: h['paypal-transmission-id'],
          transmission_sig: h['paypal-transmission-sig'],
          transmission_time: h['paypal-transmission-time'],
          webhook_id: credentials.webhookId,
          webhook_event: raw,
        },
      })
      if (!verified.ok || verified.body.verification_status !== 'SUCCESS') return null
      const e = event.data
      const eventOf = (providerStatus: string, status: TransactionStatus | null): PaymentEvent => ({ provider: 'paypal', eventKey: e.id, providerStatus, status })
      if (e.event_type === 'CHECKOUT.ORDER.APPROVED') {
        // Approval is not payment: confirmPayment captures, and the capture decides.
        return e.resource.id ? { providerRef: e.resource.id, event: eventOf(e.event_type, null) } : 'ignored'
      }
      if (e.event_type in CAPTURE_EVENTS) {
        const orderId = e.resource.supplementary_data?.related_ids?.order_id
        return orderId ? { providerRef: orderId, event: eventOf(e.event_type, CAPTURE_EVENTS[e.event_type]!) } : 'ignored'
      }
      return 'ignored'
    },

    async confirmPayment(providerRef) {
      const order = await getOrder(providerRef)
      if (!order.ok) return order.kind === 'error' && order.status === 404 ? { ok: false, reason: 'not_found' } : { ok: false, reason: 'unavailable' }
      if (order.body.status === 'APPROVED') return capture(order.body.id, order.body.id)
      return stateOf(order.body)
    },

    async refund(input) {
      const order = await getOrder(input.providerRef)
      if (!order.ok) return { ok: false, reason: order.kind === 'unavailable' ? 'unavailable' : 'refused' }
      const captured = captureOf(order.body)
      if (!captured) return { ok: false, reason: 'refused' }
      const refunded = await client.call('POST', `/v2/payments/captures/${encodeURIComponent(captured.id)}/refund`, refundSchema, {
        json: { amount: { currency_code: input.currency.toUpperCase(), value: toPaypalValue(input.amount) }, note_to_payer: cut(input.description, 255) },
        requestId: input.idempotencyKey,
      })
      if (!refunded.ok) return { ok: false, reason: refunded.kind === 'unavailable' ? 'unavailable' : 'refused' }
      return { ok: true, refundRef: refunded.body.id, providerStatus: refunded.body.status }
    },

    async chargeStoredCard(input) {
      const created = await client.call('POST', '/v2/checkout/orders', orderSchema, {
        json: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: 'default',
              custom_id: cut(input.idempotencyKey),
              invoice_id: cut(input.idempotencyKey),
              description: cut(input.description),
              amount: { currency_code: input.currency.toUpperCase(), value: toPaypalValue(input.amount) },
            },
          ],
          payment_source: { paypal: { vault_id: input.token } },
        },
        requestId: input.idempotencyKey,
      })
      if (!created.ok) {
        if (created.kind === 'unavailable' || created.status === 401) return { ok: false, reason: 'unavailable' }
        const issue = issueOf(created)
        return { ok: false, reason: 'card_declined', declineReason: declineOf(issue) }
      }
      let state: ProviderPaymentState = stateOf(created.body)
      // Some accounts answer APPROVED for a vaulted payer: capture it, once per key.
      if (created.body.status === 'APPROVED') state = await capture(created.body.id, `${input.idempotencyKey}-capture`)
      if (!state.ok || state.status === null || state.status === 'waiting') return { ok: false, reason: 'unavailable', providerRef: created.body.id }
      if (state.status !== 'completed' || state.amount === null || state.currency === null) {
        return { ok: false, reason: 'card_declined', declineReason: state.declineReason ?? 'sale_error', providerRef: created.body.id }
      }
      return { ok: true, providerRef: created.body.id, providerStatus: state.providerStatus, amount: state.amount, currency: state.currency }
    },

    cardUpdate: {
      async start(input) {
        const created = await client.call('POST', '/v3/vault/setup-tokens', setupTokenSchema, {
          json: {
            payment_source: {
              paypal: {
                usage_type: 'MERCHANT',
                usage_pattern: 'SUBSCRIPTION_PREPAID',
                description: cut(`Membership ${input.reference}`),
                experience_context: {
                  return_url: input.returnUrl,
                  cancel_url: input.cancelUrl,
                  locale: paypalLocale(input.locale),
                  shipping_preference: 'NO_SHIPPING',
                  vault_instruction: 'ON_PAYER_APPROVAL',
                },
              },
            },
          },
          requestId: `setup-${input.reference}-${Date.now()}`,
        })
        if (!created.ok) return { ok: false, reason: created.kind === 'unavailable' ? 'unavailable' : 'refused' }
        const redirectUrl = created.body.links?.find((l) => l.rel === 'approve')?.href
        if (!redirectUrl) return { ok: false, reason: 'refused' }
        return { ok: true, redirectUrl, ref: created.body.id }
      },
      async complete({ ref, query }) {
        // PayPal sends the payer back with the setup token's id; another id is not this update.
        const returned = query.get('approval_token_id')
        if (returned && returned !== ref) return { ok: false, reason: 'refused' }
        const vaulted = await client.call('POST', '/v3/vault/payment-tokens', paymentTokenSchema, { json: { payment_source: { token: { id: ref, type: 'SETUP_TOKEN' } } }, requestId: `vault-${ref}` })
        if (!vaulted.ok) {
          if (vaulted.kind === 'unavailable') return { ok: false, reason: 'unavailable' }
          return { ok: false, reason: vaulted.status === 422 ? 'declined' : 'refused' }
        }
        return { ok: true, card: { token: vaulted.body.id, brand: 'PayPal', last4: null, expMonth: null, expYear: null } }
      },
    },
  }
}
