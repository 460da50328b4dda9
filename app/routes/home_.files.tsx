import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { DataTable } from '#app/components/data-table.tsx'
import { Button, Card, cx, Field, PageTitle } from '#app/components/ui.tsx'
import { countActiveAccessByProduct } from '#app/models/access.server.ts'
import { countFilesByProduct } from '#app/models/product-file.server.ts'
import { createFileProduct, listProductsByKind } from '#app/models/product.server.ts'
import { staffAction, requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { text } from '#app/utils/validation.ts'

const TITLE_MAX = 120
const NewProductSchema = z.object({ title: text({ max: TITLE_MAX }) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const now = Date.now()
  const [products, fileCounts, accessCounts] = await Promise.all([
    listProductsByKind(context.db, tenant.id, 'file'),
    countFilesByProduct(context.db, tenant.id),
    countActiveAccessByProduct(context.db, tenant.id, now),
  ])
  return {
    title: `${getT(request, context)('files.title')} · ${tenant.name}`,
    products: products.map((p) => ({ id: p.id, title: p.title, published: p.published, files: fileCounts.get(p.id) ?? 0, students: accessCounts.get(p.id) ?? 0 })),
  }
}

export const action = staffAction({
  intents: (intent) => ({
    default: intent(NewProductSchema, async (input, { tenant, request, context }) => {
      const product = await createFileProduct(context.db, tenant.id, { title: input.title })
      throw redirectWithFlash(request, `/home/files/${product.id}`, { done: 'created', message: 'files.done.created' })
    }),
  }),
})

export default function FilesPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  return (
    <div className="space-y-6">
      <Link to="/home" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('files.back')}
      </Link>
      <PageTitle subtitle={t('files.intro')}>{t('files.title')}</PageTitle>
      <Card>
        <h2 className="text-lg font-semibold">{t('files.new.title')}</h2>
        <Form method="post" className="mt-3 flex flex-wrap items-start gap-3" noValidate>
          <Field
            className="min-w-64 flex-1"
            label={t('files.new.label')}
            name="title"
            placeholder={t('files.new.placeholder')}
            defaultValue={actionData?.values?.title}
            maxLength={TITLE_MAX}
            required
            error={actionData?.errors?.title}
          />
          <Button type="submit" className="mt-6" disabled={busy}>
            {t('files.new.submit')}
          </Button>
        </Form>
      </Card>
      <Card>
        {data.products.length === 0 ? (
          <p className="text-slate-600">{t('files.list.empty')}</p>
        ) : (
          <DataTable
            data-file-products
            rows={data.products}
            rowKey={(p) => p.id}
            rowProps={(p) => ({ 'data-product-id': p.id })}
            columns={[
              {
                key: 'title',
                header: t('files.list.title'),
                cell: (p) => (
                  <Link to={`/home/files/${p.id}`} className="font-semibold text-brand-700 hover:underline">
                    {p.title}
                  </Link>
                ),
              },
              { key: 'files', header: t('files.list.files'), cell: (p) => t('files.count', { count: p.files }) },
              { key: 'students', header: t('files.list.students'), cell: (p) => t('files.students', { count: p.students }) },
              {
                key: 'status',
                header: t('files.list.status'),
                cell: (p) => (
                  <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', p.published ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700')}>
                    {t(p.published ? 'files.status.published' : 'files.status.draft')}
                  </span>
                ),
              },
            ]}
          />
        )}
      </Card>
    </div>
  )
}
