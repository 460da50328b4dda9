// /{slug}/checkout: the one-page checkout (issue 8 item 1, seed 000 §7, seed 001 §5). A plain form
// that works without JavaScript: price variant, seats (courses), an account for visitors (create
// one or log in, in the same submission), invoice details, shipping for physical products, promo
// code ("Apply" re-prices without ordering), order bump, terms and the withdrawal-waiver consent for
// digital content. The server prices the order (app/checkout/checkout.server.ts).
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
} from "@remix-run/react";
import { useEffect, useState } from "react";
import { CheckoutBreakdown } from "#app/components/checkout-breakdown.tsx";
import {
  CheckoutAccount,
  CheckoutInvoice,
  CheckoutMethods,
  CheckoutPromo,
} from "#app/components/checkout-sections.tsx";
import {
  Alert,
  Button,
  Card,
  Field,
  PageTitle,
  SelectField,
} from "#app/components/ui.tsx";
import {
  checkoutSchema,
  defaultCountry,
  DIGITAL_KINDS,
  loadCheckoutOffer,
  placeOrder,
  quantityMax,
  quote,
  quoteSchema,
  unavailable,
} from "#app/checkout/checkout.server.ts";
import {
  applyPromoCode,
  promoFieldError,
  type AppliedPromo,
} from "#app/checkout/promo.server.ts";
import { recordRegistration } from "#app/models/app-event.server.ts";
import { createUser, getUserByEmail } from "#app/models/user.server.ts";
import { getLoginVerificationMode } from "#app/models/verification.server.ts";
import { priceOrder, type PromoDiscount } from "#app/payments/pricing.ts";
import { listCheckoutMethods } from "#app/payments/registry.server.ts";
import {
  getCurrentUserOrVerify,
  startSession,
  VERIFY_PATH,
} from "#app/auth/auth.server.ts";
import { parseCookies } from "#app/utils/cookies.server.ts";
import { useFieldMessage, useT } from "#app/utils/i18n-react.ts";
import { attemptLogin } from "#app/auth/login.server.ts";
import { formatMoney } from "#app/utils/money.ts";
import { hashPassword } from "#app/utils/password.server.ts";
import {
  clientIp,
  getT,
  notFound,
  requireSchool,
} from "#app/utils/request.server.ts";
import {
  formToObject,
  parseWith,
  type FieldErrors,
  type FieldMessage,
  type FormValues,
} from "#app/utils/validation.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
  { name: "robots", content: "noindex" },
];

const noStore = { "Cache-Control": "private, no-store" };

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  const user = await getCurrentUserOrVerify(request, context);
  const offer = await loadCheckoutOffer(
    context,
    tenant,
    params.slug ?? "",
    user ? { id: user.id, role: user.role } : null
  );
  if (!offer) notFound();
  const p = offer.product;
  const t = getT(request, context);
  return data(
    {
      title: `${t("checkout.title")} · ${p.title}`,
      product: {
        title: p.title,
        slug: p.slug,
        kind: p.kind,
        vatRate: p.vatRate,
        isFree: p.isFree,
        lockerPrice: p.shippingLockerPrice,
        courierPrice: p.shippingCourierPrice,
      },
      prices: offer.prices,
      lowestPrice30Days: offer.promo ? offer.lowestPrice30Days : null,
      bump: offer.bump
        ? { ...offer.bump, digital: DIGITAL_KINDS.includes(offer.bump.kind) }
        : null,
      unavailable: unavailable(offer),
      hasAccess: offer.hasAccess,
      currency: tenant.currency,
      locale: tenant.language,
      defaultCountry: defaultCountry(tenant),
      user: user ? { name: user.name, email: user.email } : null,
      digital: DIGITAL_KINDS.includes(p.kind),
      quantityMax: quantityMax(offer),
      methods: p.isFree
        ? []
        : await listCheckoutMethods(context, tenant.id, tenant.currency),
      // A code carried by a promotion link (the countdown widget clears it when the offer ends).
      promoCookie: (
        parseCookies(request.headers.get("Cookie")).promo_code ?? ""
      ).slice(0, 40),
    },
    { headers: noStore }
  );
}

type ActionData = {
  errors: FieldErrors;
  values: FormValues;
  formError?: string;
  promo?: { code: string } & PromoDiscount;
};

const answer = (body: ActionData, status: number, cookie?: string | null) => {
  const headers = new Headers(noStore);
  if (cookie) headers.append("Set-Cookie", cookie);
  return data<ActionData>(body, { status, headers });
};

const publicPromo = (p: AppliedPromo | null) =>
  p ? { code: p.code, kind: p.kind, value: p.value } : undefined;

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  const user = await getCurrentUserOrVerify(request, context);
  const offer = await loadCheckoutOffer(
    context,
    tenant,
    params.slug ?? "",
    user ? { id: user.id, role: user.role } : null
  );
  if (!offer) notFound();
  let values: FormValues;
  try {
    values = formToObject(await request.formData());
  } catch {
    return answer(
      { errors: { form: { key: "validation.invalid" } }, values: {} },
      400
    );
  }
  const { password: _password, ...echo } = values;
  // Sold out or never priced: said clearly, nothing written.
  const why = unavailable(offer);
  if (why)
    return answer(
      { errors: {}, values: echo, formError: `checkout.unavailable.${why}` },
      409
    );

  // "Apply" (promo code): re-price only. Works as a plain form post without JavaScript.
  if (values.intent === "apply_promo") {
    const parsed = parseWith(quoteSchema(offer), values);
    if (!parsed.ok) return answer({ errors: parsed.errors, values: echo }, 422);
    if (!parsed.data.promoCode)
      return answer({ errors: {}, values: echo }, 200);
    const promo = await applyPromoCode(context.db, tenant.id, {
      code: parsed.data.promoCode,
      productId: offer.product.id,
      userId: user?.id ?? null,
      ip: clientIp(request),
    });
    if (!promo.ok)
      return answer(
        { errors: { promoCode: promoFieldError(promo) }, values: echo },
        promo.error === "throttled" ? 429 : 422
      );
    return answer(
      { errors: {}, values: echo, promo: publicPromo(promo.promo) },
      200
    );
  }

  const parsed = parseWith(
    checkoutSchema(offer, !!user, defaultCountry(tenant)),
    values
  );
  if (!parsed.ok) return answer({ errors: parsed.errors, values: echo }, 422);
  const input = parsed.data;
  if (!quote(offer, input, null))
    return answer(
      { errors: { price: { key: "validation.in" } }, values: echo },
      422
    );

  let buyer = user
    ? { userId: user.id, name: user.name, email: user.email }
    : null;
  let cookie: string | null = null;
  if (!buyer && input.mode === "login") {
    // An existing account logs in right here (the same throttled check as /login).
    const result = await attemptLogin({
      db: context.db,
      scope: tenant.id,
      email: input.email!,
      password: input.password!,
      ip: clientIp(request),
      findAccount: () => getUserByEmail(context.db, tenant.id, input.email!),
    });
    if (!result.ok)
      return answer(
        { errors: { password: result.error }, values: echo },
        result.error.key === "auth.login.throttled" ? 429 : 401
      );
    cookie = await startSession(request, context, result.account.id);
    // A school that asks for a login code: verify first, then come back to this checkout.
    if (
      result.account.role === "student" &&
      (await getLoginVerificationMode(context.db, tenant.id)) !== "off"
    ) {
      return redirect(
        `${VERIFY_PATH}?redirectTo=${encodeURIComponent(
          `/${offer.product.slug}/checkout`
        )}`,
        { status: 303, headers: { "Set-Cookie": cookie } }
      );
    }
    buyer = {
      userId: result.account.id,
      name: result.account.name,
      email: result.account.email,
    };
  }

  let promo: AppliedPromo | null = null;
  if (input.promoCode) {
    const checked = await applyPromoCode(context.db, tenant.id, {
      code: input.promoCode,
      productId: offer.product.id,
      userId: buyer?.userId ?? null,
      ip: clientIp(request),
    });
    if (!checked.ok)
      return answer(
        { errors: { promoCode: promoFieldError(checked) }, values: echo },
        checked.error === "throttled" ? 429 : 422,
        cookie
      );
    promo = checked.promo;
  }

  if (!buyer) {
    // A visitor gets a student account in the same step; an existing address must log in.
    const created = await createUser(context.db, tenant.id, {
      name: input.name,
      email: input.email!,
      passwordHash: await hashPassword(input.password!),
      role: "student",
    });
    if (!created)
      return answer(
        {
          errors: { email: { key: "checkout.error.account_exists" } },
          values: { ...echo, mode: "login" },
        },
        409
      );
    buyer = { userId: created.id, name: created.name, email: created.email };
    await recordRegistration(context, tenant.id, created);
    cookie = await startSession(request, context, created.id);
  }
  const outcome = await placeOrder(
    context,
    request,
    tenant,
    offer,
    input,
    buyer,
    promo
  );
  if (outcome.kind === "redirect")
    return redirect(outcome.url, {
      status: 303,
      headers: cookie ? { "Set-Cookie": cookie } : undefined,
    });
  if (outcome.kind === "field")
    return answer(
      {
        errors: { [outcome.field]: { key: outcome.key } },
        values: echo,
        promo: publicPromo(promo),
      },
      422,
      cookie
    );
  return answer(
    {
      errors: {},
      values: echo,
      formError: outcome.key,
      promo: publicPromo(promo),
    },
    outcome.key === "checkout.error.no_provider" ? 409 : 502,
    cookie
  );
}

export default function CheckoutPage() {
  const d = useLoaderData<typeof loader>();
  const a = useActionData<typeof action>();
  const t = useT();
  const message = useFieldMessage();
  const busy = useNavigation().state !== "idle";
  const values = (a?.values ?? {}) as FormValues;
  const errors = (a?.errors ?? {}) as FieldErrors;
  const money = (amount: number) => formatMoney(amount, d.currency, d.locale);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [priceId, setPriceId] = useState(values.price || d.prices[0]?.id || "");
  const [quantity, setQuantity] = useState(Number(values.quantity ?? 1) || 1);
  const [invoice, setInvoice] = useState(values.invoice ?? "none");
  const [shipment, setShipment] = useState(
    values.shipmentType ?? "parcel_locker"
  );
  const [bump, setBump] = useState(values.bump === "on");
  const [mode, setMode] = useState<"register" | "login">(
    values.mode === "login" ? "login" : "register"
  );
  // The code the server last accepted ("Apply" or a failed order); a new answer replaces it.
  const [promo, setPromo] = useState(a?.promo ?? null);
  useEffect(() => {
    if (!a) return;
    if (a.promo) setPromo(a.promo);
    else if (a.errors?.promoCode || !a.values?.promoCode) setPromo(null);
  }, [a]);

  if (d.unavailable || !d.prices.length) {
    return (
      <div
        className="mx-auto max-w-2xl space-y-6"
        data-checkout={d.product.slug}
      >
        <PageTitle subtitle={d.product.title}>{t("checkout.title")}</PageTitle>
        <Alert tone="info">
          {t(`checkout.unavailable.${d.unavailable ?? "not_priced"}`)}
        </Alert>
      </div>
    );
  }
  const chosen = d.prices.find((p) => p.id === priceId) ?? d.prices[0]!;
  const seats = Math.max(1, Math.min(d.quantityMax, Math.floor(quantity) || 1));
  const shipping =
    d.product.kind === "physical"
      ? (shipment === "parcel_locker"
          ? d.product.lockerPrice
          : d.product.courierPrice) ?? 0
      : 0;
  // The same computation the server charges (app/payments/pricing.ts).
  const breakdown = priceOrder({
    unitAmount: chosen.amount,
    quantity: seats,
    vatRate: d.product.vatRate,
    shipping,
    promo: promo ? { kind: promo.kind, value: promo.value } : null,
    bump:
      bump && d.bump
        ? { amount: d.bump.amount, vatRate: d.bump.vatRate }
        : null,
  });
  // Without JavaScript the waiver shows whenever a digital bump is offered (it is required only if ticked).
  const waiverNeeded = d.digital || (!!d.bump?.digital && (bump || !hydrated));
  const showAddress =
    invoice !== "none" ||
    (d.product.kind === "physical" && shipment === "courier");
  const consentError = (name: string) => message(errors[name]);
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-checkout={d.product.slug}>
      <PageTitle subtitle={d.product.title}>{t("checkout.title")}</PageTitle>
      {d.hasAccess ? (
        <Alert tone="info">
          {t("checkout.already_has_access")}{" "}
          <Link
            to={
              d.product.kind === "course"
                ? `/${d.product.slug}/watch`
                : "/panel"
            }
            className="font-semibold underline"
          >
            {t("checkout.open_product")}
          </Link>
        </Alert>
      ) : null}
      {a?.formError ? <Alert>{t(a.formError)}</Alert> : null}
      {errors.form ? (
        <Alert>{message(errors.form as FieldMessage)}</Alert>
      ) : null}
      <Form method="post" className="space-y-6" noValidate>
        {/* Enter in any field places the order (the first submit button is the default one). */}
        <button
          type="submit"
          name="intent"
          value="order"
          tabIndex={-1}
          aria-hidden
          className="absolute -left-[9999px] h-px w-px overflow-hidden"
        />
        <Card className="space-y-4 p-5">
          <h2 className="text-lg font-semibold">{t("checkout.order")}</h2>
          {d.prices.length > 1 ? (
            <SelectField
              label={t("checkout.price_variant")}
              name="price"
              value={priceId}
              onChange={(e) => setPriceId(e.currentTarget.value)}
              error={errors.price}
              options={d.prices.map((p) => ({
                value: p.id,
                label: `${p.name || d.product.title} — ${money(p.amount)}`,
              }))}
            />
          ) : (
            <>
              <input type="hidden" name="price" value={d.prices[0]!.id} />
              {errors.price ? (
                <p className="text-sm text-red-700" data-field-error="price">
                  {message(errors.price)}
                </p>
              ) : null}
            </>
          )}
          {d.quantityMax > 1 ? (
            <Field
              label={t("checkout.quantity")}
              name="quantity"
              type="number"
              min={1}
              max={d.quantityMax}
              inputMode="numeric"
              defaultValue={values.quantity ?? "1"}
              onChange={(e) => setQuantity(Number(e.currentTarget.value))}
              error={errors.quantity}
              hint={t("checkout.quantity_hint")}
            />
          ) : null}
          {d.lowestPrice30Days !== null ? (
            <p className="text-sm text-slate-600" data-lowest-price>
              {t("checkout.lowest_price", {
                price: money(d.lowestPrice30Days),
              })}
            </p>
          ) : null}
        </Card>

        <Card className="space-y-4 p-5">
          <h2 className="text-lg font-semibold">{t("checkout.buyer")}</h2>
          {d.user ? (
            <p className="text-sm text-slate-700" data-checkout-buyer>
              {t("checkout.signed_in_as", {
                name: d.user.name,
                email: d.user.email,
              })}
            </p>
          ) : (
            <CheckoutAccount
              values={values}
              errors={errors}
              mode={mode}
              onMode={setMode}
              hydrated={hydrated}
            />
          )}
          <CheckoutInvoice
            values={values}
            errors={errors}
            invoice={invoice}
            onInvoice={setInvoice}
            showAddress={showAddress || !hydrated}
            defaultCountry={d.defaultCountry}
            hydrated={hydrated}
          />
        </Card>

        {d.product.kind === "physical" ? (
          <Card className="space-y-4 p-5">
            <h2 className="text-lg font-semibold">{t("checkout.shipping")}</h2>
            {(["parcel_locker", "courier"] as const).map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="shipmentType"
                  value={type}
                  defaultChecked={shipment === type}
                  onChange={() => setShipment(type)}
                />
                {t(`checkout.shipping.${type}`)} —{" "}
                {money(
                  (type === "parcel_locker"
                    ? d.product.lockerPrice
                    : d.product.courierPrice) ?? 0
                )}
              </label>
            ))}
            {message(errors.shipmentType) ? (
              <p className="text-sm text-red-700">
                {message(errors.shipmentType)}
              </p>
            ) : null}
            {shipment === "parcel_locker" || !hydrated ? (
              <Field
                label={t("checkout.parcel_locker_code")}
                name="parcelLockerCode"
                maxLength={20}
                defaultValue={values.parcelLockerCode}
                error={errors.parcelLockerCode}
                placeholder="KRA01M"
              />
            ) : null}
            {!hydrated ? (
              <p className="text-xs text-slate-500">
                {t("checkout.shipping_hint")}
              </p>
            ) : null}
          </Card>
        ) : null}

        {d.bump ? (
          <Card className="p-5" data-order-bump>
            <label className="flex items-start gap-3 rounded-md bg-amber-50 p-4 ring-1 ring-amber-300">
              <input
                type="checkbox"
                name="bump"
                className="mt-1"
                defaultChecked={bump}
                onChange={(e) => setBump(e.currentTarget.checked)}
              />
              <span>
                <span className="font-semibold">
                  {t("checkout.bump_add", {
                    title: d.bump.title,
                    price: money(d.bump.amount),
                  })}
                </span>
                {d.bump.text ? (
                  <span className="mt-1 block text-sm text-slate-700">
                    {d.bump.text}
                  </span>
                ) : null}
              </span>
            </label>
          </Card>
        ) : null}

        <Card className="space-y-4 p-5" data-price-breakdown>
          <h2 className="text-lg font-semibold">{t("checkout.summary")}</h2>
          {!d.product.isFree ? (
            <CheckoutPromo
              values={{
                ...values,
                promoCode: values.promoCode ?? d.promoCookie,
              }}
              errors={errors}
              applied={
                promo
                  ? { code: promo.code, discount: breakdown.discount }
                  : null
              }
              money={money}
            />
          ) : null}
          <CheckoutBreakdown
            breakdown={breakdown}
            money={money}
            bumpTitle={bump && d.bump ? d.bump.title : null}
          />
          {d.methods.length > 1 && breakdown.total > 0 ? (
            <CheckoutMethods
              methods={d.methods}
              values={values}
              errors={errors}
            />
          ) : null}
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="terms"
              className="mt-1"
              defaultChecked={values.terms === "on"}
              aria-invalid={consentError("terms") ? true : undefined}
            />
            <span>{t("checkout.terms")}</span>
          </label>
          {consentError("terms") ? (
            <p className="text-sm text-red-700" data-error="terms">
              {consentError("terms")}
            </p>
          ) : null}
          {waiverNeeded ? (
            <>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name="waiver"
                  className="mt-1"
                  defaultChecked={values.waiver === "on"}
                  aria-invalid={consentError("waiver") ? true : undefined}
                />
                <span>{t("checkout.waiver")}</span>
              </label>
              {consentError("waiver") ? (
                <p className="text-sm text-red-700" data-error="waiver">
                  {consentError("waiver")}
                </p>
              ) : null}
            </>
          ) : null}
          <Button
            type="submit"
            name="intent"
            value="order"
            disabled={busy}
            className="w-full"
            data-checkout-submit
          >
            {breakdown.total === 0
              ? t("checkout.get_free")
              : t("checkout.pay", { amount: money(breakdown.total) })}
          </Button>
        </Card>
      </Form>
    </div>
  );
}
