import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { PageTitle } from '#app/components/ui.tsx'
import { StorefrontArticleCard } from '#app/storefront/components/storefront-article-card.tsx'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getBlogPage } from '#app/models/storefront.server.ts'
import { cachedForVisitors } from '#app/storefront/loader-cache.server.ts'
import { pageCacheControl, seoMeta } from '#app/domain/seo.ts'
import { canonicalUrl, storefrontViewer } from '#app/storefront/seo.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? seoMeta(data.seo) : [])

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

const Query = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1) })

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, viewer } = await storefrontViewer(request, context)
  const t = getT(request, context)
  const { page } = Query.parse(Object.fromEntries(new URL(request.url).searchParams))
  const now = Date.now()
  // The same for every visitor: kept per isolate under the school's content version.
  const list = await cachedForVisitors({ request, context, route: 'blog', signedIn: viewer !== null, now }, async () => {
    const blog = await getBlogPage(context.db, tenant.id, { page, now })
    if (page > blog.pages) notFound()
    return {
      value: {
        seo: {
          title: `${t('storefront.blog.title')} · ${tenant.name}`,
          description: t('storefront.blog.description', { name: tenant.name }),
          url: canonicalUrl(request, context, page > 1 ? `/blog?page=${page}` : '/blog'),
          image: null,
          type: 'website' as const,
          siteName: tenant.name,
          locale: tenant.language,
        },
        page,
        pages: blog.pages,
        articles: blog.articles.map(({ coverPath, ...a }) => ({ ...a, coverUrl: coverPath ? mediaUrl(context.cloudflare.env, request, coverPath) : null })),
      },
      changesAt: blog.changesAt,
    }
  })
  return data(list.value, { headers: { 'Cache-Control': pageCacheControl({ signedIn: viewer !== null, now, changesAt: list.changesAt }) } })
}

export default function BlogPage() {
  const t = useT()
  const { articles, page, pages } = useLoaderData<typeof loader>()
  const pager = 'rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 hover:border-brand-400 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500'
  return (
    <div className="space-y-8" data-blog>
      <PageTitle>{t('storefront.blog.title')}</PageTitle>
      {articles.length ? (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {articles.map((a) => (
            <StorefrontArticleCard key={a.id} article={a} />
          ))}
        </div>
      ) : (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600">{t('storefront.blog.empty')}</p>
      )}
      {pages > 1 ? (
        <nav className="flex flex-wrap items-center justify-between gap-3" aria-label={t('storefront.blog.page', { page, pages })}>
          {page > 1 ? (
            <Link to={page === 2 ? '/blog' : `/blog?page=${page - 1}`} className={pager} rel="prev">
              {t('storefront.blog.newer')}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-slate-600">{t('storefront.blog.page', { page, pages })}</span>
          {page < pages ? (
            <Link to={`/blog?page=${page + 1}`} className={pager} rel="next">
              {t('storefront.blog.older')}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  )
}
