// Withdrawals of every school for the operators (issue 8 item 8; seed 001 §4 "pending after
// request, paid within 7 days"): pending ones first, oldest first, with 'Mark as paid'. Marking
// is idempotent: a second click (or a second operator) changes nothing.
import { shardDbs } from '#app/db/shards.server.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { Button, cx, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { WithdrawalAccount } from '#app/payments/components/withdrawal-account.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { displayPayoutAccount } from '#app/models/balance.server.ts'
import { listWithdrawalsForOperator, markWithdrawalPaid, parseBankSnapshot, WITHDRAWAL_PAYOUT_DAYS } from '#app/models/withdrawal.server.ts'
import { formatDate, formatDateTime } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { operatorCan } from '#app/operator/permissions.ts'
import { getT } from '#app/utils/request.server.ts'
import { parseForm, parseWith } from '#app/utils/validation.ts'
import { Pager } from '#app/components/pager.tsx'

const PAGE_SIZE = 50
const DAY_MS = 86_400_000

const FilterSchema = z.object({
  status: z.enum(['pending', 'paid']).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
})
const MarkPaidSchema = z.object({ intent: z.literal('mark_paid'), withdrawalId: z.string().min(1).max(64) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const url = new URL(request.url)
  const parsed = parseWith(FilterSchema, Object.fromEntries(url.searchParams))
  const filters = parsed.ok ? parsed.data : {}
  const page = filters.page ?? 1
  const { rows, total } = await listWithdrawalsForOperator(context.control, shardDbs(context.cloudflare.env), { status: filters.status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })
  const now = Date.now()
  return {
    title: `${getT(request, context)('operator.withdrawals.title')} · Coursefront`,
    status: filters.status ?? '',
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    payoutDays: WITHDRAWAL_PAYOUT_DAYS,
    canPay: operatorCan(operator.role, 'withdrawals.pay'),
    rows: rows.map(({ withdrawal: w, school }) => {
      const snapshot = parseBankSnapshot(w.bankAccount)
      const dueAt = w.createdAt + WITHDRAWAL_PAYOUT_DAYS * DAY_MS
      return {
        id: w.id,
        school,
        amount: w.amount,
        currency: w.currency,
        account: displayPayoutAccount({ bankAccountType: snapshot.type, bankAccount: snapshot.account }),
        holder: snapshot.holder,
        swift: snapshot.swift,
        routing: snapshot.routing,
        status: w.status,
        createdAt: w.createdAt,
        dueAt,
        overdue: w.status === 'pending' && dueAt < now,
        paidAt: w.paidAt,
      }
    }),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, 'withdrawals.pay')
  const parsed = await parseForm(MarkPaidSchema, request)
  if (!parsed.ok) throw new Response('Bad Request', { status: 400 })
  const result = await markWithdrawalPaid(shardDbs(context.cloudflare.env), parsed.data.withdrawalId, operator.id)
  if (result.status === 'not_found') throw new Response('Not Found', { status: 404 })
  if (result.status === 'paid') {
    await audit(context, request, {
      tenantId: result.tenantId,
      actor: operatorActor(operator),
      action: 'withdrawal.paid',
      target: parsed.data.withdrawalId,
      before: { status: 'pending' },
      after: { status: 'paid', amount: result.amount, currency: result.currency },
    })
  }
  const flash = result.status === 'paid' ? { done: 'paid', message: 'operator.withdrawals.paid_ok' } : { done: 'already', message: 'operator.withdrawals.already', tone: 'info' as const }
  return redirectWithFlash(request, '/operator/withdrawals', flash)
}

export default function OperatorWithdrawals() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  const busy = useNavigation().state === 'submitting'
  const pageLink = (page: number) => {
    const query = new URLSearchParams()
    if (data.status) query.set('status', data.status)
    query.set('page', String(page))
    return `/operator/withdrawals?${query}`
  }
  return (
    <div className="space-y-6">
      <OperatorNav />
      <PageTitle subtitle={t('operator.withdrawals.intro', { days: data.payoutDays })}>{t('operator.withdrawals.title')}</PageTitle>
      <FlashMessage />
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <label>
          <span className="sr-only">{t('operator.col.status')}</span>
          <select name="status" defaultValue={data.status} className="rounded-md border border-slate-300 bg-white px-3 py-2">
            <option value="">{t('operator.schools.status_all')}</option>
            <option value="pending">{t('money.withdrawal.status.pending')}</option>
            <option value="paid">{t('money.withdrawal.status.paid')}</option>
          </select>
        </label>
        <Button type="submit" variant="secondary">
          {t('operator.withdrawals.filter')}
        </Button>
        <span className="text-sm text-slate-600">{t('operator.withdrawals.count', { count: data.total })}</span>
      </Form>
      {data.rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-withdrawals-empty>
          {t('operator.withdrawals.empty')}
        </p>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
          <DataTable
            data-operator-withdrawals
            rows={data.rows}
            rowKey={(w) => w.id}
            rowProps={(w) => ({ 'data-withdrawal': w.id, 'data-withdrawal-school': w.school.slug, 'data-withdrawal-status': w.status })}
            columns={[
              {
                key: 'school',
                header: t('operator.col.name'),
                cell: (w) => (
                  <Link to={`/operator/schools/${w.school.id}`} className="font-medium text-brand-700 hover:underline">
                    {w.school.name}
                  </Link>
                ),
              },
              { key: 'amount', header: t('money.withdrawals.col.amount'), className: 'text-right whitespace-nowrap font-semibold', cell: (w) => formatMoney(w.amount, w.currency, locale) },
              {
                key: 'account',
                header: t('money.withdrawals.col.account'),
                cell: (w) => <WithdrawalAccount account={w.account} holder={w.holder} swift={w.swift} routing={w.routing} />,
              },
              {
                key: 'requested',
                header: t('money.withdrawals.col.requested'),
                className: 'whitespace-nowrap',
                cell: (w) => (
                  <>
                    {formatDateTime(w.createdAt)}
                    {w.status === 'pending' ? (
                      <div className={cx('text-xs', w.overdue ? 'font-semibold text-red-700' : 'text-slate-500')}>
                        {t(w.overdue ? 'operator.withdrawals.overdue' : 'money.withdrawals.due', { date: formatDate(w.dueAt, locale) })}
                      </div>
                    ) : null}
                  </>
                ),
              },
              {
                key: 'status',
                header: t('money.withdrawals.col.status'),
                cell: (w) => (
                  <>
                    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', w.status === 'paid' ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-800')}>
                      {t(`money.withdrawal.status.${w.status}`)}
                    </span>
                    {w.paidAt ? <div className="text-xs text-slate-500">{formatDate(w.paidAt, locale)}</div> : null}
                  </>
                ),
              },
              {
                key: 'actions',
                header: t('operator.col.actions'),
                cell: (w) =>
                  w.status === 'pending' && data.canPay ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="mark_paid" />
                      <input type="hidden" name="withdrawalId" value={w.id} />
                      <Button type="submit" disabled={busy}>
                        {t('operator.withdrawals.mark_paid')}
                      </Button>
                    </Form>
                  ) : null,
              },
            ]}
          />
        </div>
      )}
      <Pager page={data.page} pageCount={data.pages} href={pageLink} />
    </div>
  )
}
