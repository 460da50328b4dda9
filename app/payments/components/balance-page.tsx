// The balance page (/home/balance, issue 8 item 8; seed 001 §2, §4, §5, §9): the balance per
// currency with its breakdown, the latest fee statements, the payout bank account and the
// withdrawals. The route keeps the loader and the bank / withdraw intents it posts to.
import { Form, Link, useNavigation } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'
import { FeeStatementTable } from '#app/payments/components/fee-statement-table.tsx'
import { Alert, Button, Card, cx, Field, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { WithdrawalAccount } from '#app/payments/components/withdrawal-account.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { formatDate, formatDateTime } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { Balance } from '#app/models/balance.server.ts'
import type { BankAccountType } from '#app/db/schema.server.ts'
import type { FeeStatementRow } from '#app/payments/components/fee-statement-table.tsx'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export const ACCOUNT_INPUT_MAX = 64
/** The schema's BANK_ACCOUNT_TYPES in the form's order (the schema module is server-only). */
const BANK_ACCOUNT_TYPES = ['iban', 'nrb', 'us', 'swift'] as const satisfies readonly BankAccountType[]
export const HOLDER_MAX = 70

export type BalancePageData = {
  missing: string[]
  ready: null | {
    balances: Balance[]
    bank: { type: BankAccountType; account: string; display: string; swift: string; routing: string; holder: string } | null
    suggestedType: BankAccountType
    requested: { amount: number; currency: string } | null
    payoutDays: number
    holdDays: number
    statements: FeeStatementRow[]
    withdrawals: Array<{ id: string; amount: number; currency: string; status: 'pending' | 'paid'; account: string; holder: string; swift: string | null; routing: string | null; createdAt: number; dueAt: number; paidAt: number | null }>
  }
}
/** A refused intent: its errors and what was sent (`intent` says which form). */
export type BalancePageAnswer = { errors?: FieldErrors; values?: FormValues } | undefined

/** A line of explanation under a figure's name, in words a creator understands. */
function Hint({ children }: { children: ReactNode }) {
  return <span className="mt-0.5 block text-xs font-normal text-slate-500">{children}</span>
}

export function BalancePage({ data, actionData }: { data: BalancePageData; actionData: BalancePageAnswer }) {
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const values = (actionData?.values ?? {}) as Record<string, string>

  if (!data.ready) {
    return (
      <div className="space-y-6">
        <PageTitle>{t('money.balance.title')}</PageTitle>
        {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
        <Alert tone="info">
          <span data-balance-incomplete>{t('money.balance.incomplete', { fields: data.missing.map((f) => t(`money.balance.field.${f}`)).join(', ') })}</span>{' '}
          <Link to="/home/settings/page" className="font-semibold underline">
            {t('money.balance.incomplete_link')}
          </Link>
        </Alert>
      </div>
    )
  }
  const { balances, bank, suggestedType, withdrawals, requested, payoutDays, holdDays, statements } = data.ready
  const bankErrors = values.intent === 'bank' ? errors : {}
  const withdrawError = values.intent === 'withdraw' ? errors.form : undefined

  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('money.balance.intro')}>{t('money.balance.title')}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} only={['bank']} />
      {requested && !actionData ? (
        <Alert tone="success">
          <span data-withdrawal-requested>{t('money.withdraw.created', { amount: formatMoney(requested.amount, requested.currency, locale), days: payoutDays })}</span>
        </Alert>
      ) : null}
      {withdrawError ? (
        <Alert>
          <span data-withdraw-error>{message(withdrawError)}</span>
          {withdrawError.key === 'money.withdraw.need_bank' ? (
            <>
              {' '}
              <a href="#bank" className="font-semibold underline">
                {t('money.withdraw.need_bank_link')}
              </a>
            </>
          ) : null}
        </Alert>
      ) : errors.form ? (
        <Alert>{message(errors.form)}</Alert>
      ) : null}

      <p className="text-sm text-slate-600" data-payout-promise>
        {t('money.withdraw.promise', { days: payoutDays })} {t('money.withdraw.whole')}
      </p>

      <div className="grid gap-6 lg:grid-cols-2">
        {balances.map((b) => (
          <Card key={b.currency} data-balance={b.currency}>
            <h2 className="text-lg font-semibold">{t('money.balance.currency', { currency: b.currency })}</h2>
            <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-6 gap-y-2 text-sm" aria-label={t('money.balance.label', { currency: b.currency })}>
              <dt>
                {t('money.balance.collected_by_school')} <span className="text-slate-500">({t('money.balance.sales_count', { count: b.collectedBySchoolCount })})</span>
                <Hint>{t('money.balance.collected_by_school_hint')}</Hint>
              </dt>
              <dd className="text-right" data-figure="collected-by-school">{formatMoney(b.collectedBySchool, b.currency, locale)}</dd>
              {b.paidOutByProviderCount > 0 || b.feesAtSource > 0 ? (
                <>
                  <dt>
                    {t('fee_statements.balance.paid_out_by_provider')} <span className="text-slate-500">({t('money.balance.sales_count', { count: b.paidOutByProviderCount })})</span>
                    <Hint>{t('fee_statements.balance.paid_out_by_provider_hint')}</Hint>
                  </dt>
                  <dd className="text-right" data-figure="paid-out-by-provider">{formatMoney(b.paidOutByProvider, b.currency, locale)}</dd>
                  <dt>
                    {t('fee_statements.balance.fees_at_source')}
                    <Hint>{t('fee_statements.balance.fees_at_source_hint')}</Hint>
                  </dt>
                  <dd className="text-right" data-figure="fees-at-source">{formatMoney(b.feesAtSource, b.currency, locale)}</dd>
                </>
              ) : null}
              <dt className="col-span-2 border-t border-slate-200 pt-2 font-semibold">
                {t('money.balance.held_title')}
                <Hint>{t('money.balance.held_hint', { days: holdDays })}</Hint>
              </dt>
              <dt>
                {t('money.balance.sales')} <span className="text-slate-500">({t('money.balance.sales_count', { count: b.salesCount })})</span>
              </dt>
              <dd className="text-right" data-figure="sales">{formatMoney(b.sales, b.currency, locale)}</dd>
              <dt>{t('money.balance.fees')}</dt>
              <dd className="text-right" data-figure="fees">− {formatMoney(b.fees, b.currency, locale)}</dd>
              <dt>
                {t('money.balance.refunds')} <span className="text-slate-500">({t('money.balance.refunds_count', { count: b.refundsCount })})</span>
              </dt>
              <dd className="text-right" data-figure="refunds">− {formatMoney(b.refunds, b.currency, locale)}</dd>
              <dt>
                {t('money.balance.on_hold')}
                {b.nextReleaseAt ? <Hint>{t('money.balance.on_hold_until', { date: formatDate(b.nextReleaseAt, locale) })}</Hint> : null}
              </dt>
              <dd className="text-right" data-figure="on-hold">− {formatMoney(b.onHold, b.currency, locale)}</dd>
              <dt>
                {t('money.balance.fees_owed')}
                <Hint>{t('money.balance.fees_owed_hint')}</Hint>
              </dt>
              <dd className="text-right" data-figure="fees-owed">− {formatMoney(b.feesOwed, b.currency, locale)}</dd>
              <dt>{t('money.balance.pending')}</dt>
              <dd className="text-right" data-figure="pending">− {formatMoney(b.pending, b.currency, locale)}</dd>
              <dt>{t('money.balance.paid')}</dt>
              <dd className="text-right" data-figure="paid">− {formatMoney(b.paid, b.currency, locale)}</dd>
              <dt className="border-t border-slate-200 pt-2 font-semibold">
                {t('money.balance.available')}
                <Hint>{t('fee_statements.balance.available_hint')}</Hint>
              </dt>
              <dd className="border-t border-slate-200 pt-2 text-right text-lg font-bold" data-figure="available">
                {formatMoney(b.available, b.currency, locale)}
              </dd>
            </dl>
            {b.debt > 0 ? (
              <p className="mt-3 text-sm text-amber-800" data-figure="debt">
                {t('money.balance.debt', { amount: formatMoney(b.debt, b.currency, locale) })}
              </p>
            ) : null}
            <div className="mt-4">
              {b.available > 0 ? (
                <Form method="post" data-withdraw={b.currency}>
                  <input type="hidden" name="intent" value="withdraw" />
                  <input type="hidden" name="currency" value={b.currency} />
                  <Button type="submit" disabled={busy}>
                    {t('money.withdraw.button', { amount: formatMoney(b.available, b.currency, locale) })}
                  </Button>
                  {!bank ? <p className="mt-2 text-sm text-amber-700">{t('money.withdraw.need_bank')}</p> : null}
                </Form>
              ) : (
                <p className="text-sm text-slate-600" data-withdraw-unavailable>
                  {/* In debt, say why in the school's terms rather than "no transactions". */}
                  {b.debt > 0 ? t('money.withdraw.in_debt', { amount: formatMoney(b.debt, b.currency, locale) }) : t('money.withdraw.none')}
                </p>
              )}
            </div>
          </Card>
        ))}
      </div>

      <Card className="space-y-3" data-fee-statements>
        <div>
          <h2 className="text-lg font-semibold">{t('fee_statements.title')}</h2>
          <p className="text-sm text-slate-600">{t('fee_statements.intro')}</p>
        </div>
        {statements.length === 0 ? (
          <p className="text-sm text-slate-600" data-fee-statements-empty>
            {t('fee_statements.empty')}
          </p>
        ) : (
          <>
            <FeeStatementTable rows={statements} detailsHref={(id) => `/home/balance/statements/${id}`} />
            <Link to="/home/balance/statements" className="inline-block text-sm font-medium text-brand-700 hover:underline">
              {t('fee_statements.all')} →
            </Link>
          </>
        )}
      </Card>

      <Card id="bank" className="space-y-4">
        <div>
          <h2 className="text-lg font-semibold">{t('money.bank.title')}</h2>
          <p className="text-sm text-slate-600">{t('money.bank.intro')}</p>
        </div>
        {bank ? (
          <p className="text-sm" data-bank-current data-bank-type={bank.type}>
            <span className="text-slate-500">{t('money.bank.current')}:</span> {t(`account.bank.type.${bank.type}`)} ·{' '}
            {bank.type === 'swift' ? <span className="font-mono">{bank.swift} </span> : null}
            {bank.type === 'us' ? (
              <span>
                {t('account.bank.routing_short')} <span className="font-mono">{bank.routing}</span> ·{' '}
              </span>
            ) : null}
            <span className="font-mono">{bank.display}</span> · {bank.holder}
          </p>
        ) : (
          <p className="text-sm text-slate-600" data-bank-none>
            {t('money.bank.none')}
          </p>
        )}
        <BankForm bank={bank} suggestedType={suggestedType} values={values.intent === 'bank' ? values : null} errors={bankErrors} busy={busy} />
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">{t('money.withdrawals.title')}</h2>
        {withdrawals.length === 0 ? (
          <p className="mt-2 text-slate-600" data-withdrawals-empty>
            {t('money.withdrawals.empty')}
          </p>
        ) : (
          <div className="mt-3">
            <DataTable
              data-withdrawals
              rows={withdrawals}
              rowKey={(w) => w.id}
              rowProps={(w) => ({ 'data-withdrawal': w.id, 'data-withdrawal-status': w.status })}
              columns={[
                { key: 'requested', header: t('money.withdrawals.col.requested'), className: 'whitespace-nowrap', cell: (w) => formatDateTime(w.createdAt) },
                { key: 'amount', header: t('money.withdrawals.col.amount'), className: 'text-right whitespace-nowrap', cell: (w) => formatMoney(w.amount, w.currency, locale) },
                {
                  key: 'account',
                  header: t('money.withdrawals.col.account'),
                  cell: (w) => <WithdrawalAccount account={w.account} holder={w.holder} swift={w.swift} routing={w.routing} />,
                },
                {
                  key: 'status',
                  header: t('money.withdrawals.col.status'),
                  cell: (w) => (
                    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', w.status === 'paid' ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-800')}>
                      {t(`money.withdrawal.status.${w.status}`)}
                    </span>
                  ),
                },
                { key: 'paid', header: t('money.withdrawals.col.paid'), className: 'whitespace-nowrap text-slate-600', cell: (w) => (w.paidAt ? formatDate(w.paidAt, locale) : t('money.withdrawals.due', { date: formatDate(w.dueAt, locale) })) },
              ]}
            />
          </div>
        )}
      </Card>
    </div>
  )
}

/**
 * The payout account form (issue 23 item 5): a type, then the parts that type needs. Without
 * JavaScript every field is there, each hint saying which type it is for; with it, only the
 * chosen type's fields show.
 */
function BankForm({ bank, suggestedType, values, errors, busy }: { bank: BalancePageData['ready'] extends infer R ? (R extends { bank: infer B } ? B : never) : never; suggestedType: BankAccountType; values: Record<string, string> | null; errors: FieldErrors; busy: boolean }) {
  const t = useT()
  const sent = values?.bankAccountType as BankAccountType | undefined
  const [type, setType] = useState<BankAccountType>(sent && BANK_ACCOUNT_TYPES.includes(sent) ? sent : (bank?.type ?? suggestedType))
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const value = (name: string, saved: string) => (values ? (values[name] ?? '') : saved)
  return (
    <Form method="post" className="space-y-3" noValidate data-bank-form>
      <input type="hidden" name="intent" value="bank" />
      <fieldset>
        <legend className="text-sm font-medium">{t('account.bank.type')}</legend>
        <div className="mt-1 grid gap-2 sm:grid-cols-2">
          {BANK_ACCOUNT_TYPES.map((option) => (
            <label key={option} className="flex items-start gap-2 text-sm">
              <input type="radio" name="bankAccountType" value={option} checked={type === option} onChange={() => setType(option)} className="mt-1" data-bank-type-option={option} />
              <span>
                {t(`account.bank.type.${option}`)}
                <span className="block text-xs text-slate-500">{t(`account.bank.type_hint.${option}`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div hidden={hydrated && type !== 'swift'}>
          <Field label={t('account.bank.swift')} name="bankSwift" maxLength={ACCOUNT_INPUT_MAX} autoComplete="off" spellCheck={false} hint={hydrated ? undefined : t('account.bank.swift_hint')} defaultValue={value('bankSwift', bank?.swift ?? '')} error={errors.bankSwift} />
        </div>
        <div hidden={hydrated && type !== 'us'}>
          <Field label={t('account.bank.routing')} name="bankRoutingNumber" maxLength={ACCOUNT_INPUT_MAX} inputMode="numeric" autoComplete="off" hint={hydrated ? undefined : t('account.bank.routing_hint')} defaultValue={value('bankRoutingNumber', bank?.routing ?? '')} error={errors.bankRoutingNumber} />
        </div>
        <Field
          label={t('money.bank.account')}
          name="bankAccount"
          maxLength={ACCOUNT_INPUT_MAX}
          required
          autoComplete="off"
          spellCheck={false}
          hint={hydrated ? t(`account.bank.type_hint.${type}`) : t('account.bank.account_hint')}
          defaultValue={value('bankAccount', bank?.display ?? '')}
          error={errors.bankAccount}
        />
        <Field label={t('money.bank.holder')} name="bankAccountHolder" maxLength={HOLDER_MAX} required autoComplete="name" defaultValue={value('bankAccountHolder', bank?.holder ?? '')} error={errors.bankAccountHolder} />
      </div>
      <Button type="submit" disabled={busy}>
        {t('money.bank.save')}
      </Button>
    </Form>
  )
}
