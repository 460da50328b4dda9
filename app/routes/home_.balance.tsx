// Balance and withdrawal (issue 8 item 8; seed 001 §2, §4, §5, §8, §9): the balance per currency
// with its breakdown, the payout bank account, a withdrawal request (the whole available balance of
// a currency; the database decides, see withdrawal.server.ts) and the history of withdrawals.
// Seed 001 §5: the page needs complete page settings; a withdrawal needs the bank account.
// Issue 18 §1: sales split at the provider show as paid out by it (never withdrawable), and the
// latest monthly fee statements are listed (all of them at /home/balance/statements).
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
import type { ReactNode } from "react";
import { z } from "zod";
import { FeeStatementTable } from "#app/components/fee-statement-table.tsx";
import { InstructorNav } from "#app/components/instructor-nav.tsx";
import {
  Alert,
  Button,
  Card,
  cx,
  Field,
  PageTitle,
} from "#app/components/ui.tsx";
import {
  checkBankAccount,
  emptyBalance,
  formatBankAccount,
  getBalances,
  getPayoutAccount,
  missingPageSettings,
  setPayoutAccount,
  type Balance,
} from "#app/models/balance.server.ts";
import { listFeeStatements } from "#app/models/fee-statement.server.ts";
import { monthLabel } from "#app/payments/fee-statements.server.ts";
import {
  listWithdrawals,
  parseBankSnapshot,
  requestWithdrawal,
  WITHDRAWAL_PAYOUT_DAYS,
} from "#app/models/withdrawal.server.ts";
import { requireUser } from "#app/auth/auth.server.ts";
import { formatDate, formatDateTime } from "#app/utils/dates.ts";
import { useFieldMessage, useLocale, useT } from "#app/utils/i18n-react.ts";
import { formatMoney } from "#app/utils/money.ts";
import { getT, requireSchool } from "#app/utils/request.server.ts";
import type { Locale } from "#app/i18n/i18n.ts";
import { HOLD_DAYS } from "#app/payments/confirm.ts";
import { formError } from "#app/utils/responses.server.ts";
import {
  msg,
  parseForm,
  text,
  type FieldErrors,
} from "#app/utils/validation.ts";

const ACCOUNT_INPUT_MAX = 64;
const HOLDER_MAX = 70;
const DAY_MS = 86_400_000;
/** Fee statements shown on the balance page; the rest at /home/balance/statements. */
const LATEST_STATEMENTS = 3;

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("bank"),
    bankAccount: text({ max: ACCOUNT_INPUT_MAX }).transform((value, ctx) => {
      const checked = checkBankAccount(value);
      if (checked.ok) return checked.value;
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: msg(`money.bank.error.${checked.error}`),
      });
      return z.NEVER;
    }),
    bankAccountHolder: text({ max: HOLDER_MAX }),
  }),
  z.object({
    intent: z.literal("withdraw"),
    currency: z.string().regex(/^[A-Z]{3}$/),
  }),
]);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.title },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context);
  await requireUser(request, context, ["owner", "admin"]);
  const title = `${getT(request, context)("money.balance.title")} · ${
    tenant.name
  }`;
  const missing = await missingPageSettings(context.db, tenant.id);
  if (missing.length) return { title, missing, ready: null };

  const [balances, account, history, statements] = await Promise.all([
    getBalances(context.db, tenant.id, tenant.currency),
    getPayoutAccount(context.db, tenant.id),
    listWithdrawals(context.db, tenant.id),
    listFeeStatements(context.db, tenant.id, { limit: LATEST_STATEMENTS }),
  ]);
  const locale = tenant.language as Locale;
  // The school's own currency is always shown, even before its first sale.
  const shown: Balance[] = balances.some((b) => b.currency === tenant.currency)
    ? balances
    : [emptyBalance(tenant.currency), ...balances];
  const requestedId = new URL(request.url).searchParams.get("requested");
  const requested = requestedId
    ? history.find((w) => w.id === requestedId)
    : undefined;
  return {
    title,
    missing,
    ready: {
      balances: shown,
      bank: account?.bankAccount
        ? {
            account: account.bankAccount,
            display: formatBankAccount(account.bankAccount),
            holder: account.bankAccountHolder ?? "",
          }
        : null,
      requested: requested
        ? { amount: requested.amount, currency: requested.currency }
        : null,
      payoutDays: WITHDRAWAL_PAYOUT_DAYS,
      holdDays: HOLD_DAYS,
      statements: statements.map((s) => ({
        id: s.id,
        month: monthLabel(s.month, locale),
        currency: s.currency,
        salesCount: s.salesCount,
        salesAmount: s.salesAmount,
        feesAmount: s.feesAmount,
        coveredAmount: s.coveredAmount,
        owedAmount: s.owedAmount,
      })),
      withdrawals: history.map((w) => {
        const snapshot = parseBankSnapshot(w.bankAccount);
        return {
          id: w.id,
          amount: w.amount,
          currency: w.currency,
          status: w.status,
          account: formatBankAccount(snapshot.account),
          holder: snapshot.holder,
          createdAt: w.createdAt,
          dueAt: w.createdAt + WITHDRAWAL_PAYOUT_DAYS * DAY_MS,
          paidAt: w.paidAt,
        };
      }),
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context);
  const user = await requireUser(request, context, ["owner", "admin"]);
  // The page does not exist until the page settings are complete: nor do its forms.
  if ((await missingPageSettings(context.db, tenant.id)).length)
    return formError(
      { form: { key: "money.balance.incomplete_short" } },
      {},
      409
    );
  const parsed = await parseForm(ActionSchema, request);
  if (!parsed.ok) return formError(parsed.errors, parsed.values);
  const input = parsed.data;

  if (input.intent === "bank") {
    await setPayoutAccount(context.db, tenant.id, {
      bankAccount: input.bankAccount,
      bankAccountHolder: input.bankAccountHolder,
    });
    return redirect("/home/balance?done=bank");
  }
  const result = await requestWithdrawal(context.db, tenant.id, {
    currency: input.currency,
    requestedBy: user.id,
  });
  if (result.outcome === "no_bank_account")
    return formError(
      { form: { key: "money.withdraw.need_bank" } },
      { intent: "withdraw", currency: input.currency },
      409
    );
  if (result.outcome === "nothing_available")
    return formError(
      { form: { key: "money.withdraw.none" } },
      { intent: "withdraw", currency: input.currency },
      409
    );
  if (result.outcome === "in_debt")
    return formError(
      {
        form: {
          key: "money.withdraw.in_debt",
          values: {
            amount: formatMoney(
              result.debt,
              input.currency,
              tenant.language as Locale
            ),
          },
        },
      },
      { intent: "withdraw", currency: input.currency },
      409
    );
  return redirect(`/home/balance?requested=${result.withdrawal.id}`);
}

/** A line of explanation under a figure's name, in words a creator understands. */
function Hint({ children }: { children: ReactNode }) {
  return (
    <span className="mt-0.5 block text-xs font-normal text-slate-500">
      {children}
    </span>
  );
}

export default function BalancePage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const t = useT();
  const locale = useLocale();
  const message = useFieldMessage();
  const busy = useNavigation().state === "submitting";
  const errors = (actionData?.errors ?? {}) as FieldErrors;
  const values = (actionData?.values ?? {}) as Record<string, string>;

  if (!data.ready) {
    return (
      <div className="space-y-6">
        <InstructorNav />
        <PageTitle>{t("money.balance.title")}</PageTitle>
        {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
        <Alert tone="info">
          <span data-balance-incomplete>
            {t("money.balance.incomplete", {
              fields: data.missing
                .map((f) => t(`money.balance.field.${f}`))
                .join(", "),
            })}
          </span>{" "}
          <Link to="/home/settings/page" className="font-semibold underline">
            {t("money.balance.incomplete_link")}
          </Link>
        </Alert>
      </div>
    );
  }
  const {
    balances,
    bank,
    withdrawals,
    requested,
    payoutDays,
    holdDays,
    statements,
  } = data.ready;
  const bankErrors = values.intent === "bank" ? errors : {};
  const withdrawError = values.intent === "withdraw" ? errors.form : undefined;

  return (
    <div className="space-y-6">
      <InstructorNav />
      <PageTitle subtitle={t("money.balance.intro")}>
        {t("money.balance.title")}
      </PageTitle>
      {params.get("done") === "bank" && !actionData ? (
        <Alert tone="success">{t("money.bank.saved")}</Alert>
      ) : null}
      {requested && !actionData ? (
        <Alert tone="success">
          <span data-withdrawal-requested>
            {t("money.withdraw.created", {
              amount: formatMoney(requested.amount, requested.currency, locale),
              days: payoutDays,
            })}
          </span>
        </Alert>
      ) : null}
      {withdrawError ? (
        <Alert>
          <span data-withdraw-error>{message(withdrawError)}</span>
          {withdrawError.key === "money.withdraw.need_bank" ? (
            <>
              {" "}
              <a href="#bank" className="font-semibold underline">
                {t("money.withdraw.need_bank_link")}
              </a>
            </>
          ) : null}
        </Alert>
      ) : errors.form ? (
        <Alert>{message(errors.form)}</Alert>
      ) : null}

      <p className="text-sm text-slate-600" data-payout-promise>
        {t("money.withdraw.promise", { days: payoutDays })}{" "}
        {t("money.withdraw.whole")}
      </p>

      <div className="grid gap-6 lg:grid-cols-2">
        {balances.map((b) => (
          <Card key={b.currency} data-balance={b.currency}>
            <h2 className="text-lg font-semibold">
              {t("money.balance.currency", { currency: b.currency })}
            </h2>
            <dl
              className="mt-3 grid grid-cols-[1fr_auto] gap-x-6 gap-y-2 text-sm"
              aria-label={t("money.balance.label", { currency: b.currency })}
            >
              <dt>
                {t("money.balance.collected_by_school")}{" "}
                <span className="text-slate-500">
                  (
                  {t("money.balance.sales_count", {
                    count: b.collectedBySchoolCount,
                  })}
                  )
                </span>
                <Hint>{t("money.balance.collected_by_school_hint")}</Hint>
              </dt>
              <dd className="text-right" data-figure="collected-by-school">
                {formatMoney(b.collectedBySchool, b.currency, locale)}
              </dd>
              {b.paidOutByProviderCount > 0 || b.feesAtSource > 0 ? (
                <>
                  <dt>
                    {t("fee_statements.balance.paid_out_by_provider")}{" "}
                    <span className="text-slate-500">
                      (
                      {t("money.balance.sales_count", {
                        count: b.paidOutByProviderCount,
                      })}
                      )
                    </span>
                    <Hint>
                      {t("fee_statements.balance.paid_out_by_provider_hint")}
                    </Hint>
                  </dt>
                  <dd className="text-right" data-figure="paid-out-by-provider">
                    {formatMoney(b.paidOutByProvider, b.currency, locale)}
                  </dd>
                  <dt>
                    {t("fee_statements.balance.fees_at_source")}
                    <Hint>
                      {t("fee_statements.balance.fees_at_source_hint")}
                    </Hint>
                  </dt>
                  <dd className="text-right" data-figure="fees-at-source">
                    {formatMoney(b.feesAtSource, b.currency, locale)}
                  </dd>
                </>
              ) : null}
              <dt className="col-span-2 border-t border-slate-200 pt-2 font-semibold">
                {t("money.balance.held_title")}
                <Hint>{t("money.balance.held_hint", { days: holdDays })}</Hint>
              </dt>
              <dt>
                {t("money.balance.sales")}{" "}
                <span className="text-slate-500">
                  ({t("money.balance.sales_count", { count: b.salesCount })})
                </span>
              </dt>
              <dd className="text-right" data-figure="sales">
                {formatMoney(b.sales, b.currency, locale)}
              </dd>
              <dt>{t("money.balance.fees")}</dt>
              <dd className="text-right" data-figure="fees">
                − {formatMoney(b.fees, b.currency, locale)}
              </dd>
              <dt>
                {t("money.balance.refunds")}{" "}
                <span className="text-slate-500">
                  ({t("money.balance.refunds_count", { count: b.refundsCount })}
                  )
                </span>
              </dt>
              <dd className="text-right" data-figure="refunds">
                − {formatMoney(b.refunds, b.currency, locale)}
              </dd>
              <dt>
                {t("money.balance.on_hold")}
                {b.nextReleaseAt ? (
                  <Hint>
                    {t("money.balance.on_hold_until", {
                      date: formatDate(b.nextReleaseAt, locale),
                    })}
                  </Hint>
                ) : null}
              </dt>
              <dd className="text-right" data-figure="on-hold">
                − {formatMoney(b.onHold, b.currency, locale)}
              </dd>
              <dt>
                {t("money.balance.fees_owed")}
                <Hint>{t("money.balance.fees_owed_hint")}</Hint>
              </dt>
              <dd className="text-right" data-figure="fees-owed">
                − {formatMoney(b.feesOwed, b.currency, locale)}
              </dd>
              <dt>{t("money.balance.pending")}</dt>
              <dd className="text-right" data-figure="pending">
                − {formatMoney(b.pending, b.currency, locale)}
              </dd>
              <dt>{t("money.balance.paid")}</dt>
              <dd className="text-right" data-figure="paid">
                − {formatMoney(b.paid, b.currency, locale)}
              </dd>
              <dt className="border-t border-slate-200 pt-2 font-semibold">
                {t("money.balance.available")}
                <Hint>{t("fee_statements.balance.available_hint")}</Hint>
              </dt>
              <dd
                className="border-t border-slate-200 pt-2 text-right text-lg font-bold"
                data-figure="available"
              >
                {formatMoney(b.available, b.currency, locale)}
              </dd>
            </dl>
            {b.debt > 0 ? (
              <p className="mt-3 text-sm text-amber-800" data-figure="debt">
                {t("money.balance.debt", {
                  amount: formatMoney(b.debt, b.currency, locale),
                })}
              </p>
            ) : null}
            <div className="mt-4">
              {b.available > 0 ? (
                <Form method="post" data-withdraw={b.currency}>
                  <input type="hidden" name="intent" value="withdraw" />
                  <input type="hidden" name="currency" value={b.currency} />
                  <Button type="submit" disabled={busy}>
                    {t("money.withdraw.button", {
                      amount: formatMoney(b.available, b.currency, locale),
                    })}
                  </Button>
                  {!bank ? (
                    <p className="mt-2 text-sm text-amber-700">
                      {t("money.withdraw.need_bank")}
                    </p>
                  ) : null}
                </Form>
              ) : (
                <p className="text-sm text-slate-600" data-withdraw-unavailable>
                  {/* In debt, say why in the school's terms rather than "no transactions". */}
                  {b.debt > 0
                    ? t("money.withdraw.in_debt", {
                        amount: formatMoney(b.debt, b.currency, locale),
                      })
                    : t("money.withdraw.none")}
                </p>
              )}
            </div>
          </Card>
        ))}
      </div>

      <Card className="space-y-3" data-fee-statements>
        <div>
          <h2 className="text-lg font-semibold">{t("fee_statements.title")}</h2>
          <p className="text-sm text-slate-600">{t("fee_statements.intro")}</p>
        </div>
        {statements.length === 0 ? (
          <p className="text-sm text-slate-600" data-fee-statements-empty>
            {t("fee_statements.empty")}
          </p>
        ) : (
          <>
            <FeeStatementTable
              rows={statements}
              detailsHref={(id) => `/home/balance/statements/${id}`}
            />
            <Link
              to="/home/balance/statements"
              className="inline-block text-sm font-medium text-brand-700 hover:underline"
            >
              {t("fee_statements.all")} →
            </Link>
          </>
        )}
      </Card>

      <Card id="bank" className="space-y-4">
        <div>
          <h2 className="text-lg font-semibold">{t("money.bank.title")}</h2>
          <p className="text-sm text-slate-600">{t("money.bank.intro")}</p>
        </div>
        {bank ? (
          <p className="text-sm" data-bank-current>
            <span className="text-slate-500">{t("money.bank.current")}:</span>{" "}
            <span className="font-mono">{bank.display}</span> · {bank.holder}
          </p>
        ) : (
          <p className="text-sm text-slate-600" data-bank-none>
            {t("money.bank.none")}
          </p>
        )}
        <Form
          method="post"
          className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-start"
          noValidate
          data-bank-form
        >
          <input type="hidden" name="intent" value="bank" />
          <Field
            label={t("money.bank.account")}
            name="bankAccount"
            maxLength={ACCOUNT_INPUT_MAX}
            required
            autoComplete="off"
            spellCheck={false}
            hint={t("money.bank.account_hint")}
            defaultValue={
              values.intent === "bank"
                ? values.bankAccount
                : bank?.display ?? ""
            }
            error={bankErrors.bankAccount}
          />
          <Field
            label={t("money.bank.holder")}
            name="bankAccountHolder"
            maxLength={HOLDER_MAX}
            required
            autoComplete="name"
            defaultValue={
              values.intent === "bank"
                ? values.bankAccountHolder
                : bank?.holder ?? ""
            }
            error={bankErrors.bankAccountHolder}
          />
          <Button type="submit" className="sm:mt-6" disabled={busy}>
            {t("money.bank.save")}
          </Button>
        </Form>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">
          {t("money.withdrawals.title")}
        </h2>
        {withdrawals.length === 0 ? (
          <p className="mt-2 text-slate-600" data-withdrawals-empty>
            {t("money.withdrawals.empty")}
          </p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table
              className="min-w-full divide-y divide-slate-200 text-sm"
              data-withdrawals
            >
              <thead className="bg-slate-50 text-left text-slate-600">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("money.withdrawals.col.requested")}
                  </th>
                  <th
                    scope="col"
                    className="px-3 py-2 text-right font-semibold"
                  >
                    {t("money.withdrawals.col.amount")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("money.withdrawals.col.account")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("money.withdrawals.col.status")}
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    {t("money.withdrawals.col.paid")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {withdrawals.map((w) => (
                  <tr
                    key={w.id}
                    data-withdrawal={w.id}
                    data-withdrawal-status={w.status}
                  >
                    <td className="px-3 py-2 whitespace-nowrap">
                      {formatDateTime(w.createdAt)}
                    </td>
                    <td className="px-3 py-2 text-right whitespace-nowrap">
                      {formatMoney(w.amount, w.currency, locale)}
                    </td>
                    <td className="px-3 py-2">
                      <span className="font-mono text-xs">{w.account}</span>
                      {w.holder ? (
                        <div className="text-xs text-slate-500">{w.holder}</div>
                      ) : null}
                    </td>
                    <td className="px-3 py-2">
                      <span
                        className={cx(
                          "rounded px-2 py-0.5 text-xs font-semibold",
                          w.status === "paid"
                            ? "bg-emerald-100 text-emerald-800"
                            : "bg-amber-100 text-amber-800"
                        )}
                      >
                        {t(`money.withdrawal.status.${w.status}`)}
                      </span>
                    </td>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-600">
                      {w.paidAt
                        ? formatDate(w.paidAt, locale)
                        : t("money.withdrawals.due", {
                            date: formatDate(w.dueAt, locale),
                          })}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
