// Placing an order from the one-page checkout (issue 20, ADR 019): who buys (the signed-in user, a
// login in the same submission, or a new student account), the promo code checked again, then the
// transaction (with the recommending partner of the `recommendation` cookie, issue 24) and where
// the buyer goes next. The route parses the form and turns the result into its answer; nothing
// here knows about the response beyond statuses and the session cookie.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { recommendedPartner } from '#app/affiliates/recommendation.server.ts'
import type { CurrentUser } from '#app/auth/auth.server.ts'
import { startSession, VERIFY_PATH } from '#app/auth/auth.server.ts'
import { attemptLogin } from '#app/auth/login.server.ts'
import { notifyOwnersOfNewStudent } from '#app/auth/registration-notice.server.ts'
import { LOGIN_DISABLED, REGISTRATION_DISABLED, loginAllowed, registrationAllowed } from '#app/auth/school-switches.ts'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { collectorOf } from '#app/domain/payment-confirm.ts'
import { dispatchAppEvents, eventQueues, recordRegistration } from '#app/models/app-event.server.ts'
import { getFeeOverride } from '#app/models/fee-settings.server.ts'
import { createTransaction, setProviderRef, settleTransaction, type Transaction } from '#app/models/transaction.server.ts'
import { createUser, getUserByEmail } from '#app/models/user.server.ts'
import { getLoginVerificationMode } from '#app/models/verification.server.ts'
import { afterSale } from '#app/payments/after-sale.server.ts'
import { ensurePlatformStripeWebhooks } from '#app/payments/marketplace.server.ts'
import { PLATFORM_INTEGRATION } from '#app/payments/platform-accounts.server.ts'
import { feeSettingsFor, platformFee, type PromoDiscount } from '#app/payments/pricing.ts'
import { resolveCheckoutProvider } from '#app/payments/registry.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { clientIp, getLocale } from '#app/utils/request.server.ts'
import { platformOrigin } from '#app/utils/school-origin.server.ts'
import { parseWith, type FieldErrors, type FormValues } from '#app/utils/validation.ts'
import { checkoutSchema, defaultCountry, quote, quoteSchema, unavailable, type CheckoutInput, type CheckoutOffer } from './checkout.server.ts'
import { applyPromoCode, promoFieldError, type AppliedPromo } from './promo.server.ts'

/** An accepted code as the page shows it (its id stays on the server). */
export type PublicPromo = { code: string } & PromoDiscount

/**
 * How a submission ends: the form again (its status, field errors, a form-level message, the code
 * last accepted; `mode: 'login'` switches the form to logging in), or a 303 on. Either may carry
 * the session cookie of a buyer who logged in or registered on the way.
 */
export type CheckoutResult =
  | { kind: 'form'; status: number; errors: FieldErrors; formError?: string; promo?: PublicPromo; mode?: 'login'; cookie?: string | null }
  | { kind: 'redirect'; url: string; cookie: string | null }

export type CheckoutSubmission = {
  context: AppLoadContext
  request: Request
  tenant: SchoolTenant
  offer: CheckoutOffer
  user: Pick<CurrentUser, 'id' | 'name' | 'email'> | null
  values: FormValues
}

const publicPromo = (p: AppliedPromo | null) => (p ? { code: p.code, kind: p.kind, value: p.value } : undefined)

/** Sold out or never priced: said clearly, nothing written (checked first by every submission). */
function closed(offer: CheckoutOffer): CheckoutResult | null {
  const why = unavailable(offer)
  return why ? { kind: 'form', status: 409, errors: {}, formError: `checkout.unavailable.${why}` } : null
}

/** "Apply" (promo code): re-price only, nothing written but the throttle's count of wrong codes. */
export async function applyPromo({ context, request, tenant, offer, user, values }: CheckoutSubmission): Promise<CheckoutResult> {
  const refused = closed(offer)
  if (refused) return refused
  const parsed = parseWith(quoteSchema(offer), values)
  if (!parsed.ok) return { kind: 'form', status: 422, errors: parsed.errors }
  if (!parsed.data.promoCode) return { kind: 'form', status: 200, errors: {} }
  const promo = await applyPromoCode(context, tenant.id, { code: parsed.data.promoCode, productId: offer.product.id, userId: user?.id ?? null, ip: clientIp(request) })
  if (!promo.ok) return { kind: 'form', status: promo.error === 'throttled' ? 429 : 422, errors: { promoCode: promoFieldError(promo) } }
  return { kind: 'form', status: 200, errors: {}, promo: publicPromo(promo.promo) }
}

/** The order itself: the form checked, the buyer signed in or registered, the code re-checked, the transaction written. */
export async function placeOrder({ context, request, tenant, offer, user, values }: CheckoutSubmission): Promise<CheckoutResult> {
  const refused = closed(offer)
  if (refused) return refused
  const parsed = parseWith(checkoutSchema(offer, !!user, defaultCountry(tenant), tenant.simplifiedCheckout), values)
  if (!parsed.ok) return { kind: 'form', status: 422, errors: parsed.errors }
  const input = parsed.data
  if (!quote(offer, input, null)) return { kind: 'form', status: 422, errors: { price: { key: 'validation.in' } } }

  let buyer = user ? { userId: user.id, name: user.name, email: user.email } : null
  let cookie: string | null = null
  if (!buyer && input.mode === 'login') {
    // An existing account logs in right here (the same throttled check as /login).
    const result = await attemptLogin({
      limits: context,
      scope: tenant.id,
      email: input.email!,
      password: input.password!,
      ip: clientIp(request),
      findAccount: () => getUserByEmail(context.db, tenant.id, input.email!),
    })
    if (!result.ok) return { kind: 'form', status: result.error.key === 'auth.login.throttled' ? 429 : 401, errors: { password: result.error } }
    // "Login temporarily disabled" (issue 23) keeps students out here as on /login.
    if (!loginAllowed(tenant, result.account.role)) return { kind: 'form', status: 403, errors: { email: LOGIN_DISABLED } }
    cookie = await startSession(request, context, result.account.id)
    // A school that asks for a login code: verify first, then come back to this checkout.
    if (result.account.role === 'student' && (await getLoginVerificationMode(context.control, tenant.id)) !== 'off') {
      return { kind: 'redirect', url: `${VERIFY_PATH}?redirectTo=${encodeURIComponent(`/${offer.product.slug}/checkout`)}`, cookie }
    }
    buyer = { userId: result.account.id, name: result.account.name, email: result.account.email }
  }

  let promo: AppliedPromo | null = null
  if (input.promoCode) {
    const checked = await applyPromoCode(context, tenant.id, { code: input.promoCode, productId: offer.product.id, userId: buyer?.userId ?? null, ip: clientIp(request) })
    if (!checked.ok) return { kind: 'form', status: checked.error === 'throttled' ? 429 : 422, errors: { promoCode: promoFieldError(checked) }, cookie }
    promo = checked.promo
  }

  if (!buyer) {
    // A visitor gets a student account in the same step; an existing address must log in.
    // The simplified checkout asks no password: the account gets one nobody knows, and the buyer
    // sets their own with "forgot password" (the session started here lets them in meanwhile).
    if (!registrationAllowed(tenant)) return { kind: 'form', status: 403, errors: { email: REGISTRATION_DISABLED } }
    const password = tenant.simplifiedCheckout ? unguessablePassword() : input.password!
    const created = await createUser(context.db, tenant.id, { name: input.name, email: input.email!, passwordHash: await hashPassword(password), role: 'student' })
    if (!created) return { kind: 'form', status: 409, errors: { email: { key: 'checkout.error.account_exists' } }, mode: 'login' }
    buyer = { userId: created.id, name: created.name, email: created.email }
    await recordRegistration(context, tenant.id, created)
    await notifyOwnersOfNewStudent(context, tenant, created)
    cookie = await startSession(request, context, created.id)
  }
  const outcome = await writeOrder(context, request, tenant, offer, input, buyer, promo)
  if (outcome.kind === 'redirect') return { kind: 'redirect', url: outcome.url, cookie }
  if (outcome.kind === 'field') return { kind: 'form', status: 422, errors: { [outcome.field]: { key: outcome.key } }, promo: publicPromo(promo), cookie }
  return { kind: 'form', status: outcome.key === 'checkout.error.no_provider' ? 409 : 502, errors: {}, formError: outcome.key, promo: publicPromo(promo), cookie }
}

type WriteOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'error'; key: 'checkout.error.transaction' | 'checkout.error.no_provider' }
  | { kind: 'field'; field: 'integration'; key: 'checkout.error.method' }
  /** Przelewy24 refused the BLIK code typed in the checkout (issue 25): the buyer types a new one. */
  | { kind: 'field'; field: 'blik_code'; key: 'payments.p24.blik.refused' | 'payments.p24.blik.invalid_format' }

/** Write the transaction and send the buyer on: to the pending page (nothing to pay) or the provider's page. */
async function writeOrder(
  context: AppLoadContext,
  request: Request,
  tenant: SchoolTenant,
  offer: CheckoutOffer,
  input: CheckoutInput,
  buyer: { userId: string; name: string; email: string },
  promo: AppliedPromo | null,
): Promise<WriteOutcome> {
  const q = quote(offer, input, promo)
  if (!q) return { kind: 'error', key: 'checkout.error.transaction' }
  const { breakdown } = q
  const now = Date.now()
  const origin = new URL(request.url).origin
  const provider = breakdown.total > 0 ? await resolveCheckoutProvider(context, tenant.id, tenant.currency, input.integration || null) : null
  if (breakdown.total > 0 && !provider) return input.integration ? { kind: 'field', field: 'integration', key: 'checkout.error.method' } : { kind: 'error', key: 'checkout.error.no_provider' }
  // The platform's Stripe webhooks exist before its first marketplace sale (created once, ADR 023).
  if (provider?.integration.id === PLATFORM_INTEGRATION.stripe) {
    const hooks = await ensurePlatformStripeWebhooks(context, platformOrigin(context.cloudflare.env))
    if (!hooks.ok) console.warn(JSON.stringify({ event: 'platform_webhooks_unavailable', tenantId: tenant.id, reason: hooks.reason }))
  }
  const fee = platformFee(breakdown.total, feeSettingsFor(tenant.currency, (await getFeeOverride(context.control, tenant.id)) ?? { feeBasisPoints: null, feeFixed: null }))
  const p = offer.product
  const address = { address: input.address, postalCode: input.postalCode, city: input.city, country: input.country }
  // The partner who recommended the sale (issue 24): the buyer's `recommendation` cookie, if it is
  // well-formed, unexpired and names an active partner of this school.
  const affiliatePartnerId = await recommendedPartner(context.db, tenant.id, request, now)
  const tx: Transaction = await createTransaction(context.db, tenant.id, {
    userId: buyer.userId,
    productId: p.id,
    priceId: q.priceId,
    productKind: p.kind,
    productTitle: p.title,
    quantity: breakdown.quantity,
    currency: tenant.currency,
    unitAmount: breakdown.unitAmount,
    discountAmount: breakdown.discount,
    bumpProductId: input.bump === 'on' && offer.bump ? offer.bump.productId : null,
    bumpAmount: breakdown.bump,
    shippingAmount: breakdown.shipping,
    totalAmount: breakdown.total,
    vatAmount: breakdown.vat,
    feeAmount: fee,
    promoCodeId: promo?.id ?? null,
    promoPriceApplied: offer.promo && (q.priceId === null || q.priceId === offer.prices[0]?.id),
    buyer: JSON.stringify({ name: buyer.name, email: buyer.email }),
    invoiceDetails:
      input.invoice === 'none' ? null : JSON.stringify({ type: input.invoice, name: buyer.name, companyName: input.companyName || undefined, vatNumber: input.vatNumber || undefined, ...address }),
    shipping:
      p.kind === 'physical'
        ? JSON.stringify(input.shipmentType === 'parcel_locker' ? { shipmentType: 'parcel_locker', parcelLockerCode: input.parcelLockerCode.toUpperCase() } : { shipmentType: 'courier', ...address })
        : null,
    termsAcceptedAt: now,
    withdrawalWaiverAt: input.waiver === 'on' ? now : null,
    checkoutPath: `/${p.slug}/checkout`,
    // Who will hold the money: the platform's own account, the school's, or split at the provider (ADR 023).
    collector: provider?.collector ?? collectorOf(null),
    payoutAccountId: provider?.split?.payoutAccountId ?? null,
    affiliatePartnerId,
  })
  const pending = `/transaction/${tx.hash}/pending`
  if (!provider) {
    // Nothing to pay (free product or a 100 % code): access at once, in the same exactly-once batch.
    const settled = await settleTransaction(context.db, tenant.id, tx.id, { event: null, status: 'completed' })
    if (settled?.granted) context.cloudflare.ctx.waitUntil(Promise.all([dispatchAppEvents(context.db, eventQueues(context.cloudflare.env), tenant.id), afterSale(context, tenant.id, tx.id, origin)]))
    return { kind: 'redirect', url: pending }
  }
  let started: Awaited<ReturnType<typeof provider.adapter.startPayment>>
  try {
    started = await provider.adapter.startPayment({
      transaction: tx,
      buyer: { name: buyer.name, email: buyer.email },
      origin,
      continueUrl: `${origin}${pending}`,
      notifyUrl: `${origin}/payments/${provider.integration.provider}/${provider.integration.id}/notify`,
      customerIp: request.headers.get('CF-Connecting-IP') ?? '127.0.0.1',
      description: breakdown.quantity > 1 ? `${p.title} × ${breakdown.quantity}` : p.title,
      // A membership with a period renews through the provider's subscription where it has one (Stripe).
      mode: p.kind === 'membership' && (p.membershipPeriod ?? -1) > 0 ? 'subscription' : 'payment',
      intervalMonths: p.membershipPeriod ?? undefined,
      split: provider.split ? { destination: provider.split.destination } : undefined,
      // Providers that renew by a stored card token keep the card from this first payment (issue 25).
      storeCard: p.kind === 'membership' && (p.membershipPeriod ?? -1) > 0,
      blikCode: provider.integration.provider === 'p24' && input.blik_code ? input.blik_code : undefined,
      locale: getLocale(request, context),
    })
  } catch (error) {
    console.error(JSON.stringify({ event: 'checkout_start_payment_failed', tenantId: tenant.id, transactionId: tx.id, error: String(error) }))
    started = { ok: false, reason: 'unavailable' }
  }
  if (!started.ok) {
    await settleTransaction(context.db, tenant.id, tx.id, { event: null, status: 'failed' })
    if (started.detail === 'blik_code_refused') return { kind: 'field', field: 'blik_code', key: 'payments.p24.blik.refused' }
    if (started.detail === 'blik_code_format') return { kind: 'field', field: 'blik_code', key: 'payments.p24.blik.invalid_format' }
    return { kind: 'error', key: 'checkout.error.transaction' }
  }
  await setProviderRef(context.db, tenant.id, tx.id, { provider: provider.integration.provider, integrationId: provider.integration.id, providerRef: started.providerRef })
  return { kind: 'redirect', url: started.redirectUrl }
}

function unguessablePassword() {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The checkout form's answer when it comes back (never carries the password). */
export type CheckoutAnswer = { errors: FieldErrors; values: FormValues; formError?: string; promo?: PublicPromo }
