// One-page checkout (issue 8 item 1, ADR 019): what the page offers and what a submission does.
// The price is always computed here with priceOrder(); nothing the browser sends about money is
// trusted. Bad input answers field errors and writes nothing.
import { collectorOf } from "#app/payments/confirm.ts";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import type { Product } from "#app/db/schema.server.ts";
import {
  dispatchAppEvents,
  eventQueues,
} from "#app/models/app-event.server.ts";
import { getFeeOverride } from "#app/models/fee-settings.server.ts";
import {
  effectivePrice,
  listPrices,
  type ProductPrice,
} from "#app/models/product-price.server.ts";
import { getProduct } from "#app/models/product.server.ts";
import { getProductPage, offersByIds } from "#app/models/storefront.server.ts";
import {
  createTransaction,
  setProviderRef,
  settleTransaction,
  type Transaction,
} from "#app/models/transaction.server.ts";
import {
  feeSettingsFor,
  platformFee,
  priceOrder,
  QUANTITY_MAX,
  type PriceBreakdown,
  type PromoDiscount,
} from "#app/payments/pricing.ts";
import { afterSale } from "#app/payments/after-sale.server.ts";
import { ensurePlatformStripeWebhooks } from "#app/payments/marketplace.server.ts";
import { platformOrigin } from "#app/utils/school-origin.server.ts";
import { PLATFORM_INTEGRATION } from "#app/payments/platform-accounts.server.ts";
import { resolveCheckoutProvider } from "#app/payments/registry.server.ts";
import type { SchoolTenant } from "#app/domains/site.server.ts";
import { email, msg } from "#app/utils/validation.ts";
import type { AppliedPromo } from "./promo.server.ts";
import { countSold, remainingUnits } from "./sales.server.ts";

/** Digital content: the EU withdrawal-waiver consent is required (Directive 2011/83/EU art. 16(m)). */
export const DIGITAL_KINDS: ReadonlyArray<Product["kind"]> = [
  "course",
  "bundle",
  "membership",
  "file",
  "live_event",
];

/** Seed 001 §5: international format or empty, letters and digits only (e.g. PL1234567890). */
export const VAT_NUMBER = /^[A-Z]{2}[A-Z0-9]{2,13}$/;
/** Seed 001 §5: Polish postal code 12-345. */
export const PL_POSTAL_CODE = /^\d{2}-\d{3}$/;
export const PROMO_CODE_MAX = 40;

/** The country a buyer of this school most likely lives in (prefilled, and used when left empty). */
export function defaultCountry(
  tenant: Pick<SchoolTenant, "language" | "currency">
) {
  return tenant.currency === "PLN" || tenant.language === "pl"
    ? "PL"
    : tenant.currency === "USD"
    ? "US"
    : "";
}

export type CheckoutBump = {
  productId: string;
  title: string;
  kind: Product["kind"];
  amount: number;
  vatRate: number | null;
  text: string;
};

export type CheckoutOffer = {
  product: Product;
  prices: Array<{ id: string; name: string; amount: number }>;
  promo: boolean;
  lowestPrice30Days: number | null;
  hasAccess: boolean;
  /** The order bump offered with this product, if any (published, and not owned yet). */
  bump: CheckoutBump | null;
  /** Units left under the sale limit (null: no limit). */
  remaining: number | null;
};

/** Why a product cannot be bought now (the page says so instead of showing the form). */
export type Unavailable = "sold_out" | "not_priced" | null;

export function unavailable(offer: CheckoutOffer): Unavailable {
  if (!offer.prices.length) return "not_priced";
  if (offer.remaining === 0) return "sold_out";
  return null;
}

type Viewer = { id: string; role: "owner" | "admin" | "student" } | null;

/** The offer of a published product of this school (null: no such product → 404). */
export async function loadCheckoutOffer(
  context: AppLoadContext,
  tenant: SchoolTenant,
  slug: string,
  viewer: Viewer
): Promise<CheckoutOffer | null> {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 60) return null;
  const page = await getProductPage(context.db, tenant.id, slug, {
    viewer,
    mediaOrigin: "",
    currency: tenant.currency,
  });
  if (!page) return null;
  const p = page.product;
  const [rows, sold, bump] = await Promise.all([
    listPrices(context.db, tenant.id, p.id),
    p.saleLimit > 0
      ? countSold(context.db, tenant.id, p.id)
      : Promise.resolve(0),
    loadBump(context, tenant, p, viewer),
  ]);
  return {
    product: p,
    prices: unitPrices(p, rows),
    promo: !!page.offer.promo,
    lowestPrice30Days: page.offer.lowestPrice30Days,
    hasAccess: page.offer.hasAccess,
    bump,
    remaining: remainingUnits(p.saleLimit, sold),
  };
}

/** The bump product as the buyer would get it: still published, not physical, not owned already. */
async function loadBump(
  context: AppLoadContext,
  tenant: SchoolTenant,
  product: Product,
  viewer: Viewer
): Promise<CheckoutBump | null> {
  if (
    !product.bumpProductId ||
    product.bumpPrice === null ||
    product.bumpProductId === product.id
  )
    return null;
  const [target, offers] = await Promise.all([
    getProduct(context.db, tenant.id, product.bumpProductId),
    offersByIds(context.db, tenant.id, [product.bumpProductId], {
      viewer,
      mediaOrigin: "",
      currency: tenant.currency,
    }),
  ]);
  const offer = offers[product.bumpProductId];
  if (
    !target ||
    !target.published ||
    target.kind === "physical" ||
    !offer ||
    (viewer && offer.hasAccess)
  )
    return null;
  return {
    productId: target.id,
    title: target.title,
    kind: target.kind,
    amount: product.bumpPrice,
    vatRate: target.vatRate,
    text: product.bumpText,
  };
}

/** Each variant's price now: the promotion applies to the main (first) variant only. */
export function unitPrices(
  product: Product,
  rows: ProductPrice[],
  now = Date.now()
) {
  if (product.isFree) return [{ id: "free", name: "", amount: 0 }];
  const main = effectivePrice(product, rows, now);
  return rows.map((r, i) => ({
    id: r.id,
    name: r.name,
    amount: i === 0 && main ? main.amount : r.amount,
  }));
}

/** Most seats one purchase may take: courses only, within the sale limit. */
export function quantityMax(offer: CheckoutOffer) {
  const max = offer.product.kind === "course" ? QUANTITY_MAX : 1;
  return offer.remaining === null
    ? max
    : Math.max(1, Math.min(max, offer.remaining));
}

const checkbox = z.literal("on", {
  errorMap: () => ({ message: msg("checkout.error.required_consent") }),
});
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), {
      message: msg("validation.invalid"),
    })
    .optional()
    .default("");

/** The parts of the form that decide the price (also all a "quote" needs). */
function pricingShape(product: Product, max: number) {
  const quantityMessage = msg("checkout.error.quantity", { max });
  return {
    price: z.string().max(64).default(""),
    quantity: z
      .string()
      .trim()
      .default("1")
      .transform((s) => (s === "" ? "1" : s))
      .pipe(z.string().regex(/^\d{1,6}$/, quantityMessage))
      .transform(Number)
      .pipe(z.number().int().min(1, quantityMessage).max(max, quantityMessage)),
    shipmentType:
      product.kind === "physical"
        ? z.enum(["parcel_locker", "courier"])
        : z.string().optional(),
    bump: z.literal("on").optional(),
    promoCode: z
      .string()
      .optional()
      .transform((v) => (v ?? "").trim().toUpperCase())
      .pipe(
        z
          .string()
          .max(PROMO_CODE_MAX)
          .regex(/^[A-Z0-9_-]*$/, msg("checkout.error.promo_invalid"))
      ),
  };
}

export function quoteSchema(offer: CheckoutOffer) {
  return z.object(pricingShape(offer.product, quantityMax(offer)));
}

/**
 * The whole form, for one product (its kind decides which parts are required). A visitor either
 * creates an account (mode register) or logs in with an existing one (mode login).
 */
export function checkoutSchema(
  offer: CheckoutOffer,
  signedIn: boolean,
  defaultCountry: string
) {
  const product = offer.product;
  return z
    .object({
      ...pricingShape(product, quantityMax(offer)),
      mode: z.enum(["register", "login"]).default("register"),
      name: optionalText(70),
      email: signedIn ? z.string().optional() : email(),
      password: signedIn
        ? z.string().optional()
        : z.string().max(200).default(""),
      invoice: z.enum(["none", "person", "company"]).default("none"),
      companyName: optionalText(150),
      vatNumber: z
        .string()
        .optional()
        .transform((v) => (v ?? "").trim().toUpperCase())
        .refine((v) => v === "" || VAT_NUMBER.test(v), {
          message: msg("checkout.error.vat"),
        }),
      address: optionalText(150),
      postalCode: optionalText(12),
      city: optionalText(70),
      country: z
        .string()
        .optional()
        .transform((v) => (v ?? "").trim().toUpperCase() || defaultCountry)
        .refine((v) => v === "" || /^[A-Z]{2}$/.test(v), {
          message: msg("checkout.error.country"),
        }),
      parcelLockerCode: optionalText(20),
      /** The chosen payment method (an integration id or 'test'); empty = the school's default. */
      integration: z
        .string()
        .trim()
        .max(40)
        .regex(/^[a-z0-9-]*$/, msg("checkout.error.method"))
        .optional()
        .default(""),
      terms: checkbox,
      waiver: DIGITAL_KINDS.includes(product.kind)
        ? checkbox
        : z.string().optional(),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message = msg("validation.required")) =>
        ctx.addIssue({ code: "custom", path: [path], message });
      if (!signedIn) {
        // A new account needs a name and a password of 6+; logging in needs the password only.
        if (v.mode === "register") {
          if (!v.name) issue("name");
          if ((v.password ?? "").length < 6)
            issue("password", msg("validation.password_min", { count: 6 }));
        } else if (!v.password) issue("password");
      }
      const needsAddress =
        v.invoice !== "none" ||
        (product.kind === "physical" && v.shipmentType === "courier");
      if (v.invoice === "company") {
        if (!v.companyName) issue("companyName");
        if (!v.vatNumber) issue("vatNumber");
      }
      if (needsAddress) {
        if (!v.address) issue("address");
        if (!v.city) issue("city");
        if (!v.postalCode) issue("postalCode");
        if (!v.country) issue("country");
      }
      if (
        v.postalCode &&
        v.country === "PL" &&
        !PL_POSTAL_CODE.test(v.postalCode)
      )
        issue("postalCode", msg("checkout.error.postal_code"));
      // A digital bump added to a physical order needs the waiver too.
      if (
        v.bump === "on" &&
        offer.bump &&
        DIGITAL_KINDS.includes(offer.bump.kind) &&
        v.waiver !== "on"
      )
        issue("waiver", msg("checkout.error.required_consent"));
      if (
        product.kind === "physical" &&
        v.shipmentType === "parcel_locker" &&
        !/^[A-Z0-9]{3,20}$/i.test(v.parcelLockerCode)
      )
        issue("parcelLockerCode", msg("checkout.error.locker"));
    });
}

export type QuoteInput = z.output<ReturnType<typeof quoteSchema>>;
export type CheckoutInput = z.output<ReturnType<typeof checkoutSchema>>;

/** The order's price: the chosen variant × seats, the promo code on that line, the bump, shipping. */
export function quote(
  offer: CheckoutOffer,
  input: Pick<QuoteInput, "price" | "quantity" | "shipmentType" | "bump">,
  promo: PromoDiscount | null
): { breakdown: PriceBreakdown; priceId: string | null } | null {
  const chosen =
    offer.prices.find((p) => p.id === input.price) ??
    (input.price ? null : offer.prices[0]);
  if (!chosen) return null;
  const p = offer.product;
  const shipping =
    p.kind === "physical"
      ? (input.shipmentType === "parcel_locker"
          ? p.shippingLockerPrice
          : p.shippingCourierPrice) ?? 0
      : 0;
  const bump =
    input.bump === "on" && offer.bump
      ? { amount: offer.bump.amount, vatRate: offer.bump.vatRate }
      : null;
  return {
    breakdown: priceOrder({
      unitAmount: chosen.amount,
      quantity: input.quantity,
      vatRate: p.vatRate,
      shipping,
      promo,
      bump,
    }),
    priceId: chosen.id === "free" ? null : chosen.id,
  };
}

export type StartOutcome =
  | { kind: "redirect"; url: string }
  | {
      kind: "error";
      key: "checkout.error.transaction" | "checkout.error.no_provider";
    }
  | { kind: "field"; field: "integration"; key: "checkout.error.method" };

/** Write the transaction and send the buyer on: to the pending page (nothing to pay) or the provider's page. */
export async function placeOrder(
  context: AppLoadContext,
  request: Request,
  tenant: SchoolTenant,
  offer: CheckoutOffer,
  input: CheckoutInput,
  buyer: { userId: string; name: string; email: string },
  promo: AppliedPromo | null
): Promise<StartOutcome> {
  const q = quote(offer, input, promo);
  if (!q) return { kind: "error", key: "checkout.error.transaction" };
  const { breakdown } = q;
  const now = Date.now();
  const origin = new URL(request.url).origin;
  const provider =
    breakdown.total > 0
      ? await resolveCheckoutProvider(
          context,
          tenant.id,
          tenant.currency,
          input.integration || null
        )
      : null;
  if (breakdown.total > 0 && !provider)
    return input.integration
      ? { kind: "field", field: "integration", key: "checkout.error.method" }
      : { kind: "error", key: "checkout.error.no_provider" };
  // The platform's Stripe webhooks exist before its first marketplace sale (created once, ADR 023).
  if (provider?.integration.id === PLATFORM_INTEGRATION.stripe) {
    const hooks = await ensurePlatformStripeWebhooks(
      context,
      platformOrigin(context.cloudflare.env)
    );
    if (!hooks.ok)
      console.warn(
        JSON.stringify({
          event: "platform_webhooks_unavailable",
          tenantId: tenant.id,
          reason: hooks.reason,
        })
      );
  }
  const fee = platformFee(
    breakdown.total,
    feeSettingsFor(
      tenant.currency,
      (await getFeeOverride(context.db, tenant.id)) ?? {
        feeBasisPoints: null,
        feeFixed: null,
      }
    )
  );
  const p = offer.product;
  const address = {
    address: input.address,
    postalCode: input.postalCode,
    city: input.city,
    country: input.country,
  };
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
    bumpProductId:
      input.bump === "on" && offer.bump ? offer.bump.productId : null,
    bumpAmount: breakdown.bump,
    shippingAmount: breakdown.shipping,
    totalAmount: breakdown.total,
    vatAmount: breakdown.vat,
    feeAmount: fee,
    promoCodeId: promo?.id ?? null,
    promoPriceApplied:
      offer.promo && (q.priceId === null || q.priceId === offer.prices[0]?.id),
    buyer: JSON.stringify({ name: buyer.name, email: buyer.email }),
    invoiceDetails:
      input.invoice === "none"
        ? null
        : JSON.stringify({
            type: input.invoice,
            name: buyer.name,
            companyName: input.companyName || undefined,
            vatNumber: input.vatNumber || undefined,
            ...address,
          }),
    shipping:
      p.kind === "physical"
        ? JSON.stringify(
            input.shipmentType === "parcel_locker"
              ? {
                  shipmentType: "parcel_locker",
                  parcelLockerCode: input.parcelLockerCode.toUpperCase(),
                }
              : { shipmentType: "courier", ...address }
          )
        : null,
    termsAcceptedAt: now,
    withdrawalWaiverAt: input.waiver === "on" ? now : null,
    checkoutPath: `/${p.slug}/checkout`,
    // Who will hold the money: the platform's own account, the school's, or split at the provider (ADR 023).
    collector: provider?.collector ?? collectorOf(null),
    payoutAccountId: provider?.split?.payoutAccountId ?? null,
  });
  const pending = `/transaction/${tx.hash}/pending`;
  if (!provider) {
    // Nothing to pay (free product or a 100 % code): access at once, in the same exactly-once batch.
    const settled = await settleTransaction(context.db, tenant.id, tx.id, {
      event: null,
      status: "completed",
    });
    if (settled?.granted)
      context.cloudflare.ctx.waitUntil(
        Promise.all([
          dispatchAppEvents(
            context.db,
            eventQueues(context.cloudflare.env),
            tenant.id
          ),
          afterSale(context, tenant.id, tx.id, origin),
        ])
      );
    return { kind: "redirect", url: pending };
  }
  let started: Awaited<ReturnType<typeof provider.adapter.startPayment>>;
  try {
    started = await provider.adapter.startPayment({
      transaction: tx,
      buyer: { name: buyer.name, email: buyer.email },
      origin,
      continueUrl: `${origin}${pending}`,
      notifyUrl: `${origin}/payments/${provider.integration.provider}/${provider.integration.id}/notify`,
      customerIp: request.headers.get("CF-Connecting-IP") ?? "127.0.0.1",
      description:
        breakdown.quantity > 1 ? `${p.title} × ${breakdown.quantity}` : p.title,
      // A membership with a period renews through the provider's subscription where it has one (Stripe).
      mode:
        p.kind === "membership" && (p.membershipPeriod ?? -1) > 0
          ? "subscription"
          : "payment",
      intervalMonths: p.membershipPeriod ?? undefined,
      split: provider.split
        ? { destination: provider.split.destination }
        : undefined,
    });
  } catch (error) {
    console.error(
      JSON.stringify({
        event: "checkout_start_payment_failed",
        tenantId: tenant.id,
        transactionId: tx.id,
        error: String(error),
      })
    );
    started = { ok: false, reason: "unavailable" };
  }
  if (!started.ok) {
    await settleTransaction(context.db, tenant.id, tx.id, {
      event: null,
      status: "failed",
    });
    return { kind: "error", key: "checkout.error.transaction" };
  }
  await setProviderRef(context.db, tenant.id, tx.id, {
    provider: provider.integration.provider,
    integrationId: provider.integration.id,
    providerRef: started.providerRef,
  });
  return { kind: "redirect", url: started.redirectUrl };
}
