// /home/settings/payments (issue 8 item 3, seed 001 §3, ADR 019): the school's payment provider
// integrations and the forms to connect PayU, Stripe and (where test payments are allowed) the test provider.
// Credentials are checked with the provider before anything is written, then sealed; secrets are
// never shown back. Where test payments are not allowed (production without ALLOW_TEST_PAYMENTS,
// issue 18 §2) PayU sandbox, Stripe test keys and the test provider are refused with a field error
// before anything is called or written. Owners and admins only.
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import {
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  useSearchParams,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import {
  Alert,
  Button,
  Card,
  cx,
  Field,
  PageTitle,
  SelectField,
} from "#app/components/ui.tsx";
import type { PaymentProvider, PayoutProvider } from "#app/db/schema.server.ts";
import { listPayoutAccounts } from "#app/models/payout-account.server.ts";
import { HOLD_DAYS } from "#app/payments/confirm.ts";
import {
  platformPayuConfig,
  platformStripeConfig,
} from "#app/payments/platform-accounts.server.ts";
import {
  createIntegration,
  DuplicateIntegrationError,
  findIntegration,
  listIntegrations,
} from "#app/models/payment-integration.server.ts";
import {
  testPaymentsAllowed,
  usesTestCredentials,
} from "#app/payments/payment-mode.server.ts";
import {
  checkPayuCredentials,
  createStripeWebhook,
} from "#app/payments/provider-check.server.ts";
import { canonicalOrigin } from "#app/storefront/seo.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate } from "#app/utils/dates.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import { newId } from "#app/utils/ids.server.ts";
import { getT, requireSchool } from "#app/utils/request.server.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  formToObject,
  msg,
  parseWith,
  type FieldErrors,
  type FormValues,
} from "#app/utils/validation.ts";

const CURRENCIES = ["PLN", "EUR", "USD", "GBP"] as const;
/** Errors the integration actions (/home/settings/payments/{id}) send back in `?error=`. */
const SHOWN_ERRORS = [
  "payments.error.confirm_delete",
  "payments.error.test_mode_enable",
  "marketplace.error.not_configured",
  "marketplace.error.unavailable",
  "marketplace.error.refused",
] as const;
/** Outcomes of Coursefront payments onboarding (/home/settings/payments/stripe-connect, …/payu-marketplace) in `?done=`. */
const MARKETPLACE_DONE = [
  "stripe.enabled",
  "stripe.onboarding",
  "stripe.restricted",
  "payu.enabled",
  "payu.onboarding",
  "payu.restricted",
] as const;
const DONE = {
  created: "payments.done.created",
  enabled: "payments.done.enabled",
  disabled: "payments.done.disabled",
  deleted: "payments.done.deleted",
} as const;
/** Fields that are never echoed back into the page. */
const SECRET_FIELDS = new Set(["clientSecret", "secondKey", "secretKey"]);

const currency = z.enum(CURRENCIES);
const key = z
  .string()
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .min(1)
      .max(200)
      .regex(/^\S+$/, { message: msg("payments.error.key") })
  );

const AddSchema = z.discriminatedUnion("provider", [
  z.object({
    provider: z.literal("payu"),
    posId: z
      .string()
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1)
          .max(20)
          .regex(/^\d+$/, { message: msg("payments.error.posId") })
      ),
    clientId: z
      .string()
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1)
          .max(100)
          .regex(/^[A-Za-z0-9_.-]+$/, {
            message: msg("payments.error.clientId"),
          })
      ),
    clientSecret: key,
    secondKey: key,
    currency,
    sandbox: z.enum(["yes", "no"]),
  }),
  z.object({
    provider: z.literal("stripe"),
    secretKey: z
      .string()
      .transform((s) => s.trim())
      .pipe(
        z
          .string()
          .min(1)
          .max(255)
          .regex(/^(sk|rk)_(live|test)_[A-Za-z0-9_]{8,}$/, {
            message: msg("payments.error.stripe_key"),
          })
      ),
    currency,
  }),
  z.object({ provider: z.literal("test"), currency }),
]);

const last4 = (value: string) => `…${value.slice(-4)}`;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.pageTitle },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  const rows = await listIntegrations(context.db, tenant.id);
  const accounts = await listPayoutAccounts(context.db, tenant.id);
  const marketplaceOf = (provider: PayoutProvider, configured: boolean) => {
    const account = accounts.find((a) => a.provider === provider);
    return {
      provider,
      configured,
      ownAccount: rows.some((r) => r.provider === provider && r.enabled),
      account: account
        ? {
            ref: account.accountRef,
            status: account.status,
            detail: account.detail,
          }
        : null,
    };
  };
  return {
    marketplace: [
      marketplaceOf("stripe", !!platformStripeConfig(context)),
      marketplaceOf(
        "payu",
        !!platformPayuConfig(context) &&
          !!context.cloudflare.env.PLATFORM_PAYU_REGISTRATION_URL
      ),
    ],
    holdDays: HOLD_DAYS,
    pageTitle: `${getT(request, context)("payments.title")} · ${tenant.name}`,
    defaultCurrency: (CURRENCIES as readonly string[]).includes(tenant.currency)
      ? tenant.currency
      : "PLN",
    testProviderAllowed: testPaymentsAllowed(context.cloudflare.env),
    // Only what is safe to show: never the sealed credentials.
    integrations: rows.map((r) => ({
      id: r.id,
      provider: r.provider,
      currency: r.currency,
      account: r.publicRef,
      enabled: r.enabled,
      createdAt: r.createdAt,
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  let input: Record<string, string>;
  try {
    input = formToObject(await request.formData());
  } catch {
    return formError({ form: { key: "validation.invalid" } }, {}, 400);
  }
  const echo: FormValues = Object.fromEntries(
    Object.entries(input)
      .filter(([k]) => !SECRET_FIELDS.has(k))
      .map(([k, v]) => [k, v.slice(0, 200)])
  );
  const refuse = (errors: FieldErrors, status = 422) =>
    formError(errors, echo, status);
  const testAllowed = testPaymentsAllowed(context.cloudflare.env);
  if (input.provider === "test" && !testAllowed)
    return refuse({ provider: { key: "payments.error.test_provider" } });
  const parsed = parseWith(AddSchema, input);
  if (!parsed.ok) return refuse(parsed.errors);
  const data = parsed.data;
  // Test credentials where only real payments are taken: refused before the provider is asked.
  if (
    !testAllowed &&
    data.provider === "payu" &&
    usesTestCredentials("payu", { sandbox: String(data.sandbox === "yes") })
  )
    return refuse({ sandbox: { key: "payments.error.sandbox_not_allowed" } });
  if (
    !testAllowed &&
    data.provider === "stripe" &&
    usesTestCredentials("stripe", { secretKey: data.secretKey })
  )
    return refuse({ secretKey: { key: "payments.error.stripe_test_key" } });
  const sealingKey = context.cloudflare.env.INTEGRATIONS_KEY;
  if (!sealingKey)
    return refuse({ form: { key: "payments.error.not_configured" } }, 503);
  const providerName = getT(
    request,
    context
  )(`payments.provider.${data.provider}`);
  const duplicate = {
    currency: {
      key: "payments.error.duplicate",
      values: { provider: providerName, currency: data.currency },
    },
  };
  // Checked before asking the provider: a duplicate must not leave a webhook endpoint behind.
  if (
    await findIntegration(context.db, tenant.id, data.provider, data.currency)
  )
    return refuse(duplicate, 409);

  const id = newId();
  let credentials: Record<string, string> = {};
  let publicRef = "";
  if (data.provider === "payu") {
    const check = await checkPayuCredentials(context, {
      clientId: data.clientId,
      clientSecret: data.clientSecret,
      sandbox: data.sandbox === "yes",
    });
    if (!check.ok) {
      if (check.reason === "test_mode")
        return refuse({
          sandbox: { key: "payments.error.sandbox_not_allowed" },
        });
      if (check.reason === "refused")
        return refuse({ clientSecret: { key: "payments.error.payu_refused" } });
      return refuse(
        {
          form: {
            key: "payments.error.unavailable",
            values: { provider: providerName },
          },
        },
        502
      );
    }
    credentials = {
      posId: data.posId,
      clientId: data.clientId,
      clientSecret: data.clientSecret,
      secondKey: data.secondKey,
      sandbox: String(data.sandbox === "yes"),
    };
    publicRef = data.sandbox === "yes" ? `${data.posId} · sandbox` : data.posId;
  } else if (data.provider === "stripe") {
    // The endpoint names this integration, so the id exists before the row does.
    const notifyUrl = `${canonicalOrigin(
      request,
      context
    )}/payments/stripe/${id}/notify`;
    const webhook = await createStripeWebhook(
      context,
      data.secretKey,
      notifyUrl
    );
    if (!webhook.ok) {
      if (webhook.reason === "test_mode")
        return refuse({ secretKey: { key: "payments.error.stripe_test_key" } });
      if (webhook.reason === "refused")
        return refuse({ secretKey: { key: "payments.error.stripe_refused" } });
      if (webhook.reason === "rejected_url")
        return refuse({
          form: {
            key: "payments.error.stripe_url",
            values: { url: notifyUrl },
          },
        });
      return refuse(
        {
          form: {
            key: "payments.error.unavailable",
            values: { provider: providerName },
          },
        },
        502
      );
    }
    credentials = {
      secretKey: data.secretKey,
      webhookSecret: webhook.webhookSecret,
      webhookEndpointId: webhook.endpointId,
    };
    publicRef = last4(data.secretKey);
  }
  try {
    await createIntegration(context.db, sealingKey, tenant.id, {
      id,
      provider: data.provider,
      currency: data.currency,
      credentials,
      publicRef,
    });
  } catch (error) {
    if (error instanceof DuplicateIntegrationError)
      return refuse(duplicate, 409);
    throw error;
  }
  throw redirect("/home/settings/payments?done=created", 303);
}

type ActionData = { errors: FieldErrors; values: FormValues };

function ProviderForm({
  provider,
  title,
  intro,
  action,
  children,
}: {
  provider: PaymentProvider;
  title: string;
  intro: string;
  action: ActionData | undefined;
  children: ReactNode;
}) {
  const t = useT();
  const message = useFieldMessage();
  const navigation = useNavigation();
  const mine = action?.values.provider === provider;
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("provider") === provider;
  return (
    <Card data-payment-form={provider}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{intro}</p>
      {mine && action?.errors.form ? (
        <div className="mt-3" data-form-error>
          <Alert>{message(action.errors.form)}</Alert>
        </div>
      ) : null}
      {/* Keyed by the answer, so a refused form keeps what was typed (secrets excepted) and a new one starts clean. */}
      <Form
        method="post"
        className="mt-4 grid gap-4 sm:grid-cols-2"
        key={mine ? "answered" : "fresh"}
      >
        <input type="hidden" name="provider" value={provider} />
        {children}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {t("payments.add.submit")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

type MarketplaceRow = {
  provider: PayoutProvider;
  configured: boolean;
  ownAccount: boolean;
  account: {
    ref: string;
    status: "onboarding" | "enabled" | "restricted";
    detail: string;
  } | null;
};

const ONBOARDING_PATH: Record<PayoutProvider, string> = {
  stripe: "/home/settings/payments/stripe-connect",
  payu: "/home/settings/payments/payu-marketplace",
};

/** Coursefront payments: the platform's Stripe Connect and PayU Marketplace, and this school's payouts there. */
function MarketplaceCard({
  marketplace,
  holdDays,
}: {
  marketplace: MarketplaceRow[];
  holdDays: number;
}) {
  const t = useT();
  const navigation = useNavigation();
  const button = (row: MarketplaceRow) => {
    const status = row.account?.status;
    if (row.provider === "stripe")
      return t(
        !status
          ? "marketplace.stripe.start"
          : status === "onboarding"
          ? "marketplace.stripe.continue"
          : "marketplace.stripe.update"
      );
    return t(
      !status
        ? "marketplace.payu.start"
        : status === "enabled"
        ? "marketplace.payu.check"
        : "marketplace.payu.continue"
    );
  };
  return (
    <Card data-marketplace>
      <h2 className="text-lg font-semibold">{t("marketplace.title")}</h2>
      <p className="mt-1 text-sm text-slate-600">
        {t("marketplace.intro", { days: holdDays })}
      </p>
      <ul className="mt-4 divide-y divide-slate-100">
        {marketplace.map((row) => {
          const status = row.account?.status ?? "none";
          const busy =
            navigation.state === "submitting" &&
            navigation.formAction === ONBOARDING_PATH[row.provider];
          return (
            <li
              key={row.provider}
              className="flex flex-wrap items-center justify-between gap-3 py-3"
              data-marketplace-provider={row.provider}
              data-payout-status={status}
            >
              <div>
                <h3 className="font-medium">
                  {t(`marketplace.${row.provider}.title`)}
                </h3>
                {!row.configured ? (
                  <p className="text-sm text-slate-600">
                    {t("marketplace.not_offered")}
                  </p>
                ) : row.ownAccount ? (
                  <p className="text-sm text-slate-600">
                    {t("marketplace.own_account", {
                      provider: t(`payments.provider.${row.provider}`),
                    })}
                  </p>
                ) : (
                  <>
                    <p className="text-sm">
                      <span
                        className={cx(
                          "rounded px-2 py-0.5 text-xs font-semibold",
                          status === "enabled"
                            ? "bg-emerald-100 text-emerald-800"
                            : status === "restricted"
                            ? "bg-amber-100 text-amber-900"
                            : "bg-slate-100 text-slate-700"
                        )}
                      >
                        {t(`marketplace.status.${status}`)}
                      </span>
                      {row.account ? (
                        <span className="ml-2 font-mono text-xs text-slate-500">
                          {t("marketplace.account", {
                            account: row.account.ref,
                          })}
                        </span>
                      ) : null}
                    </p>
                    {row.account?.detail && status !== "enabled" ? (
                      <p className="mt-1 text-sm text-slate-600">
                        {t("marketplace.detail", {
                          detail: row.account.detail,
                        })}
                      </p>
                    ) : null}
                  </>
                )}
              </div>
              {row.configured && !row.ownAccount ? (
                <Form method="post" action={ONBOARDING_PATH[row.provider]}>
                  <Button
                    type="submit"
                    variant={status === "enabled" ? "secondary" : "primary"}
                    disabled={busy}
                  >
                    {button(row)}
                  </Button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

export default function PaymentSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const action = useActionData<ActionData>();
  const [params] = useSearchParams();
  const t = useT();
  const message = useFieldMessage();
  const locale = useLocale();
  const done = params.get("done");
  const doneKey =
    !action && done
      ? done in DONE
        ? DONE[done as keyof typeof DONE]
        : (MARKETPLACE_DONE as readonly string[]).includes(done)
        ? (`marketplace.done.${done}` as const)
        : null
      : null;
  const errorKey = !action ? params.get("error") : null;
  const fieldsOf = (provider: PaymentProvider) =>
    action?.values.provider === provider ? action : undefined;
  const currencyField = (provider: PaymentProvider) => (
    <SelectField
      label={t("payments.field.currency")}
      name="currency"
      defaultValue={fieldsOf(provider)?.values.currency ?? data.defaultCurrency}
      error={fieldsOf(provider)?.errors.currency}
      options={CURRENCIES.map((c) => ({ value: c, label: c }))}
    />
  );
  const payu = fieldsOf("payu");
  const stripe = fieldsOf("stripe");
  return (
    <div className="space-y-6">
      <InstructorNav />
      <PageTitle subtitle={t("payments.intro")}>
        {t("payments.title")}
      </PageTitle>
      {doneKey ? (
        <div data-done={done}>
          <Alert tone="success">{t(doneKey)}</Alert>
        </div>
      ) : null}
      {errorKey && (SHOWN_ERRORS as readonly string[]).includes(errorKey) ? (
        <div data-page-error={errorKey}>
          <Alert>{t(errorKey)}</Alert>
        </div>
      ) : null}
      <MarketplaceCard
        marketplace={data.marketplace}
        holdDays={data.holdDays}
      />
      <Card>
        <h2 className="text-lg font-semibold">{t("payments.list.title")}</h2>
        {data.integrations.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            {t("payments.list.empty")}
          </p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <p className="mb-3 text-sm text-slate-500">
              {t("payments.list.count", { count: data.integrations.length })}
            </p>
            <table
              className="min-w-full text-left text-sm"
              data-payment-integrations
            >
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t("payments.col.provider")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("payments.col.currency")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("payments.col.account")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("payments.col.status")}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t("payments.col.added")}
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">{t("payments.col.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.integrations.map((i) => (
                  <tr
                    key={i.id}
                    data-payment-integration={`${i.provider}-${i.currency}`}
                    data-integration-id={i.id}
                  >
                    <td className="py-2 pr-4 font-medium">
                      {t(`payments.provider.${i.provider}`)}
                    </td>
                    <td className="py-2 pr-4 font-mono">{i.currency}</td>
                    <td className="py-2 pr-4 font-mono text-slate-600">
                      {i.account}
                    </td>
                    <td className="py-2 pr-4">
                      <span
                        className={cx(
                          "rounded px-2 py-0.5 text-xs font-semibold",
                          i.enabled
                            ? "bg-emerald-100 text-emerald-800"
                            : "bg-slate-100 text-slate-700"
                        )}
                        data-integration-status={
                          i.enabled ? "enabled" : "disabled"
                        }
                      >
                        {t(
                          i.enabled
                            ? "payments.status.enabled"
                            : "payments.status.disabled"
                        )}
                      </span>
                    </td>
                    <td className="py-2 pr-4 whitespace-nowrap">
                      {formatDate(i.createdAt, locale)}
                    </td>
                    <td className="py-2">
                      <div className="flex flex-wrap items-end gap-2">
                        <Form
                          method="post"
                          action={`/home/settings/payments/${i.id}`}
                        >
                          <input
                            type="hidden"
                            name="intent"
                            value={i.enabled ? "disable" : "enable"}
                          />
                          <Button type="submit" variant="secondary">
                            {t(
                              i.enabled ? "payments.disable" : "payments.enable"
                            )}
                          </Button>
                        </Form>
                        <Form
                          method="post"
                          action={`/home/settings/payments/${i.id}`}
                          className="flex items-end gap-2"
                          data-delete-integration
                        >
                          <input type="hidden" name="intent" value="delete" />
                          <label className="text-xs text-slate-600">
                            <span className="block">
                              {t("payments.delete.confirm_label")}
                            </span>
                            <input
                              name="confirm"
                              autoComplete="off"
                              className="mt-1 w-28 rounded-md border border-slate-300 px-2 py-1 text-sm"
                              title={t("payments.delete.confirm_hint")}
                            />
                          </label>
                          <Button type="submit" variant="danger">
                            {t("payments.delete")}
                          </Button>
                        </Form>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <ProviderForm
        provider="payu"
        title={t("payments.add.payu")}
        intro={t("payments.add.payu.intro")}
        action={action}
      >
        <Field
          label={t("payments.field.posId")}
          name="posId"
          inputMode="numeric"
          autoComplete="off"
          defaultValue={payu?.values.posId ?? ""}
          error={payu?.errors.posId}
        />
        <Field
          label={t("payments.field.clientId")}
          name="clientId"
          autoComplete="off"
          defaultValue={payu?.values.clientId ?? ""}
          error={payu?.errors.clientId}
        />
        <Field
          label={t("payments.field.clientSecret")}
          name="clientSecret"
          type="password"
          autoComplete="off"
          hint={t("payments.secret_hint")}
          error={payu?.errors.clientSecret}
        />
        <Field
          label={t("payments.field.secondKey")}
          name="secondKey"
          type="password"
          autoComplete="off"
          hint={t("payments.secret_hint")}
          error={payu?.errors.secondKey}
        />
        {currencyField("payu")}
        <SelectField
          label={t("payments.field.sandbox")}
          name="sandbox"
          defaultValue={payu?.values.sandbox ?? "no"}
          error={payu?.errors.sandbox}
          options={[
            { value: "no", label: t("payments.field.sandbox.no") },
            { value: "yes", label: t("payments.field.sandbox.yes") },
          ]}
        />
      </ProviderForm>

      <ProviderForm
        provider="stripe"
        title={t("payments.add.stripe")}
        intro={t("payments.add.stripe.intro")}
        action={action}
      >
        <Field
          label={t("payments.field.secretKey")}
          name="secretKey"
          type="password"
          autoComplete="off"
          hint={t("payments.secret_hint")}
          error={stripe?.errors.secretKey}
        />
        {currencyField("stripe")}
      </ProviderForm>

      {data.testProviderAllowed ? (
        <ProviderForm
          provider="test"
          title={t("payments.add.test")}
          intro={t("payments.add.test.intro")}
          action={action}
        >
          {currencyField("test")}
        </ProviderForm>
      ) : action?.values.provider === "test" && action.errors.provider ? (
        // A test provider form posted here (no form is shown): the refusal, in the page's language.
        <div data-field-error="provider">
          <Alert>{message(action.errors.provider)}</Alert>
        </div>
      ) : null}
    </div>
  );
}
