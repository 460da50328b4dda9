// An article in the school's blog list and on the home page.
import { Link } from '@remix-run/react'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'

export type ArticleCardData = { id: string; title: string; slug: string; authorName: string; publishedAt: number | null; coverUrl: string | null; excerpt: string }

export function StorefrontArticleCard({ article }: { article: ArticleCardData }) {
  const t = useT()
  const locale = useLocale()
  return (
    <article className="relative flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm focus-within:ring-2 focus-within:ring-brand-500" data-article-card={article.slug}>
      {article.coverUrl ? (
        <div className="aspect-[16/10] w-full overflow-hidden bg-slate-100">
          <img src={article.coverUrl} width={1280} height={800} sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw" alt="" loading="lazy" decoding="async" className="size-full object-cover" />
        </div>
      ) : null}
      <div className="flex flex-1 flex-col gap-2 p-5">
        <h3 className="text-lg font-semibold leading-snug text-slate-900">
          <Link to={`/blog/${article.slug}`} prefetch="intent" className="outline-none after:absolute after:inset-0 focus-visible:underline">
            {article.title}
          </Link>
        </h3>
        <p className="text-xs text-slate-500">
          {article.publishedAt ? <time dateTime={new Date(article.publishedAt).toISOString()}>{formatDate(article.publishedAt, locale)}</time> : null}
          {article.publishedAt && article.authorName ? ' · ' : null}
          {article.authorName ? t('storefront.blog.by', { author: article.authorName }) : null}
        </p>
        {article.excerpt ? <p className="line-clamp-3 text-sm text-slate-600">{article.excerpt}</p> : null}
      </div>
    </article>
  )
}
