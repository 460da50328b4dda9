import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, useLoaderData, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { DataTable } from '#app/components/data-table.tsx'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { listLeads } from '#app/models/lead.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { Pager } from '#app/components/pager.tsx'

const ListQuery = z.object({ page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const query = ListQuery.parse({ page: new URL(request.url).searchParams.get('page') ?? undefined })
  const list = await listLeads(context.db, tenant.id, { page: query.page })
  return { title: `${getT(request, context)('students.leads.title')} · ${tenant.name}`, ...list }
}

export default function LeadsPage() {
  const data = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('students.leads.intro')}>{t('students.leads.title')}</PageTitle>
      {params.get('error') === 'export_limit' ? <Alert>{t('students.error.export_limit')}</Alert> : null}
      <Card className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600" data-lead-total>
            {t('students.leads.count', { count: data.total })}
          </p>
          {/* A real form post: the answer is a file download (or a redirect back with the limit message). */}
          <Form method="post" action="/home/leads/export" reloadDocument>
            <Button type="submit" variant="secondary" data-export>
              {t('students.export')}
            </Button>
          </Form>
        </div>
        {data.leads.length === 0 ? (
          <p className="text-slate-600">{t('students.leads.empty')}</p>
        ) : (
          <DataTable
            data-leads
            rows={data.leads}
            rowKey={(l) => l.id}
            rowProps={(l) => ({ 'data-lead-email': l.email })}
            columns={[
              { key: 'email', header: t('students.list.email'), cell: (l) => l.email },
              { key: 'name', header: t('students.list.name'), cell: (l) => l.name || '—' },
              { key: 'source', header: t('students.leads.source'), cell: (l) => l.source || '—' },
              { key: 'created', header: t('students.leads.created'), cell: (l) => formatDate(l.createdAt, locale) },
            ]}
          />
        )}
        <Pager page={data.page} pageCount={data.pageCount} href={(p) => `?page=${p}`} />
      </Card>
    </div>
  )
}
