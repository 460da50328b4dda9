import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { StorefrontArticleCard } from '#app/storefront/components/storefront-article-card.tsx'
import { StorefrontProductGrid } from '#app/storefront/components/storefront-product-card.tsx'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getHomePage } from '#app/models/storefront.server.ts'
import { cachedForVisitors } from '#app/storefront/loader-cache.server.ts'
import { excerpt, pageCacheControl, seoMeta, type PageSeo } from '#app/domain/seo.ts'
import { canonicalUrl, storefrontViewer } from '#app/storefront/seo.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { useT } from '#app/utils/i18n-react.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data?.kind === 'school' ? seoMeta(data.seo) : [{ title: data?.title }])

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

/** The same path is the platform's landing page or a school's home, decided by the host. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = getT(request, context)
  if (context.site.kind === 'school') {
    const { tenant, viewer, offerOptions } = await storefrontViewer(request, context)
    const now = Date.now()
    // The same for every visitor: kept per isolate under the school's content version.
    const page = await cachedForVisitors({ request, context, route: 'home', signedIn: viewer !== null, now }, async () => {
      const home = await getHomePage(context.db, tenant.id, { ...offerOptions, now })
      const coverUrl = tenant.coverPath ? mediaUrl(context.cloudflare.env, request, tenant.coverPath) : null
      const seo: PageSeo = {
        title: tenant.name,
        description: home.bio ? excerpt(home.bio) : t('storefront.home.description', { name: tenant.name }),
        url: canonicalUrl(request, context, '/'),
        image: coverUrl,
        type: 'website',
        siteName: tenant.name,
        locale: tenant.language,
      }
      return {
        value: {
          kind: 'school' as const,
          title: tenant.name,
          seo,
          name: tenant.name,
          coverUrl,
          authorName: home.authorName,
          bio: home.bio,
          products: home.products,
          productCount: home.productCount,
          articles: home.articles.map(({ coverPath, ...a }) => ({ ...a, coverUrl: coverPath ? mediaUrl(context.cloudflare.env, request, coverPath) : null })),
        },
        changesAt: home.changesAt,
      }
    })
    return data(page.value, { headers: { 'Cache-Control': pageCacheControl({ signedIn: viewer !== null, now, changesAt: page.changesAt }) } })
  }
  return { kind: 'platform' as const, title: t('platform.title'), name: 'Coursefront', coverUrl: null }
}

function PlatformLanding() {
  const t = useT()
  const features = ['domain', 'sell', 'fee'] as const
  return (
    <div className="space-y-16 py-6">
      <section className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">{t('platform.hero.title')}</h1>
        <p className="mt-6 text-lg leading-8 text-slate-600">{t('platform.hero.text')}</p>
        <Link to="/signup" className="mt-8 inline-block rounded-md bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow hover:bg-brand-700">
          {t('platform.hero.cta')}
        </Link>
      </section>
      <section className="grid gap-6 sm:grid-cols-3">
        {features.map((f) => (
          <div key={f} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="text-lg font-semibold">{t(`platform.feature.${f}.title`)}</h2>
            <p className="mt-2 text-slate-600">{t(`platform.feature.${f}.text`)}</p>
          </div>
        ))}
      </section>
    </div>
  )
}

/** React 18 passes the lowercase attribute through as is. */
const HIGH_PRIORITY = { fetchpriority: 'high' } as Record<string, string>

type SchoolData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { kind: 'school' }>

const ctaPrimary =
  'inline-flex items-center justify-center rounded-md bg-white px-6 py-3 font-semibold text-brand-700 shadow hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white'
const ctaSecondary =
  'inline-flex items-center justify-center rounded-md border border-white/70 px-6 py-3 font-semibold text-white hover:bg-white/10 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white'

function SchoolHome({ home }: { home: SchoolData }) {
  const t = useT()
  return (
    <div className="space-y-14" data-school-home>
      <section className="relative isolate overflow-hidden rounded-2xl bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-14 text-center text-white shadow-lg sm:px-12 sm:py-20">
        {home.coverUrl ? (
          <>
            {/* Decorative background (the LCP image: fetched first); a dark layer keeps the text readable on any photo. */}
            <img src={home.coverUrl} alt="" width={1280} height={800} sizes="100vw" {...HIGH_PRIORITY} className="absolute inset-0 -z-20 size-full object-cover" data-school-cover />
            <div className="absolute inset-0 -z-10 bg-slate-900/55" />
          </>
        ) : null}
        <h1 className="break-words text-3xl font-extrabold tracking-tight sm:text-5xl">{t('school.home.welcome', { name: home.name })}</h1>
        {home.authorName ? <p className="mt-3 text-lg font-medium text-brand-100">{t('storefront.home.by', { author: home.authorName })}</p> : null}
        <p className="mx-auto mt-5 max-w-2xl whitespace-pre-line text-base text-white/90 sm:text-lg">{home.bio || t('school.home.text')}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/courses" className={ctaPrimary}>
            {t('storefront.home.browse')}
          </Link>
          {home.articles.length ? (
            <Link to="/blog" className={ctaSecondary}>
              {t('storefront.home.read_blog')}
            </Link>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="home-products" className="space-y-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="home-products" className="text-2xl font-bold text-slate-900">{t('storefront.home.products')}</h2>
          {home.productCount > home.products.length ? (
            <Link to="/courses" className="rounded font-semibold text-brand-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
              {t('storefront.home.all_products', { count: home.productCount })}
            </Link>
          ) : null}
        </div>
        {home.products.length ? (
          <StorefrontProductGrid offers={home.products} />
        ) : (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600">{t('storefront.home.empty')}</p>
        )}
      </section>

      {home.articles.length ? (
        <section aria-labelledby="home-articles" className="space-y-6">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="home-articles" className="text-2xl font-bold text-slate-900">{t('storefront.home.articles')}</h2>
            <Link to="/blog" className="rounded font-semibold text-brand-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
              {t('storefront.home.all_articles')}
            </Link>
          </div>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {home.articles.map((a) => (
              <StorefrontArticleCard key={a.id} article={a} />
            ))}
          </div>
        </section>
      ) : null}
    </div>
  )
}

export default function Index() {
  const data = useLoaderData<typeof loader>()
  return data.kind === 'school' ? <SchoolHome home={data} /> : <PlatformLanding />
}
