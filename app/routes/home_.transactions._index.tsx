// The school's transactions (issue 8 item 8; seed 001 §2 "transactions"): newest first, in pages,
// filtered by status and by part of the buyer's email. Plain GET form: works without JavaScript.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { Pager } from '#app/components/pager.tsx'
import { TransactionTable } from '#app/payments/components/transaction-table.tsx'
import { Button, Card, PageTitle } from '#app/components/ui.tsx'
import type { TransactionStatus } from '#app/db/schema.server.ts'
import { listSchoolTransactions, TRANSACTIONS_PER_PAGE } from '#app/models/transaction-report.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

const EMAIL_SEARCH_MAX = 100
const TRANSACTION_STATUSES = ['pending', 'waiting', 'completed', 'failed', 'canceled', 'refunded', 'mismatch'] as const satisfies readonly TransactionStatus[]

// A bad filter in the address is dropped, never an error page.
const ListQuery = z.object({
  status: z.enum(TRANSACTION_STATUSES).optional().catch(undefined),
  email: z.string().trim().max(EMAIL_SEARCH_MAX).optional().catch(undefined),
  /** A student's id (the link from their page); only this school's rows can match it. */
  student: z.string().max(64).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const url = new URL(request.url)
  const query = ListQuery.parse(Object.fromEntries(url.searchParams))
  const email = query.email || undefined
  const student = query.student || undefined
  const { rows, total } = await listSchoolTransactions(context.db, tenant.id, { status: query.status, email, userId: student, page: query.page })
  return {
    title: `${getT(request, context)('money.transactions.title')} · ${tenant.name}`,
    rows,
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / TRANSACTIONS_PER_PAGE)),
    filters: { status: query.status ?? '', email: email ?? '', student: student ?? '' },
    statuses: TRANSACTION_STATUSES,
  }
}

export default function TransactionsPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const filtered = !!(data.filters.status || data.filters.email || data.filters.student)
  const pageHref = (page: number) => {
    const params = new URLSearchParams()
    if (data.filters.status) params.set('status', data.filters.status)
    if (data.filters.email) params.set('email', data.filters.email)
    if (data.filters.student) params.set('student', data.filters.student)
    params.set('page', String(page))
    return `?${params}`
  }
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('money.transactions.intro')}>{t('money.transactions.title')}</PageTitle>
      <Card className="space-y-4">
        <Form method="get" className="flex flex-wrap items-end gap-3" role="search" data-transaction-filters>
          {data.filters.student ? <input type="hidden" name="student" value={data.filters.student} /> : null}
          <label className="space-y-1">
            <span className="block text-sm font-medium text-slate-700">{t('money.transactions.filter.status')}</span>
            <select name="status" defaultValue={data.filters.status} className="rounded-md border border-slate-300 bg-white px-3 py-2">
              <option value="">{t('money.transactions.filter.all')}</option>
              {data.statuses.map((s) => (
                <option key={s} value={s}>
                  {t(`money.status.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex-1 space-y-1">
            <span className="block text-sm font-medium text-slate-700">{t('money.transactions.filter.email')}</span>
            <input type="search" name="email" defaultValue={data.filters.email} maxLength={EMAIL_SEARCH_MAX} className="w-full rounded-md border border-slate-300 bg-white px-3 py-2" />
          </label>
          <Button type="submit">{t('money.transactions.filter.submit')}</Button>
          {filtered ? (
            <Link to="/home/transactions" className="py-2 text-sm font-medium text-brand-700 hover:underline">
              {t('money.transactions.filter.clear')}
            </Link>
          ) : null}
        </Form>
        <p className="text-sm text-slate-600" data-transaction-count>
          {t('money.transactions.count', { count: data.total })}
        </p>
        {data.rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-slate-600" data-transactions-empty>
            {t(filtered ? 'money.transactions.none_match' : 'money.transactions.empty')}
          </p>
        ) : (
          <TransactionTable rows={data.rows} />
        )}
        <Pager page={data.page} pageCount={data.pageCount} href={pageHref} label={t('money.transactions.label')} />
      </Card>
    </div>
  )
}
