import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { epochToZoned, listArticles, schoolTimeZone } from '#app/models/article.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { Pager } from '#app/components/pager.tsx'

// A page number from the query string; anything else is page 1.
const QuerySchema = z.object({ page: z.coerce.number().int().min(1).max(100_000).catch(1) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const { page } = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const list = await listArticles(context.db, tenant.id, { page })
  const zone = schoolTimeZone(tenant.language)
  const now = Date.now()
  return {
    pageTitle: `${getT(request, context)('articles.title')} · ${tenant.name}`,
    zone,
    total: list.total,
    page: list.page,
    pages: list.pages,
    articles: list.items.map((a) => {
      const when = a.publishedAt === null ? null : epochToZoned(a.publishedAt, zone)
      return {
        id: a.id,
        title: a.title,
        authorName: a.authorName,
        date: when ? `${when.date} ${when.time}` : null,
        status: !a.published ? ('draft' as const) : a.publishedAt !== null && a.publishedAt > now ? ('scheduled' as const) : ('published' as const),
      }
    }),
  }
}

export default function Articles() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <PageTitle subtitle={t('articles.intro')}>{t('articles.title')}</PageTitle>
        <Link to="/home/articles/new" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          {t('articles.new')}
        </Link>
      </div>
      <FlashMessage only={['created', 'deleted']} />
      <Card>
        {data.articles.length === 0 ? (
          <p className="text-sm text-slate-600">{t('articles.empty')}</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-500">{t('articles.count', { count: data.total })}</p>
            <DataTable
              data-articles
              rows={data.articles}
              rowKey={(a) => a.id}
              rowProps={(a) => ({ 'data-article-row': a.id })}
              columns={[
                {
                  key: 'title',
                  header: t('articles.col.title'),
                  cell: (a) => (
                    <Link to={`/home/articles/${a.id}`} className="font-medium text-brand-700 hover:underline">
                      {a.title}
                    </Link>
                  ),
                },
                { key: 'status', header: t('articles.col.status'), cell: (a) => t(`articles.status.${a.status}`) },
                { key: 'date', header: t('articles.col.date'), className: 'tabular-nums', cell: (a) => a.date ?? t('articles.no_date') },
                { key: 'author', header: t('articles.col.author'), cell: (a) => a.authorName },
              ]}
            />
          </>
        )}
        <Pager page={data.page} pageCount={data.pages} href={(p) => `/home/articles?page=${p}`} className="mt-4" />
      </Card>
    </div>
  )
}
