// PayU's Secure Form on our card page (issue 25; developers.payu.com "Secure Form", "Card
// Tokenization", "Creating Tokens", "Recurring Payments"): the page loads PayU's SDK
// (https://secure.payu.com/javascript/sdk, sandbox https://secure.snd.payu.com/javascript/sdk; in
// development the PayU peer's /payu/hosted/js/sdk) and our glue (payu-hosted-fields.client.ts),
// which tokenizes the card with type MULTI into a TOK_ in the browser. Here:
// - payWithToken: an order paid with that token (`payMethods.payMethod` CARD_TOKEN) and, for a
//   membership, `recurring: FIRST` — PayU makes the multi-use TOKC_ of it (confirmPayment reads it
//   back). The buyer is `buyer.extCustomerId` = the student. PayU may ask for 3-D Secure
//   (WARNING_CONTINUE_3DS with a redirectUri): the result then carries `redirectUrl` for the buyer.
// - saveCard: a new card without a purchase — PayU: "set the total amount of the order to 0" — with
//   `recurring: FIRST`; the TOKC_, masked number and expiry come back in the order's answer.
import type { PayWithTokenResult, ProviderContext, ProviderModule } from './providers/provider-module.server.ts'
import { storedCardOf } from './payu-adapter.server.ts'
import { payuClient, PAYU_PRODUCTION_URL, PAYU_SANDBOX_URL, type PayuConfig, type PayuOrderInput } from './payu.server.ts'

const SDK_URL = { production: `${PAYU_PRODUCTION_URL}/javascript/sdk`, sandbox: `${PAYU_SANDBOX_URL}/javascript/sdk` }
/** The port of the development platform host when the page does not say (wrangler dev's default). */
const DEV_PORT = '8787'
/** Card attempts one transaction may make (each declined one is an order PayU keeps). */
const MAX_ATTEMPTS = 10

/** The PayU integration's opened credentials as the client's config (the API base from the context: the peer in development). */
export function payuConfigOf(ctx: ProviderContext, credentials: Record<string, string>): PayuConfig {
  return {
    baseUrl: ctx.apiBase(PAYU_PRODUCTION_URL, PAYU_SANDBOX_URL, credentials.sandbox === 'true'),
    posId: credentials.posId ?? '',
    clientId: credentials.clientId ?? '',
    clientSecret: credentials.clientSecret ?? '',
    secondKey: credentials.secondKey ?? '',
    integrationId: credentials.__integrationId,
  }
}

/** The brand a masked number's first digits show (PayU's order answer gives the number, not the brand). */
function brandOfMasked(masked: string | null) {
  if (!masked) return null
  if (masked.startsWith('4')) return 'VISA'
  if (/^(5[1-5]|2[2-7])/.test(masked)) return 'MASTERCARD'
  if (/^(5|6)/.test(masked)) return 'MAESTRO'
  return null
}

type HostedFields = NonNullable<ProviderModule['hostedFields']>

export const payuHostedFields: HostedFields = {
  async page(ctx, credentials, input) {
    const base = ctx.apiBase(PAYU_PRODUCTION_URL, PAYU_SANDBOX_URL, credentials.sandbox === 'true')
    let script: string
    if (base === PAYU_PRODUCTION_URL) script = SDK_URL.production
    else if (base === PAYU_SANDBOX_URL) script = SDK_URL.sandbox
    else {
      // The dev peer's mini SDK on the buyer-facing pay host, on the page's port (like PayU's pay pages).
      const origin = (input as { origin?: string }).origin
      const port = origin ? new URL(origin).port : DEV_PORT
      script = `http://pay.localhost${port ? `:${port}` : ''}/payu/hosted/js/sdk`
    }
    const origin = new URL(script).origin
    if (!credentials.posId) return null
    return {
      scripts: [script],
      origins: { script: [origin], frame: [origin], connect: [origin] },
      // MULTI: the card page serves memberships (the first payment and card updates) — cards PayU keeps.
      config: { posId: credentials.posId, lang: input.locale === 'pl' ? 'pl' : 'en', tokenType: 'MULTI' },
    }
  },

  async payWithToken(ctx, credentials, input): Promise<PayWithTokenResult> {
    const client = payuClient(payuConfigOf(ctx, credentials), ctx.fetch)
    const tx = input.transaction
    const order: PayuOrderInput & { payMethod: { type: 'CARD_TOKEN'; value: string } } = {
      notifyUrl: input.notifyUrl,
      continueUrl: `${new URL(input.notifyUrl).origin}/transaction/${tx.hash}/pending`,
      customerIp: input.customerIp,
      description: input.description,
      currencyCode: tx.currency,
      totalAmount: tx.totalAmount,
      extOrderId: tx.id,
      buyer: { email: input.buyer.email, firstName: input.buyer.name, extCustomerId: tx.userId ?? input.buyer.email },
      products: [{ name: input.description, unitPrice: tx.totalAmount, quantity: 1 }],
      payMethod: { type: 'CARD_TOKEN', value: input.token },
      ...(input.storeCard ? { recurring: 'FIRST' as const } : {}),
    }
    try {
      // Attempts of one transaction are `{tx.id}`, `{tx.id}-2`, …: PayU refuses an extOrderId twice, and
      // a paid or pending attempt answers (never a second charge); after a declined card the buyer
      // tries again under the next one.
      let created: Awaited<ReturnType<typeof client.createTokenOrder>> | null = null
      for (let attempt = 1; attempt <= MAX_ATTEMPTS && !created; attempt++) {
        const extOrderId = attempt === 1 ? tx.id : `${tx.id}-${attempt}`
        const answer = await client.createTokenOrder({ ...order, extOrderId })
        if (answer.ok || answer.reason !== 'not_unique') {
          created = answer
          break
        }
        const earlier = await client.getOrderByExtOrderId(extOrderId)
        if (!earlier) return { ok: false, reason: 'unavailable' }
        if (earlier.status !== 'CANCELED') return { ok: true, providerRef: earlier.orderId }
      }
      if (!created) return { ok: false, reason: 'refused' }
      if (!created.ok) return { ok: false, reason: created.reason === 'unavailable' ? 'unavailable' : 'refused' }
      if (created.statusCode !== 'SUCCESS' && created.redirectUri) {
        // 3-D Secure (or CVV) for the buyer at PayU: the card page sends them there (`redirectUrl`).
        const waiting: PayWithTokenResult & { redirectUrl: string } = { ok: true, providerRef: created.orderId, redirectUrl: created.redirectUri }
        return waiting
      }
      const state = await client.getOrder(created.orderId)
      if (state?.status === 'CANCELED') return { ok: false, reason: 'declined', providerRef: created.orderId }
      return { ok: true, providerRef: created.orderId }
    } catch {
      return { ok: false, reason: 'unavailable' }
    }
  },

  async saveCard(ctx, credentials, input) {
    const client = payuClient(payuConfigOf(ctx, credentials), ctx.fetch)
    try {
      // PayU needs a currency and the buyer's IP on every order; the card page gives neither: the
      // integration's currency (PLN when the credentials do not say) and a placeholder IP.
      const created = await client.createTokenOrder({
        customerIp: '127.0.0.1',
        description: 'Card update',
        currencyCode: (credentials.currency ?? 'PLN').toUpperCase(),
        totalAmount: 0,
        extOrderId: `card-${crypto.randomUUID()}`,
        buyer: { email: input.buyer.email, firstName: input.buyer.name, extCustomerId: input.buyer.email },
        products: [{ name: 'Card update', unitPrice: 0, quantity: 1 }],
        payMethod: { type: 'CARD_TOKEN', value: input.token },
        recurring: 'FIRST',
      })
      if (!created.ok) return { ok: false, reason: created.reason === 'unavailable' ? 'unavailable' : 'refused' }
      if (created.storedCard) return { ok: true, card: storedCardOf({ ...created.storedCard, brand: created.storedCard.brand ?? brandOfMasked(created.storedCard.numberMasked) }) }
      const state = await client.getOrder(created.orderId)
      // Declined by the issuer; or PayU did not make a multi-use token (the POS is not set up for recurring payments).
      return { ok: false, reason: state?.status === 'CANCELED' ? 'declined' : 'refused' }
    } catch {
      return { ok: false, reason: 'unavailable' }
    }
  },
}
