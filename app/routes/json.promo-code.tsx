// POST /json/promo-code (seed 000 §7 checkout family, seed 001 §8; issue 8 items 1–2): checks a
// promo code for one product of this school, for the signed-in buyer (or a visitor), and answers the
// price the checkout would charge with it. JSON or form body:
//   { code, product: slug or id, price?: variant id, quantity?: 1.., bump?: true | 'on', shipmentType? }
// 200 { valid: true, code, discount, currency, breakdown } (amounts in minor units; breakdown is
// priceOrder() computed by the checkout's own quote()), or 422 { valid: false, message } with the
// seed's texts in the school's language. Another school's product is 404.
//
// A valid code also sets the `promo_code` cookie (Path=/, SameSite=Lax, Secure on https, 30 days)
// so the checkout page prefills it. It is deliberately NOT HttpOnly: the countdown widget clears it
// in the browser when an offer ends (seed 000 §4), and the code is not a secret (the checkout checks
// it again on every submission). Not a `__Host-` name: the widget and the pending page clear it by
// the plain name.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { loadCheckoutOffer, quote, quoteSchema } from '#app/checkout/checkout.server.ts'
import { promoLockoutSeconds, recordPromoFailure } from '#app/checkout/promo.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { checkPromoCode } from '#app/models/promo-code.server.ts'
import { jsonAnswer, readBody } from '#app/storefront/search.server.ts'
import { getCurrentUserOrVerify } from '#app/auth/auth.server.ts'
import { isSecureRequest, serializeCookie } from '#app/utils/cookies.server.ts'
import { actionOnlyLoader, clientIp, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { parseWith } from '#app/utils/validation.ts'

export const PROMO_COOKIE = 'promo_code'
export const PROMO_COOKIE_MAX_AGE = 30 * 24 * 60 * 60

const scalar = z.union([z.string(), z.number(), z.boolean()]).optional()

const RequestSchema = z.object({
  code: z.string().max(200).default(''),
  product: z.string().trim().min(1).max(64),
  price: scalar,
  quantity: scalar,
  bump: scalar,
  shipmentType: z.string().max(20).optional(),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return jsonAnswer({ error: 'method' }, 405)
  const t = getT(request, context)
  const refuse = (key: string, extra: Record<string, unknown> = {}) => jsonAnswer({ valid: false, message: t(key), ...extra }, 422)
  const body = (await readBody(request)) ?? {}
  // Accept the names the checkout form uses as well (promoCode, productId, course_id).
  const parsed = parseWith(RequestSchema, {
    code: body.code ?? body.promoCode ?? body.promo_code,
    product: body.product ?? body.productId ?? body.product_id ?? body.course_id,
    price: body.price ?? body.priceId ?? body.price_id,
    quantity: body.quantity,
    bump: body.bump,
    shipmentType: typeof body.shipmentType === 'string' ? body.shipmentType : undefined,
  })
  if (!parsed.ok) {
    if (parsed.errors.product) notFound()
    return refuse('promo.error.invalid')
  }
  const user = await getCurrentUserOrVerify(request, context)
  const viewer = user ? { id: user.id, role: user.role } : null
  // The product by slug, or by id (then its slug): always this school's published product.
  let offer = await loadCheckoutOffer(context, tenant, parsed.data.product, viewer)
  if (!offer) {
    const byId = await getProduct(context.db, tenant.id, parsed.data.product)
    if (byId) offer = await loadCheckoutOffer(context, tenant, byId.slug, viewer)
  }
  if (!offer) notFound()

  // The same price inputs, and the same validation, as the checkout form.
  const bumpOn = parsed.data.bump === true || parsed.data.bump === 'on' || parsed.data.bump === 'true' || parsed.data.bump === '1' || parsed.data.bump === 1
  const pricing = parseWith(quoteSchema(offer), {
    price: parsed.data.price === undefined ? '' : String(parsed.data.price),
    quantity: parsed.data.quantity === undefined ? '1' : String(parsed.data.quantity),
    ...(bumpOn ? { bump: 'on' } : {}),
    // Physical products: shipping is part of the total (the parcel locker when not said).
    ...(offer.product.kind === 'physical' ? { shipmentType: parsed.data.shipmentType ?? 'parcel_locker' } : {}),
  })
  if (!pricing.ok) {
    const [field, error] = Object.entries(pricing.errors)[0]
    return jsonAnswer({ valid: false, message: t(error.key, error.values), field }, 422)
  }

  const ip = clientIp(request)
  const wait = await promoLockoutSeconds(context, tenant.id, ip, user?.id ?? null)
  if (wait > 0) {
    const throttled = jsonAnswer({ valid: false, message: t('promo.error.throttled', { count: wait }) }, 429)
    throttled.headers.set('Retry-After', String(wait))
    return throttled
  }
  const checked = await checkPromoCode(context.db, tenant.id, { code: parsed.data.code, productId: offer.product.id, userId: user?.id ?? null })
  if (!checked.ok) {
    await recordPromoFailure(context, tenant.id, ip, user?.id ?? null)
    return refuse(`promo.error.${checked.error}`)
  }
  const promo = { kind: checked.promo.kind, value: checked.promo.value }
  const q = quote(offer, pricing.data, promo)
  // An unknown variant id: the checkout would refuse it too.
  if (!q) return jsonAnswer({ valid: false, message: t('validation.invalid'), field: 'price' }, 422)
  const cookie = serializeCookie(PROMO_COOKIE, checked.promo.code, { secure: isSecureRequest(request), httpOnly: false, sameSite: 'Lax', maxAge: PROMO_COOKIE_MAX_AGE })
  const answer = jsonAnswer({
    valid: true,
    code: checked.promo.code,
    kind: checked.promo.kind,
    value: checked.promo.value,
    discount: q.breakdown.discount,
    currency: tenant.currency,
    breakdown: q.breakdown,
  })
  answer.headers.append('Set-Cookie', cookie)
  return answer
}
