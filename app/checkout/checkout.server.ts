// One-page checkout (issue 8 item 1, ADR 019): what the page offers and what a submission does.
// The price is always computed here with priceOrder(); nothing the browser sends about money is
// trusted. Bad input answers field errors and writes nothing.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import type { Product } from '#app/db/schema.server.ts'
import { getFeeOverride } from '#app/models/fee-settings.server.ts'
import { effectivePrice, listPrices, type ProductPrice } from '#app/models/product-price.server.ts'
import { getProductPage } from '#app/models/storefront.server.ts'
import { createTransaction, setProviderRef, settleTransaction, type Transaction } from '#app/models/transaction.server.ts'
import { dispatchAppEvents } from '#app/models/app-event.server.ts'
import { feeSettingsFor, platformFee, priceOrder, QUANTITY_MAX, type PriceBreakdown } from '#app/payments/pricing.ts'
import { resolveCheckoutProvider } from '#app/payments/registry.server.ts'
import type { SchoolTenant } from '#app/utils/site.server.ts'
import { email, msg, text } from '#app/utils/validation.ts'

/** Digital content: the EU withdrawal-waiver consent is required (Directive 2011/83/EU art. 16(m)). */
export const DIGITAL_KINDS: ReadonlyArray<Product['kind']> = ['course', 'bundle', 'membership', 'file', 'live_event']

/** Seed 001 §8: international format or empty, letters and digits only (e.g. PL1234567890). */
export const VAT_NUMBER = /^[A-Z]{2}[A-Z0-9]{2,13}$/
/** Seed 001 §8: Polish postal code 12-345. */
export const PL_POSTAL_CODE = /^\d{2}-\d{3}$/

export type CheckoutOffer = {
  product: Product
  prices: Array<{ id: string; name: string; amount: number }>
  promo: boolean
  lowestPrice30Days: number | null
}

export async function loadCheckoutOffer(context: AppLoadContext, tenant: SchoolTenant, slug: string, viewer: { id: string; role: 'owner' | 'admin' | 'student' } | null): Promise<(CheckoutOffer & { hasAccess: boolean }) | null> {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 60) return null
  const page = await getProductPage(context.db, tenant.id, slug, { viewer, mediaOrigin: '', currency: tenant.currency })
  if (!page) return null
  const rows = await listPrices(context.db, tenant.id, page.product.id)
  return { product: page.product, prices: unitPrices(page.product, rows), promo: !!page.offer.promo, lowestPrice30Days: page.offer.lowestPrice30Days, hasAccess: page.offer.hasAccess }
}

/** Each variant's price now: the promotion applies to the main (first) variant only. */
export function unitPrices(product: Product, rows: ProductPrice[], now = Date.now()) {
  if (product.isFree) return [{ id: 'free', name: '', amount: 0 }]
  const main = effectivePrice(product, rows, now)
  return rows.map((r, i) => ({ id: r.id, name: r.name, amount: i === 0 && main ? main.amount : r.amount }))
}

const checkbox = z.literal('on', { errorMap: () => ({ message: msg('checkout.error.required_consent') }) })
const optionalText = (max: number) => z.string().trim().max(max).optional().default('')

/** The form, for one product (its kind decides which parts are required). */
export function checkoutSchema(product: Product, signedIn: boolean, country: string) {
  return z
    .object({
      price: z.string().max(64).default(''),
      quantity: z.coerce
        .number({ invalid_type_error: msg('checkout.error.quantity', { max: QUANTITY_MAX }) })
        .int(msg('checkout.error.quantity', { max: QUANTITY_MAX }))
        .min(1, msg('checkout.error.quantity', { max: QUANTITY_MAX }))
        .max(product.kind === 'course' ? QUANTITY_MAX : 1, msg('checkout.error.quantity', { max: product.kind === 'course' ? QUANTITY_MAX : 1 }))
        .default(1),
      name: signedIn ? optionalText(70) : text({ max: 70 }),
      email: signedIn ? z.string().optional() : email(),
      password: signedIn ? z.string().optional() : z.string().min(6, msg('validation.password_min', { count: 6 })).max(200),
      invoice: z.enum(['none', 'person', 'company']).default('none'),
      companyName: optionalText(150),
      vatNumber: z
        .string()
        .trim()
        .transform((v) => v.replace(/[\s-]/g, '').toUpperCase())
        .refine((v) => v === '' || VAT_NUMBER.test(v), { message: msg('checkout.error.vat') })
        .optional()
        .default(''),
      address: optionalText(150),
      postalCode: optionalText(12),
      city: optionalText(70),
      shipmentType: product.kind === 'physical' ? z.enum(['parcel_locker', 'courier']) : z.string().optional(),
      parcelLockerCode: optionalText(20),
      terms: checkbox,
      waiver: DIGITAL_KINDS.includes(product.kind) ? checkbox : z.string().optional(),
    })
    .superRefine((v, ctx) => {
      const needsAddress = v.invoice !== 'none' || (product.kind === 'physical' && v.shipmentType === 'courier')
      const required = (path: string) => ctx.addIssue({ code: 'custom', path: [path], message: msg('validation.required') })
      if (v.invoice === 'company') {
        if (!v.companyName) required('companyName')
        if (!v.vatNumber) required('vatNumber')
      }
      if (needsAddress) {
        if (!v.address) required('address')
        if (!v.city) required('city')
        if (!v.postalCode) required('postalCode')
      }
      if (v.postalCode && country === 'PL' && !PL_POSTAL_CODE.test(v.postalCode)) ctx.addIssue({ code: 'custom', path: ['postalCode'], message: msg('checkout.error.postal_code') })
      if (product.kind === 'physical' && v.shipmentType === 'parcel_locker' && !/^[A-Z0-9]{3,20}$/i.test(v.parcelLockerCode)) {
        ctx.addIssue({ code: 'custom', path: ['parcelLockerCode'], message: msg('checkout.error.locker') })
      }
    })
}

export type CheckoutInput = z.output<ReturnType<typeof checkoutSchema>>

export function quote(offer: CheckoutOffer, input: Pick<CheckoutInput, 'price' | 'quantity' | 'shipmentType'>): { breakdown: PriceBreakdown; priceId: string | null } | null {
  const chosen = offer.prices.find((p) => p.id === input.price) ?? offer.prices[0]
  if (!chosen) return null
  const p = offer.product
  const shipping = p.kind === 'physical' ? ((input.shipmentType === 'parcel_locker' ? p.shippingLockerPrice : p.shippingCourierPrice) ?? 0) : 0
  return { breakdown: priceOrder({ unitAmount: chosen.amount, quantity: input.quantity, vatRate: p.vatRate, shipping }), priceId: chosen.id === 'free' ? null : chosen.id }
}

export type StartOutcome = { kind: 'redirect'; url: string } | { kind: 'error'; key: 'checkout.error.transaction' | 'checkout.error.no_provider' }

/** Write the transaction and send the buyer on: to the pending page (free) or the provider's page. */
export async function placeOrder(
  context: AppLoadContext,
  request: Request,
  tenant: SchoolTenant,
  offer: CheckoutOffer,
  input: CheckoutInput,
  buyer: { userId: string; name: string; email: string },
): Promise<StartOutcome> {
  const q = quote(offer, input)
  if (!q) return { kind: 'error', key: 'checkout.error.transaction' }
  const { breakdown } = q
  const now = Date.now()
  const origin = new URL(request.url).origin
  const provider = breakdown.total > 0 ? await resolveCheckoutProvider(context, tenant.id, tenant.currency) : null
  if (breakdown.total > 0 && !provider) return { kind: 'error', key: 'checkout.error.no_provider' }
  const fee = platformFee(breakdown.total, feeSettingsFor(tenant.currency, (await getFeeOverride(context.db, tenant.id)) ?? { feeBasisPoints: null, feeFixed: null }))
  const p = offer.product
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
    shippingAmount: breakdown.shipping,
    totalAmount: breakdown.total,
    vatAmount: breakdown.vat,
    feeAmount: fee,
    promoPriceApplied: offer.promo && (q.priceId === null || q.priceId === offer.prices[0]?.id),
    buyer: JSON.stringify({ name: buyer.name, email: buyer.email }),
    invoiceDetails:
      input.invoice === 'none'
        ? null
        : JSON.stringify({ type: input.invoice, name: buyer.name, companyName: input.companyName || undefined, vatNumber: input.vatNumber || undefined, address: input.address, city: input.city, postalCode: input.postalCode, country: tenant.language === 'pl' ? 'PL' : '' }),
    shipping:
      p.kind === 'physical'
        ? JSON.stringify(
            input.shipmentType === 'parcel_locker'
              ? { shipmentType: 'parcel_locker', parcelLockerCode: input.parcelLockerCode.toUpperCase() }
              : { shipmentType: 'courier', address: input.address, postalCode: input.postalCode, city: input.city },
          )
        : null,
    termsAcceptedAt: now,
    withdrawalWaiverAt: DIGITAL_KINDS.includes(p.kind) ? now : null,
    checkoutPath: `/${p.slug}/checkout`,
  })
  const pending = `/transaction/${tx.hash}/pending`
  if (!provider) {
    // Free: nothing to pay, access at once (same exactly-once batch as a paid order).
    await settleTransaction(context.db, tenant.id, tx.id, { event: null, status: 'completed' })
    context.cloudflare.ctx.waitUntil(dispatchAppEvents(context.db, context.cloudflare.env.EVENTS_QUEUE, tenant.id))
    return { kind: 'redirect', url: pending }
  }
  const started = await provider.adapter.startPayment({
    transaction: tx,
    buyer: { name: buyer.name, email: buyer.email },
    origin,
    continueUrl: `${origin}${pending}`,
    notifyUrl: `${origin}/payments/${provider.integration.provider}/${provider.integration.id}/notify`,
    customerIp: request.headers.get('CF-Connecting-IP') ?? '127.0.0.1',
    description: breakdown.quantity > 1 ? `${p.title} × ${breakdown.quantity}` : p.title,
    mode: 'payment',
  })
  if (!started.ok) {
    await settleTransaction(context.db, tenant.id, tx.id, { event: null, status: 'failed' })
    return { kind: 'error', key: 'checkout.error.transaction' }
  }
  await setProviderRef(context.db, tenant.id, tx.id, { provider: provider.integration.provider, integrationId: provider.integration.id, providerRef: started.providerRef })
  return { kind: 'redirect', url: started.redirectUrl }
}
