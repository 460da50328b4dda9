// One school in the operator console (/operator/schools/{id}): suspend or reactivate it, its
// platform fee, its money per currency, its fee statements and its payments to check; its staff,
// counts, domains, integrations, transactions, fee history and operators' notes (issue 27 §2). The
// route keeps the loader and the intents it posts to; controls a role may not use are not shown.
import { Form, Link, useNavigation, useSearchParams } from '@remix-run/react'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { FeeStatementTable } from '#app/payments/components/fee-statement-table.tsx'
import { formatDate, formatDateTime } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney, formatMoneyInput } from '#app/utils/money.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import type { Balance } from '#app/models/balance.server.ts'
import type { FeeStatementRow } from '#app/payments/components/fee-statement-table.tsx'
import type { OperatorPermission } from '#app/operator/permissions.ts'
import type { FeeChange, RecentTransaction, SchoolCounts, SchoolDomain, SchoolIntegration, StaffMember } from '#app/models/school-overview.server.ts'
import { SchoolCountsCard, SchoolDomainsCard, SchoolFeeHistory, SchoolIntegrationsCard, SchoolStaffCard, SchoolTransactionsCard, type SignInLinkAnswer } from './school-overview.tsx'
import { SchoolNotesCard, type SchoolNote } from './school-notes.tsx'

export type OperatorSchoolData = {
  school: { id: string; name: string; slug: string; status: string; language: string; currency: string; createdAt: number }
  address: string
  fees: { basisPoints: number | null; fixed: number | null }
  defaults: { basisPoints: number; fixed: Record<string, number> }
  balances: Balance[]
  statements: FeeStatementRow[]
  mismatches: { total: number; rows: Array<{ id: string; productTitle: string; totalAmount: number; currency: string; createdAt: number; statusReason: string | null }> }
  /** What the signed-in operator's role may do here. */
  can: Record<OperatorPermission, boolean>
  staff: StaffMember[]
  counts: SchoolCounts
  domains: SchoolDomain[]
  integrations: SchoolIntegration[]
  transactions: RecentTransaction[]
  feeHistory: FeeChange[]
  notes: SchoolNote[]
}
/** A refused fee or note form (its errors and what was sent), or a refused sign-in link. */
export type OperatorSchoolAnswer = { errors?: FieldErrors; values?: Record<string, string> } | SignInLinkAnswer | undefined

export function OperatorSchoolPage({ data, actionData }: { data: OperatorSchoolData; actionData: OperatorSchoolAnswer }) {
  const [params] = useSearchParams()
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const signInLink = actionData && 'signInLink' in actionData ? actionData : null
  const errors = ((actionData as { errors?: FieldErrors } | undefined)?.errors ?? {}) as FieldErrors
  const values = ((actionData as { values?: Record<string, string> } | undefined)?.values ?? {}) as Record<string, string>
  const percent = (bps: number) => (bps / 100).toLocaleString(locale === 'pl' ? 'pl-PL' : 'en-US', { maximumFractionDigits: 2 })
  const defaultFixed = Object.entries(data.defaults.fixed)
    .map(([currency, minor]) => formatMoney(minor, currency, locale))
    .join(', ')
  const here = `/operator/schools/${data.school.id}`
  const changed = params.get('to')

  return (
    <div className="space-y-6">
      <OperatorNav />
      <Link to="/operator" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('operator.school.back')}
      </Link>
      <PageTitle subtitle={<span className="font-mono text-sm">{data.address}</span>}>{data.school.name}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} only={['fees', 'note', 'sign_in_link']} />
      {changed === 'suspended' || changed === 'active' ? (
        <Alert tone="success">{t(changed === 'suspended' ? 'operator.suspended_ok' : 'operator.reactivated_ok', { name: data.school.name })}</Alert>
      ) : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-slate-500">{t('operator.col.status')}</dt>
          <dd>{t(`operator.status.${data.school.status}`)}</dd>
          <dt className="text-slate-500">{t('operator.col.language')}</dt>
          <dd className="uppercase">{data.school.language}</dd>
          <dt className="text-slate-500">{t('operator.school.currency')}</dt>
          <dd>{data.school.currency}</dd>
          <dt className="text-slate-500">{t('operator.col.created')}</dt>
          <dd>{formatDate(data.school.createdAt, locale)}</dd>
        </dl>
        <p className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {data.can['support.act'] ? (
            <Link to={`${here}/view-as`} className="font-medium text-brand-700 hover:underline" data-view-as>
              {t('operator.view_as.title')}
            </Link>
          ) : null}
          <Link to={`${here}/data`} className="font-medium text-brand-700 hover:underline">
            {t('operator.school.data_link')}
          </Link>
          <Link to={`${here}/move`} className="font-medium text-brand-700 hover:underline">
            {t('operator.move.link')}
          </Link>
        </p>
        {data.can['schools.suspend'] ? (
          <Form method="post" className="mt-4">
            <input type="hidden" name="redirectTo" value={here} />
            <input type="hidden" name="intent" value={data.school.status === 'active' ? 'suspend' : 'reactivate'} />
            <Button type="submit" variant={data.school.status === 'active' ? 'danger' : 'secondary'}>
              {t(data.school.status === 'active' ? 'operator.suspend' : 'operator.reactivate')}
            </Button>
          </Form>
        ) : null}
      </Card>

      <SchoolStaffCard staff={data.staff} canSignInLink={data.can['support.act']} answer={signInLink} busy={busy} />
      <SchoolCountsCard counts={data.counts} />
      <SchoolDomainsCard domains={data.domains} />
      <SchoolIntegrationsCard integrations={data.integrations} />
      <SchoolNotesCard notes={data.notes} canAdd={data.can['schools.note']} errors={values.intent === 'note' ? errors : {}} value={values.intent === 'note' ? (values.body ?? '') : ''} busy={busy} />

      <Card className="space-y-4" data-fee-settings>
        <div>
          <h2 className="text-lg font-semibold">{t('operator.fees.title')}</h2>
          <p className="text-sm text-slate-600" data-fee-current>
            {t('operator.fees.current', {
              percent: percent(data.fees.basisPoints ?? data.defaults.basisPoints),
              fixed: data.fees.fixed !== null ? formatMoneyInput(data.fees.fixed, locale) : defaultFixed,
            })}
          </p>
          <p className="text-sm text-slate-600">{t('operator.fees.free')}</p>
        </div>
        {data.can['schools.fees'] ? (
          <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start" noValidate>
            <input type="hidden" name="intent" value="fees" />
            <Field
              label={t('operator.fees.percent')}
              name="feePercent"
              inputMode="decimal"
              maxLength={20}
              autoComplete="off"
              placeholder={percent(data.defaults.basisPoints)}
              defaultValue={values.intent === 'fees' ? values.feePercent : data.fees.basisPoints !== null ? percent(data.fees.basisPoints) : ''}
              hint={t('operator.fees.percent_hint', { percent: percent(data.defaults.basisPoints) })}
              error={errors.feePercent}
            />
            <Field
              label={t('operator.fees.fixed')}
              name="feeFixed"
              inputMode="decimal"
              maxLength={20}
              autoComplete="off"
              defaultValue={values.intent === 'fees' ? values.feeFixed : data.fees.fixed !== null ? formatMoneyInput(data.fees.fixed, locale) : ''}
              hint={t('operator.fees.fixed_hint', { defaults: defaultFixed })}
              error={errors.feeFixed}
            />
            <Button type="submit" className="sm:mt-6" disabled={busy}>
              {t('operator.fees.save')}
            </Button>
          </Form>
        ) : null}
        <SchoolFeeHistory history={data.feeHistory} defaults={data.defaults} />
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">{t('operator.school.balance')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('operator.school.money_intro')}</p>
        {data.balances.length === 0 ? (
          <p className="mt-2 text-slate-600">{t('operator.school.no_sales')}</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="min-w-full divide-y divide-slate-200 text-sm" data-school-balances>
              <thead className="text-left text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-semibold">{t('operator.school.currency')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('operator.school.collected_by_platform')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.fees')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.refunds')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.on_hold')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.collected_by_school')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.fees_owed')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('operator.school.debt')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('operator.school.split')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('operator.school.fees_at_source')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.pending')}</th>
                  <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.paid')}</th>
                  <th scope="col" className="py-2 text-right font-semibold">{t('money.balance.available')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.balances.map((b) => (
                  <tr key={b.currency} data-school-balance={b.currency}>
                    <th scope="row" className="py-2 pr-4 text-left font-medium">{b.currency}</th>
                    <td className="py-2 pr-4 text-right" data-op-figure="sales">{formatMoney(b.sales, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="fees">{formatMoney(b.fees, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="refunds">{formatMoney(b.refunds, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="on-hold">{formatMoney(b.onHold, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="collected-by-school">{formatMoney(b.collectedBySchool, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="fees-owed">{formatMoney(b.feesOwed, b.currency, locale)}</td>
                    <td className={b.debt > 0 ? 'py-2 pr-4 text-right font-semibold text-amber-800' : 'py-2 pr-4 text-right'} data-op-figure="debt">{formatMoney(b.debt, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="paid-out-by-provider">{formatMoney(b.paidOutByProvider, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="fees-at-source">{formatMoney(b.feesAtSource, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="pending">{formatMoney(b.pending, b.currency, locale)}</td>
                    <td className="py-2 pr-4 text-right" data-op-figure="paid">{formatMoney(b.paid, b.currency, locale)}</td>
                    <td className="py-2 text-right font-semibold" data-op-figure="available">{formatMoney(b.available, b.currency, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Link to="/operator/withdrawals" className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">
          {t('operator.withdrawals.title')} →
        </Link>
      </Card>

      <SchoolTransactionsCard transactions={data.transactions} />

      <Card data-operator-statements>
        <h2 className="text-lg font-semibold">{t('operator.school.statements')}</h2>
        {data.statements.length === 0 ? (
          <p className="mt-2 text-slate-600">{t('operator.school.no_statements')}</p>
        ) : (
          <div className="mt-3">
            <FeeStatementTable rows={data.statements} showInvoice />
          </div>
        )}
      </Card>

      <Card data-operator-mismatches>
        <h2 className="text-lg font-semibold">{t('operator.school.mismatches')}</h2>
        {data.mismatches.rows.length === 0 ? (
          <p className="mt-2 text-slate-600">{t('operator.payments.empty')}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100 text-sm">
            {data.mismatches.rows.map((m) => (
              <li key={m.id} className="py-2" data-mismatch={m.id}>
                <span className="font-medium">{m.productTitle}</span> · {formatMoney(m.totalAmount, m.currency, locale)} · {formatDateTime(m.createdAt)}
                <div className="font-mono text-xs text-red-800">{m.statusReason ?? ''}</div>
              </li>
            ))}
          </ul>
        )}
        {data.mismatches.total > 0 ? (
          <Link to="/operator/payments" className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">
            {t('operator.payments.all')} →
          </Link>
        ) : null}
      </Card>
    </div>
  )
}
