import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { continueWatching } from '#app/player/watch-page.server.ts'
import { useT } from '#app/utils/i18n-react.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? [{ title: data.title }, { name: 'robots', content: 'noindex' }] : [])

export const headers: HeadersFunction = ({ loaderHeaders }) => ({ 'Cache-Control': loaderHeaders.get('Cache-Control') ?? 'private, no-store' })

// GET /{slug}/watch → the lecture to continue (last opened), else the course's first open lecture;
// a viewer with access to a course with nothing published yet sees "content coming soon" (200).
export const loader = ({ request, context, params }: LoaderFunctionArgs) => continueWatching(request, context, params.slug ?? '')

const LINK = 'font-semibold text-brand-700 underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500'

export default function ComingSoon() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <article className="mx-auto max-w-2xl space-y-4 rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-10" data-coming-soon aria-labelledby="coming-soon-title">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{t('publishing.soon.heading')}</p>
      <h1 id="coming-soon-title" className="break-words text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">
        {data.course.title}
      </h1>
      <p className="text-slate-700">{t('publishing.soon.text')}</p>
      <p className="flex flex-col items-center gap-3 sm:flex-row sm:justify-center">
        <Link to="/panel" className={LINK} data-coming-soon-panel>
          {t('publishing.soon.back')}
        </Link>
        {data.productHref ? (
          <Link to={data.productHref} className={LINK}>
            {t('publishing.soon.product')}
          </Link>
        ) : null}
        {data.builderHref ? (
          <Link to={data.builderHref} className={LINK}>
            {t('publishing.soon.builder')}
          </Link>
        ) : null}
      </p>
    </article>
  )
}
