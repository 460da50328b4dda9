// Balance and withdrawal (issue 8 item 8; seed 001 §2, §4, §5, §8, §9): the balance per currency
// with its breakdown, the payout bank account, a withdrawal request (the whole available balance of
// a currency; the database decides, see withdrawal.server.ts) and the history of withdrawals.
// Seed 001 §5: the page needs complete page settings; a withdrawal needs the bank account.
// Issue 18 §1: sales split at the provider show as paid out by it (never withdrawable), and the
// latest monthly fee statements are listed (all of them at /home/balance/statements).
import { audit, staffActor } from '#app/audit/audit.server.ts'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { ACCOUNT_INPUT_MAX, BalancePage, HOLDER_MAX } from '#app/payments/components/balance-page.tsx'
import { checkPayoutAccount, displayPayoutAccount, emptyBalance, getBalances, getPayoutAccount, inferBankAccountType, missingPageSettings, setPayoutAccount, type Balance, type PayoutAccountErrors } from '#app/models/balance.server.ts'
import { BANK_ACCOUNT_TYPES, type BankAccountType } from '#app/db/schema.server.ts'
import { listFeeStatements } from '#app/models/fee-statement.server.ts'
import { feeStatementRow } from '#app/payments/fee-statements.server.ts'
import { listWithdrawals, parseBankSnapshot, requestWithdrawal, WITHDRAWAL_PAYOUT_DAYS } from '#app/models/withdrawal.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getT } from '#app/utils/request.server.ts'
import type { Locale } from '#app/i18n/i18n.ts'
import { HOLD_DAYS } from '#app/domain/payment-confirm.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, parseForm, text } from '#app/utils/validation.ts'

const DAY_MS = 86_400_000
/** Fee statements shown on the balance page; the rest at /home/balance/statements. */
const LATEST_STATEMENTS = 3

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('bank'),
    // Issue 23 item 5: the number is checked by its type after parsing (checkPayoutAccount), each error on its field.
    // Absent (an older form, a script): IBAN or NRB, as before the types existed.
    bankAccountType: z.enum(BANK_ACCOUNT_TYPES, { message: msg('validation.in') }).optional().default('iban'),
    bankAccount: text({ max: ACCOUNT_INPUT_MAX }),
    bankSwift: z.string().max(ACCOUNT_INPUT_MAX).optional().default(''),
    bankRoutingNumber: z.string().max(ACCOUNT_INPUT_MAX).optional().default(''),
    bankAccountHolder: text({ max: HOLDER_MAX }),
  }),
  z.object({ intent: z.literal('withdraw'), currency: z.string().regex(/^[A-Z]{3}$/) }),
])

/** Field errors of checkPayoutAccount; IBAN and NRB keep the messages they had before the types. */
function bankErrors(errors: PayoutAccountErrors) {
  return Object.fromEntries(Object.entries(errors).map(([field, code]) => [field, { key: /^(iban|nrb)\./.test(code) ? `money.bank.error.${code.split('.')[1]}` : `account.bank.error.${code}` }]))
}

/** The form's first choice before an account is saved: a Polish school's NRB, else an IBAN (the other types are one click away). */
function suggestedAccountType(currency: string): BankAccountType {
  return currency === 'PLN' ? 'nrb' : 'iban'
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const title = `${getT(request, context)('money.balance.title')} · ${tenant.name}`
  const missing = await missingPageSettings(context, tenant.id)
  if (missing.length) return { title, missing, ready: null }

  const [balances, account, history, statements] = await Promise.all([
    getBalances(context.db, tenant.id, tenant.currency),
    getPayoutAccount(context.db, tenant.id),
    listWithdrawals(context.db, tenant.id),
    listFeeStatements(context.db, tenant.id, { limit: LATEST_STATEMENTS }),
  ])
  const locale = tenant.language as Locale
  // The school's own currency is always shown, even before its first sale.
  const shown: Balance[] = balances.some((b) => b.currency === tenant.currency)
    ? balances
    : [emptyBalance(tenant.currency), ...balances]
  const requestedId = new URL(request.url).searchParams.get('requested')
  const requested = requestedId ? history.find((w) => w.id === requestedId) : undefined
  return {
    title,
    missing,
    ready: {
      balances: shown,
      bank: account?.bankAccount
        ? {
            type: account.bankAccountType ?? inferBankAccountType(account.bankAccount),
            account: account.bankAccount,
            display: displayPayoutAccount({ bankAccountType: account.bankAccountType, bankAccount: account.bankAccount }),
            swift: account.bankSwift ?? '',
            routing: account.bankRoutingNumber ?? '',
            holder: account.bankAccountHolder ?? '',
          }
        : null,
      suggestedType: suggestedAccountType(tenant.currency),
      requested: requested ? { amount: requested.amount, currency: requested.currency } : null,
      payoutDays: WITHDRAWAL_PAYOUT_DAYS,
      holdDays: HOLD_DAYS,
      statements: statements.map((s) => feeStatementRow(s, locale)),
      withdrawals: history.map((w) => {
        const snapshot = parseBankSnapshot(w.bankAccount)
        return {
          id: w.id,
          amount: w.amount,
          currency: w.currency,
          status: w.status,
          account: displayPayoutAccount({ bankAccountType: snapshot.type, bankAccount: snapshot.account }),
          holder: snapshot.holder,
          swift: snapshot.swift,
          routing: snapshot.routing,
          createdAt: w.createdAt,
          dueAt: w.createdAt + WITHDRAWAL_PAYOUT_DAYS * DAY_MS,
          paidAt: w.paidAt,
        }
      }),
    },
  }
}

// Not a staffAction: the incomplete-settings 409 comes before the form is read (seed 001 §5).
export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  // The page does not exist until the page settings are complete: nor do its forms.
  if ((await missingPageSettings(context, tenant.id)).length) return formError({ form: { key: 'money.balance.incomplete_short' } }, {}, 409)
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) {
    // Every field's error at once: the account number is checked too when another field failed.
    const v = parsed.values
    const type = (BANK_ACCOUNT_TYPES as readonly string[]).includes(v.bankAccountType ?? '') ? (v.bankAccountType as BankAccountType) : 'iban'
    const account = v.intent === 'bank' && v.bankAccount?.trim() ? checkPayoutAccount({ type, account: v.bankAccount, swift: v.bankSwift, routing: v.bankRoutingNumber }) : null
    return formError({ ...(account && !account.ok ? bankErrors(account.errors) : {}), ...parsed.errors }, parsed.values)
  }
  const input = parsed.data

  if (input.intent === 'bank') {
    const checked = checkPayoutAccount({ type: input.bankAccountType, account: input.bankAccount, swift: input.bankSwift, routing: input.bankRoutingNumber })
    if (!checked.ok) {
      const { intent, bankAccountType, bankAccount, bankSwift, bankRoutingNumber, bankAccountHolder } = input
      return formError(bankErrors(checked.errors), { intent, bankAccountType, bankAccount, bankSwift, bankRoutingNumber, bankAccountHolder })
    }
    const before = await getPayoutAccount(context.db, tenant.id)
    await setPayoutAccount(context.db, tenant.id, { ...checked.value, bankAccountHolder: input.bankAccountHolder })
    // Issue 27 §5: the payout account's change, its number shown by its last four digits only.
    const masked = (account: { bankAccount: string | null; bankAccountHolder: string | null; bankAccountType?: string | null } | null) =>
      account?.bankAccount ? { account: `…${account.bankAccount.replace(/\s/g, '').slice(-4)}`, holder: account.bankAccountHolder ?? '', type: account.bankAccountType ?? '' } : null
    await audit(context, request, {
      tenantId: tenant.id,
      actor: staffActor(user),
      action: 'payout_account.update',
      target: 'bank_account',
      before: masked(before ?? null),
      after: masked({ bankAccount: checked.value.bankAccount, bankAccountHolder: input.bankAccountHolder, bankAccountType: checked.value.bankAccountType }),
    })
    return redirectWithFlash(request, '/home/balance', { done: 'bank', message: 'money.bank.saved' })
  }
  const result = await requestWithdrawal(context.db, tenant.id, { currency: input.currency, requestedBy: user.id })
  if (result.outcome === 'no_bank_account') return formError({ form: { key: 'money.withdraw.need_bank' } }, { intent: 'withdraw', currency: input.currency }, 409)
  if (result.outcome === 'nothing_available') return formError({ form: { key: 'money.withdraw.none' } }, { intent: 'withdraw', currency: input.currency }, 409)
  if (result.outcome === 'in_debt')
    return formError({ form: { key: 'money.withdraw.in_debt', values: { amount: formatMoney(result.debt, input.currency, tenant.language as Locale) } } }, { intent: 'withdraw', currency: input.currency }, 409)
  return redirect(`/home/balance?requested=${result.withdrawal.id}`)
}

export default function BalanceRoute() {
  return <BalancePage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />
}
