// One school in the operator console: suspend or reactivate it, set its platform fee (seed 001 §1:
// percentage + fixed amount per sale; empty = the platform default) and see its money (issue 18 §1):
// per currency what Coursefront collected and holds, what is on hold, the fees owed on the school's
// own sales and any debt, withdrawals, what the provider paid out on split sales; its monthly fee
// statements; its payments to check (mismatch).
import {
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
  useSearchParams,
} from "@remix-run/react";
import { z } from "zod";
import { OperatorNav } from "#app/components/operator-nav.tsx";
import { Alert, Button, Card, Field, PageTitle } from "#app/components/ui.tsx";
import { FeeStatementTable } from "#app/components/fee-statement-table.tsx";
import type { Locale } from "#app/i18n/i18n.ts";
import {
  getBalances,
  listMismatchesForOperator,
} from "#app/models/balance.server.ts";
import { listFeeStatements } from "#app/models/fee-statement.server.ts";
import { monthLabel } from "#app/payments/fee-statements.server.ts";
import {
  FEE_FIXED_MAX,
  parsePercent,
  setFeeOverride,
} from "#app/models/fee-settings.server.ts";
import { getTenantById, setTenantStatus } from "#app/models/tenant.server.ts";
import {
  DEFAULT_FEE_BASIS_POINTS,
  DEFAULT_FEE_FIXED,
} from "#app/payments/pricing.ts";
import { formatDate, formatDateTime } from "#app/utils/dates.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import {
  formatMoney,
  formatMoneyInput,
  optionalMoney,
} from "#app/utils/money.ts";
import { requireOperator } from "#app/auth/operator-auth.server.ts";
import { getLocale, getT, notFound } from "#app/utils/request.server.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  msg,
  parseForm,
  safeRedirect,
  type FieldErrors,
} from "#app/utils/validation.ts";

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.enum(["suspend", "reactivate"]),
    redirectTo: z.string().max(500).optional().catch(undefined),
  }),
  z.object({
    intent: z.literal("fees"),
    feePercent: z
      .string()
      .max(20)
      .optional()
      .transform((value, ctx) => {
        const parsed = parsePercent(value ?? "");
        if (parsed.ok) return parsed.value;
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: msg("operator.fees.error.percent"),
        });
        return z.NEVER;
      }),
    feeFixed: optionalMoney().pipe(
      z
        .number()
        .max(FEE_FIXED_MAX, {
          message: msg("operator.fees.error.fixed", {
            max: FEE_FIXED_MAX / 100,
          }),
        })
        .nullable()
    ),
  }),
]);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context);
  const tenant = await getTenantById(context.db, params.tenantId ?? "");
  if (!tenant) notFound();
  const [balances, statements, mismatches] = await Promise.all([
    getBalances(context.db, tenant.id, tenant.currency),
    listFeeStatements(context.db, tenant.id, { limit: 12 }),
    listMismatchesForOperator(context.db, { tenantId: tenant.id, limit: 20 }),
  ]);
  const locale: Locale = getLocale(request, context);
  return {
    title: `${tenant.name} · ${getT(
      request,
      context
    )("operator.schools.title")} · Coursefront`,
    school: {
      id: tenant.id,
      name: tenant.name,
      slug: tenant.slug,
      status: tenant.status,
      language: tenant.language,
      currency: tenant.currency,
      createdAt: tenant.createdAt,
    },
    address: `${tenant.slug}.${context.cloudflare.env.PLATFORM_HOST}`,
    fees: { basisPoints: tenant.feeBasisPoints, fixed: tenant.feeFixed },
    defaults: {
      basisPoints: DEFAULT_FEE_BASIS_POINTS,
      fixed: DEFAULT_FEE_FIXED,
    },
    balances,
    statements: statements.map((st) => ({
      id: st.id,
      month: monthLabel(st.month, locale),
      currency: st.currency,
      salesCount: st.salesCount,
      salesAmount: st.salesAmount,
      feesAmount: st.feesAmount,
      coveredAmount: st.coveredAmount,
      owedAmount: st.owedAmount,
      invoiceStatus: st.invoiceStatus,
      invoiceNumber: st.invoiceNumber,
    })),
    mismatches: {
      total: mismatches.total,
      rows: mismatches.rows.map(({ school: _school, ...row }) => row),
    },
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireOperator(request, context);
  const tenant = await getTenantById(context.db, params.tenantId ?? "");
  if (!tenant) notFound();
  const parsed = await parseForm(ActionSchema, request);
  if (!parsed.ok) {
    if (parsed.values.intent === "fees")
      return formError(parsed.errors, parsed.values);
    throw new Response("Bad Request", { status: 400 });
  }
  const input = parsed.data;
  if (input.intent === "fees") {
    await setFeeOverride(context.db, tenant.id, {
      feeBasisPoints: input.feePercent,
      feeFixed: input.feeFixed,
    });
    return redirect(`/operator/schools/${tenant.id}?done=fees`);
  }
  const status = input.intent === "suspend" ? "suspended" : "active";
  await setTenantStatus(context.db, tenant.id, status);
  // This isolate forgets the school at once; others within the cache TTL (60 s).
  context.siteCache.invalidateTenant(tenant.id);
  const back = safeRedirect(input.redirectTo, "/operator", request);
  const sep = back.includes("?") ? "&" : "?";
  return redirect(
    `${back}${sep}changed=${encodeURIComponent(tenant.id)}&to=${status}`
  );
}

export default function OperatorSchoolPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const t = useT();
  const locale = useLocale();
  const message = useFieldMessage();
  const busy = useNavigation().state === "submitting";
  const errors = ((actionData as { errors?: FieldErrors } | undefined)
    ?.errors ?? {}) as FieldErrors;
  const values = ((
    actionData as { values?: Record<string, string> } | undefined
  )?.values ?? {}) as Record<string, string>;
  const percent = (bps: number) =>
    (bps / 100).toLocaleString(locale === "pl" ? "pl-PL" : "en-US", {
      maximumFractionDigits: 2,
    });
  const defaultFixed = Object.entries(data.defaults.fixed)
    .map(([currency, minor]) => formatMoney(minor, currency, locale))
    .join(", ");
  const here = `/operator/schools/${data.school.id}`;
  const changed = params.get("to");

  return (
    <div className="space-y-6">
      <OperatorNav />
      <Link
        to="/operator"
        className="text-sm font-medium text-brand-700 hover:underline"
      >
        ← {t("operator.school.back")}
      </Link>
      <PageTitle
        subtitle={<span className="font-mono text-sm">{data.address}</span>}
      >
        {data.school.name}
      </PageTitle>
      {params.get("done") === "fees" && !actionData ? (
        <Alert tone="success">{t("operator.fees.saved")}</Alert>
      ) : null}
      {changed === "suspended" || changed === "active" ? (
        <Alert tone="success">
          {t(
            changed === "suspended"
              ? "operator.suspended_ok"
              : "operator.reactivated_ok",
            { name: data.school.name }
          )}
        </Alert>
      ) : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-slate-500">{t("operator.col.status")}</dt>
          <dd>{t(`operator.status.${data.school.status}`)}</dd>
          <dt className="text-slate-500">{t("operator.col.language")}</dt>
          <dd className="uppercase">{data.school.language}</dd>
          <dt className="text-slate-500">{t("operator.school.currency")}</dt>
          <dd>{data.school.currency}</dd>
          <dt className="text-slate-500">{t("operator.col.created")}</dt>
          <dd>{formatDate(data.school.createdAt, locale)}</dd>
        </dl>
        <Form method="post" className="mt-4">
          <input type="hidden" name="redirectTo" value={here} />
          <input
            type="hidden"
            name="intent"
            value={data.school.status === "active" ? "suspend" : "reactivate"}
          />
          <Button
            type="submit"
            variant={data.school.status === "active" ? "danger" : "secondary"}
          >
            {t(
              data.school.status === "active"
                ? "operator.suspend"
                : "operator.reactivate"
            )}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-4" data-fee-settings>
        <div>
          <h2 className="text-lg font-semibold">{t("operator.fees.title")}</h2>
          <p className="text-sm text-slate-600" data-fee-current>
            {t("operator.fees.current", {
              percent: percent(
                data.fees.basisPoints ?? data.defaults.basisPoints
              ),
              fixed:
                data.fees.fixed !== null
                  ? formatMoneyInput(data.fees.fixed, locale)
                  : defaultFixed,
            })}
          </p>
          <p className="text-sm text-slate-600">{t("operator.fees.free")}</p>
        </div>
        <Form
          method="post"
          className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start"
          noValidate
        >
          <input type="hidden" name="intent" value="fees" />
          <Field
            label={t("operator.fees.percent")}
            name="feePercent"
            inputMode="decimal"
            maxLength={20}
            autoComplete="off"
            placeholder={percent(data.defaults.basisPoints)}
            defaultValue={
              values.intent === "fees"
                ? values.feePercent
                : data.fees.basisPoints !== null
                ? percent(data.fees.basisPoints)
                : ""
            }
            hint={t("operator.fees.percent_hint", {
              percent: percent(data.defaults.basisPoints),
            })}
            error={errors.feePercent}
          />
          <Field
            label={t("operator.fees.fixed")}
            name="feeFixed"
            inputMode="decimal"
            maxLength={20}
            autoComplete="off"
            defaultValue={
              values.intent === "fees"
                ? values.feeFixed
                : data.fees.fixed !== null
                ? formatMoneyInput(data.fees.fixed, locale)
                : ""
            }
            hint={t("operator.fees.fixed_hint", { defaults: defaultFixed })}
            error={errors.feeFixed}
          />
          <Button type="submit" className="sm:mt-6" disabled={busy}>
            {t("operator.fees.save")}
          </Button>
        </Form>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">
          {t("operator.school.balance")}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {t("operator.school.money_intro")}
        </p>
        {data.balances.length === 0 ? (
          <p className="mt-2 text-slate-600">{t("operator.school.no_sales")}</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table
              className="min-w-full divide-y divide-slate-200 text-sm"
              data-school-balances
            >
              <thead className="text-left text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-semibold">
                    {t("operator.school.currency")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("operator.school.collected_by_platform")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("money.balance.fees")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("money.balance.refunds")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("money.balance.on_hold")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("money.balance.collected_by_school")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("money.balance.fees_owed")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("operator.school.debt")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("operator.school.split")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("operator.school.fees_at_source")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("money.balance.pending")}
                  </th>
                  <th
                    scope="col"
                    className="py-2 pr-4 text-right font-semibold"
                  >
                    {t("money.balance.paid")}
                  </th>
                  <th scope="col" className="py-2 text-right font-semibold">
                    {t("money.balance.available")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.balances.map((b) => (
                  <tr key={b.currency} data-school-balance={b.currency}>
                    <th scope="row" className="py-2 pr-4 text-left font-medium">
                      {b.currency}
                    </th>
                    <td className="py-2 pr-4 text-right" data-op-figure="sales">
                      {formatMoney(b.sales, b.currency, locale)}
                    </td>
                    <td className="py-2 pr-4 text-right" data-op-figure="fees">
                      {formatMoney(b.fees, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 pr-4 text-right"
                      data-op-figure="refunds"
                    >
                      {formatMoney(b.refunds, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 pr-4 text-right"
                      data-op-figure="on-hold"
                    >
                      {formatMoney(b.onHold, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 pr-4 text-right"
                      data-op-figure="collected-by-school"
                    >
                      {formatMoney(b.collectedBySchool, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 pr-4 text-right"
                      data-op-figure="fees-owed"
                    >
                      {formatMoney(b.feesOwed, b.currency, locale)}
                    </td>
                    <td
                      className={
                        b.debt > 0
                          ? "py-2 pr-4 text-right font-semibold text-amber-800"
                          : "py-2 pr-4 text-right"
                      }
                      data-op-figure="debt"
                    >
                      {formatMoney(b.debt, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 pr-4 text-right"
                      data-op-figure="paid-out-by-provider"
                    >
                      {formatMoney(b.paidOutByProvider, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 pr-4 text-right"
                      data-op-figure="fees-at-source"
                    >
                      {formatMoney(b.feesAtSource, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 pr-4 text-right"
                      data-op-figure="pending"
                    >
                      {formatMoney(b.pending, b.currency, locale)}
                    </td>
                    <td className="py-2 pr-4 text-right" data-op-figure="paid">
                      {formatMoney(b.paid, b.currency, locale)}
                    </td>
                    <td
                      className="py-2 text-right font-semibold"
                      data-op-figure="available"
                    >
                      {formatMoney(b.available, b.currency, locale)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Link
          to="/operator/withdrawals"
          className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline"
        >
          {t("operator.withdrawals.title")} →
        </Link>
      </Card>

      <Card data-operator-statements>
        <h2 className="text-lg font-semibold">
          {t("operator.school.statements")}
        </h2>
        {data.statements.length === 0 ? (
          <p className="mt-2 text-slate-600">
            {t("operator.school.no_statements")}
          </p>
        ) : (
          <div className="mt-3">
            <FeeStatementTable rows={data.statements} showInvoice />
          </div>
        )}
      </Card>

      <Card data-operator-mismatches>
        <h2 className="text-lg font-semibold">
          {t("operator.school.mismatches")}
        </h2>
        {data.mismatches.rows.length === 0 ? (
          <p className="mt-2 text-slate-600">{t("operator.payments.empty")}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {data.mismatches.rows.map((m) => (
              <li key={m.id} className="py-2" data-mismatch={m.id}>
                <span className="font-medium">{m.productTitle}</span> ·{" "}
                {formatMoney(m.totalAmount, m.currency, locale)} ·{" "}
                {formatDateTime(m.createdAt)}
                <div className="font-mono text-xs text-red-800">
                  {m.statusReason ?? ""}
                </div>
              </li>
            ))}
          </ul>
        )}
        {data.mismatches.total > 0 ? (
          <Link
            to="/operator/payments"
            className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline"
          >
            {t("operator.payments.all")} →
          </Link>
        ) : null}
      </Card>
    </div>
  );
}
