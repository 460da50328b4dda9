// One-page checkout (issue 8 item 1, ADR 019): what the page offers, the form and the price (a
// submission is placed by place-order.server.ts). The price is always computed here with
// priceOrder(); nothing the browser sends about money is trusted. Bad input answers field errors
// and writes nothing.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { CurrentUser } from '#app/auth/auth.server.ts'
import { listCheckoutMethods } from '#app/payments/registry.server.ts'
import { parseCookies } from '#app/utils/cookies.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { z } from 'zod'
import type { Product } from '#app/db/schema.server.ts'
import { effectivePrice, listPrices, type ProductPrice } from '#app/models/product-price.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { getTenantTax } from '#app/models/school-settings.server.ts'
import { getProductPage, offersByIds } from '#app/models/storefront.server.ts'
import { effectiveVatRate, priceOrder, QUANTITY_MAX, type PriceBreakdown, type PromoDiscount } from '#app/payments/pricing.ts'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { email, msg } from '#app/utils/validation.ts'
import { countSold, remainingUnits } from './sales.server.ts'

/** Digital content: the EU withdrawal-waiver consent is required (Directive 2011/83/EU art. 16(m)). */
export const DIGITAL_KINDS: ReadonlyArray<Product['kind']> = ['course', 'bundle', 'membership', 'file', 'live_event']

/** Seed 001 §5: international format or empty, letters and digits only (e.g. PL1234567890). */
export const VAT_NUMBER = /^[A-Z]{2}[A-Z0-9]{2,13}$/
/** Seed 001 §5: Polish postal code 12-345. */
export const PL_POSTAL_CODE = /^\d{2}-\d{3}$/
export const PROMO_CODE_MAX = 40

/** The country a buyer of this school most likely lives in (prefilled, and used when left empty). */
export function defaultCountry(tenant: Pick<SchoolTenant, 'language' | 'currency'>) {
  return tenant.currency === 'PLN' || tenant.language === 'pl' ? 'PL' : tenant.currency === 'USD' ? 'US' : ''
}

export type CheckoutBump = { productId: string; title: string; kind: Product['kind']; amount: number; vatRate: number | null; text: string }

export type CheckoutOffer = {
  product: Product
  prices: Array<{ id: string; name: string; amount: number }>
  promo: boolean
  lowestPrice30Days: number | null
  hasAccess: boolean
  /** The order bump offered with this product, if any (published, and not owned yet). */
  bump: CheckoutBump | null
  /** Units left under the sale limit (null: no limit). */
  remaining: number | null
}

/** Why a product cannot be bought now (the page says so instead of showing the form). */
export type Unavailable = 'sold_out' | 'not_priced' | null

export function unavailable(offer: CheckoutOffer): Unavailable {
  if (!offer.prices.length) return 'not_priced'
  if (offer.remaining === 0) return 'sold_out'
  return null
}

type Viewer = { id: string; role: 'owner' | 'admin' | 'student' } | null

/** The offer of a published product of this school (null: no such product → 404). */
export async function loadCheckoutOffer(context: AppLoadContext, tenant: SchoolTenant, slug: string, viewer: Viewer): Promise<CheckoutOffer | null> {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 60) return null
  const page = await getProductPage(context.db, tenant.id, slug, { viewer, mediaOrigin: '', currency: tenant.currency })
  if (!page) return null
  const [rows, sold, bump, tax] = await Promise.all([
    listPrices(context.db, tenant.id, page.product.id),
    page.product.saleLimit > 0 ? countSold(context.db, tenant.id, page.product.id) : Promise.resolve(0),
    loadBump(context, tenant, page.product, viewer),
    getTenantTax(context.db, tenant.id),
  ])
  // A school that charges no VAT (issue 23 §4): no rate applies, whatever a product still holds.
  const p = { ...page.product, vatRate: effectiveVatRate(tax, page.product.vatRate) }
  return {
    product: p,
    prices: unitPrices(p, rows),
    promo: !!page.offer.promo,
    lowestPrice30Days: page.offer.lowestPrice30Days,
    hasAccess: page.offer.hasAccess,
    bump: bump ? { ...bump, vatRate: effectiveVatRate(tax, bump.vatRate) } : null,
    remaining: remainingUnits(p.saleLimit, sold),
  }
}

/** The bump product as the buyer would get it: still published, not physical, not owned already. */
async function loadBump(context: AppLoadContext, tenant: SchoolTenant, product: Product, viewer: Viewer): Promise<CheckoutBump | null> {
  if (!product.bumpProductId || product.bumpPrice === null || product.bumpProductId === product.id) return null
  const [target, offers] = await Promise.all([
    getProduct(context.db, tenant.id, product.bumpProductId),
    offersByIds(context.db, tenant.id, [product.bumpProductId], { viewer, mediaOrigin: '', currency: tenant.currency }),
  ])
  const offer = offers[product.bumpProductId]
  if (!target || !target.published || target.kind === 'physical' || !offer || (viewer && offer.hasAccess)) return null
  return { productId: target.id, title: target.title, kind: target.kind, amount: product.bumpPrice, vatRate: target.vatRate, text: product.bumpText }
}

/** Each variant's price now: the promotion applies to the main (first) variant only. */
export function unitPrices(product: Product, rows: ProductPrice[], now = Date.now()) {
  if (product.isFree) return [{ id: 'free', name: '', amount: 0 }]
  const main = effectivePrice(product, rows, now)
  return rows.map((r, i) => ({ id: r.id, name: r.name, amount: i === 0 && main ? main.amount : r.amount }))
}

/** Most seats one purchase may take: courses only, within the sale limit. */
export function quantityMax(offer: CheckoutOffer) {
  const max = offer.product.kind === 'course' ? QUANTITY_MAX : 1
  return offer.remaining === null ? max : Math.max(1, Math.min(max, offer.remaining))
}

const checkbox = z.literal('on', { errorMap: () => ({ message: msg('checkout.error.required_consent') }) })
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') })
    .optional()
    .default('')

/** The parts of the form that decide the price (also all a "quote" needs). */
function pricingShape(product: Product, max: number) {
  const quantityMessage = msg('checkout.error.quantity', { max })
  return {
    price: z.string().max(64).default(''),
    quantity: z
      .string()
      .trim()
      .default('1')
      .transform((s) => (s === '' ? '1' : s))
      .pipe(z.string().regex(/^\d{1,6}$/, quantityMessage))
      .transform(Number)
      .pipe(z.number().int().min(1, quantityMessage).max(max, quantityMessage)),
    shipmentType: product.kind === 'physical' ? z.enum(['parcel_locker', 'courier']) : z.string().optional(),
    bump: z.literal('on').optional(),
    promoCode: z
      .string()
      .optional()
      .transform((v) => (v ?? '').trim().toUpperCase())
      .pipe(z.string().max(PROMO_CODE_MAX).regex(/^[A-Z0-9_-]*$/, msg('checkout.error.promo_invalid'))),
  }
}

export function quoteSchema(offer: CheckoutOffer) {
  return z.object(pricingShape(offer.product, quantityMax(offer)))
}

/**
 * The whole form, for one product (its kind decides which parts are required). A visitor either
 * creates an account (mode register) or logs in with an existing one (mode login). The simplified
 * checkout (issue 23 §11, tenants.simplified_checkout) asks a new buyer only e-mail, name and the
 * consents: no password (set later with "forgot password"), no invoice, company or address
 * fields (whatever is sent for them is dropped); shipping a physical product still needs its details.
 */
export function checkoutSchema(offer: CheckoutOffer, signedIn: boolean, defaultCountry: string, simplified = false) {
  const product = offer.product
  return z
    .preprocess(
      (raw) => (simplified && raw && typeof raw === 'object' ? dropInvoiceFields(raw as Record<string, unknown>, product.kind === 'physical') : raw),
      z.object({
        ...pricingShape(product, quantityMax(offer)),
        mode: z.enum(['register', 'login']).default('register'),
        name: optionalText(70),
        email: signedIn ? z.string().optional() : email(),
        password: signedIn ? z.string().optional() : z.string().max(200).default(''),
        invoice: z.enum(['none', 'person', 'company']).default('none'),
        companyName: optionalText(150),
        vatNumber: z
          .string()
          .optional()
          .transform((v) => (v ?? '').trim().toUpperCase())
          .refine((v) => v === '' || VAT_NUMBER.test(v), { message: msg('checkout.error.vat') }),
        address: optionalText(150),
        postalCode: optionalText(12),
        city: optionalText(70),
        country: z
          .string()
          .optional()
          .transform((v) => (v ?? '').trim().toUpperCase() || defaultCountry)
          .refine((v) => v === '' || /^[A-Z]{2}$/.test(v), { message: msg('checkout.error.country') }),
        parcelLockerCode: optionalText(20),
        /** The chosen payment method (an integration id or 'test'); empty = the school's default. */
        integration: z.string().trim().max(40).regex(/^[a-z0-9-]*$/, msg('checkout.error.method')).optional().default(''),
        /** BLIK level 0 (issue 25): the 6-digit code typed here, for a Przelewy24 payment; empty = choose on P24's page. */
        blik_code: z
          .string()
          .optional()
          .transform((v) => (v ?? '').replace(/\s/g, ''))
          .pipe(z.string().regex(/^(\d{6})?$/, msg('payments.error.blik_code'))),
        terms: checkbox,
        waiver: DIGITAL_KINDS.includes(product.kind) ? checkbox : z.string().optional(),
      }),
    )
    .superRefine((v, ctx) => {
      const issue = (path: string, message = msg('validation.required')) => ctx.addIssue({ code: 'custom', path: [path], message })
      if (!signedIn) {
        // A new account needs a name and a password of 6+; logging in needs the password only.
        if (v.mode === 'register') {
          if (!v.name) issue('name')
          if (!simplified && (v.password ?? '').length < 6) issue('password', msg('validation.password_min', { count: 6 }))
        } else if (!v.password) issue('password')
      }
      const needsAddress = v.invoice !== 'none' || (product.kind === 'physical' && v.shipmentType === 'courier')
      if (v.invoice === 'company') {
        if (!v.companyName) issue('companyName')
        if (!v.vatNumber) issue('vatNumber')
      }
      if (needsAddress) {
        if (!v.address) issue('address')
        if (!v.city) issue('city')
        if (!v.postalCode) issue('postalCode')
        if (!v.country) issue('country')
      }
      if (v.postalCode && v.country === 'PL' && !PL_POSTAL_CODE.test(v.postalCode)) issue('postalCode', msg('checkout.error.postal_code'))
      // A digital bump added to a physical order needs the waiver too.
      if (v.bump === 'on' && offer.bump && DIGITAL_KINDS.includes(offer.bump.kind) && v.waiver !== 'on') issue('waiver', msg('checkout.error.required_consent'))
      if (product.kind === 'physical' && v.shipmentType === 'parcel_locker' && !/^[A-Z0-9]{3,20}$/i.test(v.parcelLockerCode)) issue('parcelLockerCode', msg('checkout.error.locker'))
    })
}

/** The simplified checkout's form: invoice details never count (a physical order keeps its address for the courier). */
function dropInvoiceFields(raw: Record<string, unknown>, physical: boolean) {
  const { invoice: _invoice, companyName: _companyName, vatNumber: _vatNumber, ...rest } = raw
  if (physical) return rest
  const { address: _address, postalCode: _postalCode, city: _city, country: _country, ...kept } = rest
  return kept
}

export type QuoteInput = z.output<ReturnType<typeof quoteSchema>>
export type CheckoutInput = z.output<ReturnType<typeof checkoutSchema>>

/** The order's price: the chosen variant × seats, the promo code on that line, the bump, shipping. */
export function quote(offer: CheckoutOffer, input: Pick<QuoteInput, 'price' | 'quantity' | 'shipmentType' | 'bump'>, promo: PromoDiscount | null): { breakdown: PriceBreakdown; priceId: string | null } | null {
  const chosen = offer.prices.find((p) => p.id === input.price) ?? (input.price ? null : offer.prices[0])
  if (!chosen) return null
  const p = offer.product
  const shipping = p.kind === 'physical' ? ((input.shipmentType === 'parcel_locker' ? p.shippingLockerPrice : p.shippingCourierPrice) ?? 0) : 0
  const bump = input.bump === 'on' && offer.bump ? { amount: offer.bump.amount, vatRate: offer.bump.vatRate } : null
  return {
    breakdown: priceOrder({ unitAmount: chosen.amount, quantity: input.quantity, vatRate: p.vatRate, shipping, promo, bump }),
    priceId: chosen.id === 'free' ? null : chosen.id,
  }
}

/** What the checkout page shows (its loader's answer): the offer as the buyer may see it. */
export async function checkoutPageData(request: Request, context: AppLoadContext, tenant: SchoolTenant, offer: CheckoutOffer, user: Pick<CurrentUser, 'name' | 'email'> | null) {
  const p = offer.product
  const t = getT(request, context)
  return {
    title: `${t('checkout.title')} · ${p.title}`,
    product: { title: p.title, slug: p.slug, kind: p.kind, vatRate: p.vatRate, isFree: p.isFree, lockerPrice: p.shippingLockerPrice, courierPrice: p.shippingCourierPrice },
    prices: offer.prices,
    lowestPrice30Days: offer.promo ? offer.lowestPrice30Days : null,
    bump: offer.bump ? { ...offer.bump, digital: DIGITAL_KINDS.includes(offer.bump.kind) } : null,
    unavailable: unavailable(offer),
    hasAccess: offer.hasAccess,
    currency: tenant.currency,
    locale: tenant.language,
    defaultCountry: defaultCountry(tenant),
    user: user ? { name: user.name, email: user.email } : null,
    simplified: tenant.simplifiedCheckout,
    digital: DIGITAL_KINDS.includes(p.kind),
    quantityMax: quantityMax(offer),
    methods: p.isFree ? [] : await listCheckoutMethods(context, tenant.id, tenant.currency),
    // A code carried by a promotion link (the countdown widget clears it when the offer ends).
    promoCookie: (parseCookies(request.headers.get('Cookie')).promo_code ?? '').slice(0, 40),
  }
}

export type CheckoutPageData = Awaited<ReturnType<typeof checkoutPageData>>
