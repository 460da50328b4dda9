// Card entry in a provider's hosted fields on the school's own page (issue 25): Braintree, Paylane
// and PayU's Secure Form. The card number, expiry and CVV are typed into the provider's frames or
// tokenised in the browser by the provider's script; our server only ever sees the one-time token.
// Two uses: a checkout payment (`/payments/{provider}/{integrationId}/card/{hash}`: the sale is made
// with the token, then confirmed through the provider's API and settled like a notification) and
// a membership's new card (`/my/membership/card/fields`: the token becomes a card kept at the provider).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { reconcile } from '#app/domain/payment-confirm.ts'
import type { DeclineReason } from '#app/domain/payment-failure.ts'
import { dispatchAppEvents, eventQueues } from '#app/models/app-event.server.ts'
import { getIntegration, type PaymentIntegration } from '#app/models/payment-integration.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { getTransaction, getTransactionByHash, setProviderRef, type Transaction } from '#app/models/transaction.server.ts'
import { afterSale } from '../after-sale.server.ts'
import { applyDecision } from '../notify.server.ts'
import { payuHostedFields } from '../payu-hosted-fields.server.ts'
import { integrationAdapter, integrationCredentials } from '../registry.server.ts'
import { providerModule } from './index.server.ts'
import { providerContext } from './provider-context.server.ts'
import type { HostedFieldsPage, ProviderModule } from './provider-module.server.ts'

export type HostedFields = NonNullable<ProviderModule['hostedFields']>

/** The providers whose cards are typed into hosted fields on our pages. */
export function hostedFieldsFor(provider: string): HostedFields | null {
  if (provider === 'payu') return payuHostedFields
  return providerModule(provider)?.hostedFields ?? null
}

const PROVIDER = /^[a-z][a-z0-9]{1,9}$/
const ID = /^[A-Za-z0-9_-]{1,64}$/

type CardPageParams = { provider?: string; integrationId?: string; hash?: string }

type Loaded = { tx: Transaction; integration: PaymentIntegration; credentials: Record<string, string>; hosted: HostedFields }

/** The pending transaction this card page pays, of this school, provider and integration; null = 404. */
async function load(context: AppLoadContext, tenantId: string, params: CardPageParams): Promise<Loaded | 'not_pending' | null> {
  const { provider = '', integrationId = '', hash = '' } = params
  if (!PROVIDER.test(provider) || !ID.test(integrationId) || !ID.test(hash)) return null
  const hosted = hostedFieldsFor(provider)
  if (!hosted) return null
  const tx = await getTransactionByHash(context.db, tenantId, hash)
  if (!tx || tx.provider !== provider || tx.integrationId !== integrationId) return null
  if (tx.status !== 'pending') return 'not_pending'
  const integration = await getIntegration(context.db, tenantId, integrationId)
  if (!integration || !integration.enabled || integration.provider !== provider) return null
  const credentials = await integrationCredentials(context.cloudflare.env, integration)
  if (!credentials) return null
  return { tx, integration, credentials, hosted }
}

export type CardPage =
  | { kind: 'page'; tx: Transaction; page: HostedFieldsPage }
  | { kind: 'done'; hash: string }
  | { kind: 'unavailable'; tx: Transaction }
  | null

export async function loadCardPage(context: AppLoadContext, tenantId: string, params: CardPageParams, locale: string, origin: string): Promise<CardPage> {
  const loaded = await load(context, tenantId, params)
  if (loaded === 'not_pending') return { kind: 'done', hash: params.hash! }
  if (!loaded) return null
  const page = await loaded.hosted.page(providerContext(context.cloudflare.env, loaded.integration.provider), loaded.credentials, { transaction: loaded.tx, locale, origin }).catch(() => null)
  return page ? { kind: 'page', tx: loaded.tx, page } : { kind: 'unavailable', tx: loaded.tx }
}

export type CardPaymentOutcome =
  | { kind: 'done'; hash: string }
  /** The provider wants the buyer to authenticate first (3-D Secure); it sends them back to the pending page. */
  | { kind: 'redirect'; url: string }
  | { kind: 'declined'; declineReason: DeclineReason | null }
  | { kind: 'unavailable' | 'refused' }
  | null

/**
 * The buyer's token from the fields: the sale at the provider, then — as for a notification — the
 * provider's API decides (order, amount, currency) and settleTransaction applies it once.
 */
export async function payWithHostedToken(context: AppLoadContext, tenantId: string, params: CardPageParams, token: string, request: Request): Promise<CardPaymentOutcome> {
  const loaded = await load(context, tenantId, params)
  if (loaded === 'not_pending') return { kind: 'done', hash: params.hash! }
  if (!loaded) return null
  const { tx, integration, credentials, hosted } = loaded
  const env = context.cloudflare.env
  const origin = new URL(request.url).origin
  const product = tx.productId ? await getProduct(context.db, tenantId, tx.productId) : undefined
  const buyer = JSON.parse(tx.buyer || '{}') as { email?: string; name?: string }
  const paid = await hosted
    .payWithToken(providerContext(env, integration.provider), credentials, {
      transaction: tx,
      token,
      buyer: { email: buyer.email ?? '', name: buyer.name ?? '' },
      notifyUrl: `${origin}/payments/${integration.provider}/${integration.id}/notify`,
      customerIp: request.headers.get('CF-Connecting-IP') ?? '127.0.0.1',
      description: tx.quantity > 1 ? `${tx.productTitle} × ${tx.quantity}` : tx.productTitle,
      storeCard: tx.productKind === 'membership' && (product?.membershipPeriod ?? -1) > 0,
    })
    .catch((error: unknown) => {
      console.error(JSON.stringify({ event: 'hosted_fields_sale_failed', tenantId, transactionId: tx.id, error: String(error) }))
      return { ok: false as const, reason: 'unavailable' as const }
    })
  if (!paid.ok) return paid.reason === 'declined' ? { kind: 'declined', declineReason: paid.declineReason ?? null } : { kind: paid.reason }
  if (paid.providerRef !== tx.providerRef) await setProviderRef(context.db, tenantId, tx.id, { provider: integration.provider, integrationId: integration.id, providerRef: paid.providerRef })
  if (paid.redirectUrl) return { kind: 'redirect', url: paid.redirectUrl }
  const current = (await getTransaction(context.db, tenantId, tx.id)) ?? tx
  const adapter = await integrationAdapter(env, integration)
  if (!adapter) return { kind: 'unavailable' }
  const decision = reconcile(current, await adapter.confirmPayment(paid.providerRef, null), null)
  // No answer now: the pending page and the scheduled re-check ask the provider again.
  if (decision.kind === 'retry') return { kind: 'done', hash: tx.hash }
  const outcome = await applyDecision(context.db, tenantId, current, null, decision)
  if (outcome?.granted) context.cloudflare.ctx.waitUntil(Promise.all([dispatchAppEvents(context.db, eventQueues(env), tenantId), afterSale(context, tenantId, tx.id, origin)]))
  return { kind: 'done', hash: tx.hash }
}
