// Every monthly fee statement of the school (issue 18 §1), newest first, in pages of 24: month,
// sales the school collected itself, the fees on them, what money held by Coursefront covered and
// what was still owed, and the platform's invoice when there is one.
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { FeeStatementTable } from '#app/payments/components/fee-statement-table.tsx'
import { Pager } from '#app/components/pager.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import type { Locale } from '#app/i18n/i18n.ts'
import { missingPageSettings } from '#app/models/balance.server.ts'
import { countFeeStatements, listFeeStatements, STATEMENTS_PER_PAGE } from '#app/models/fee-statement.server.ts'
import { feeStatementRow } from '#app/payments/fee-statements.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

const Query = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  // Part of the balance page, behind the same guard (seed 001 §5).
  if ((await missingPageSettings(context, tenant.id)).length) throw redirect('/home/balance')
  const { page } = Query.parse(Object.fromEntries(new URL(request.url).searchParams))
  const [rows, total] = await Promise.all([listFeeStatements(context.db, tenant.id, { limit: STATEMENTS_PER_PAGE, offset: (page - 1) * STATEMENTS_PER_PAGE }), countFeeStatements(context.db, tenant.id)])
  const locale = tenant.language as Locale
  return {
    title: `${getT(request, context)('fee_statements.title')} · ${tenant.name}`,
    page,
    pageCount: Math.max(1, Math.ceil(total / STATEMENTS_PER_PAGE)),
    statements: rows.map((s) => feeStatementRow(s, locale)),
  }
}

export default function FeeStatementsPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <Link to="/home/balance" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('fee_statements.back')}
      </Link>
      <PageTitle subtitle={t('fee_statements.intro')}>{t('fee_statements.title')}</PageTitle>
      <Card>
        {data.statements.length === 0 ? (
          <p className="text-slate-600" data-fee-statements-empty>
            {t('fee_statements.empty')}
          </p>
        ) : (
          <FeeStatementTable rows={data.statements} showInvoice detailsHref={(id) => `/home/balance/statements/${id}`} />
        )}
      </Card>
      <Pager page={data.page} pageCount={data.pageCount} href={(page) => `?page=${page}`} />
    </div>
  )
}
