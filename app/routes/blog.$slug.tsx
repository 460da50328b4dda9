import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { StorefrontMarkdown } from '#app/storefront/components/storefront-markdown.tsx'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getPublishedArticleBySlug } from '#app/models/article.server.ts'
import { cachedForVisitors } from '#app/storefront/loader-cache.server.ts'
import { excerpt, pageCacheControl, seoMeta } from '#app/domain/seo.ts'
import { canonicalUrl, storefrontViewer } from '#app/storefront/seo.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { notFound } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? seoMeta(data.seo) : [])

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

/** A published article whose publication date has come; anything else is 404. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, viewer } = await storefrontViewer(request, context)
  const slug = params.slug ?? ''
  if (slug.length > 80) notFound()
  const now = Date.now()
  // The same for every visitor (rendered markdown included): kept per isolate under the school's content version.
  const page = await cachedForVisitors({ request, context, route: 'article', signedIn: viewer !== null, now }, async () => {
    const article = await getPublishedArticleBySlug(context.db, tenant.id, slug, now)
    if (!article) notFound()
    const coverUrl = article.coverPath ? mediaUrl(context.cloudflare.env, request, article.coverPath) : null
    return {
      value: {
        seo: {
          title: `${article.title} · ${tenant.name}`,
          description: excerpt(article.body) || article.title,
          url: canonicalUrl(request, context, `/blog/${article.slug}`),
          image: coverUrl,
          type: 'article' as const,
          siteName: tenant.name,
          locale: tenant.language,
        },
        title: article.title,
        authorName: article.authorName,
        publishedAt: article.publishedAt ?? article.createdAt,
        coverUrl,
        html: renderMarkdown(article.body),
      },
    }
  })
  return data(page.value, { headers: { 'Cache-Control': pageCacheControl({ signedIn: viewer !== null, now, changesAt: page.changesAt }) } })
}

const HIGH_PRIORITY = { fetchpriority: 'high' } as Record<string, string>

export default function ArticlePage() {
  const t = useT()
  const locale = useLocale()
  const article = useLoaderData<typeof loader>()
  return (
    <article className="mx-auto max-w-3xl space-y-6" data-article>
      <nav aria-label={t('storefront.nav.breadcrumbs')} className="text-sm">
        <Link to="/blog" className="rounded text-brand-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
          ← {t('storefront.blog.back')}
        </Link>
      </nav>
      <header className="space-y-3">
        <h1 className="break-words text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{article.title}</h1>
        <p className="text-sm text-slate-600">
          <time dateTime={new Date(article.publishedAt).toISOString()}>{formatDate(article.publishedAt, locale)}</time>
          {article.authorName ? ` · ${t('storefront.blog.by', { author: article.authorName })}` : null}
        </p>
      </header>
      {article.coverUrl ? (
        <div className="aspect-[16/10] w-full overflow-hidden rounded-2xl bg-slate-100">
          <img src={article.coverUrl} width={1280} height={800} sizes="(min-width: 768px) 768px, 100vw" alt="" {...HIGH_PRIORITY} decoding="async" className="size-full object-cover" />
        </div>
      ) : null}
      <StorefrontMarkdown html={article.html} data-article-body />
    </article>
  )
}
