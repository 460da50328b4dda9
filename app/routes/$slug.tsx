import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { ProductPrice } from '#app/storefront/components/product-price.tsx'
import { StorefrontMarkdown } from '#app/storefront/components/storefront-markdown.tsx'
import { StorefrontCurriculum } from '#app/storefront/components/storefront-curriculum.tsx'
import { getProductPage } from '#app/models/storefront.server.ts'
import { cachedForVisitors } from '#app/storefront/loader-cache.server.ts'
import { pageCacheControl, pick, seoMeta } from '#app/domain/seo.ts'
import { canonicalUrl, storefrontViewer } from '#app/storefront/seo.server.ts'
import { productPageInSessionBatch, type ProductPage } from '#app/storefront/product-page.server.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? seoMeta(data.seo) : [])

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

/** The event's start in the school's language and the event's own time zone (server-side: one rendering). */
function formatEventStart(at: number, locale: 'en' | 'pl', timeZone: string | null) {
  try {
    return new Intl.DateTimeFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { dateStyle: 'full', timeStyle: 'short', timeZone: timeZone ?? 'UTC' }).format(at)
  } catch {
    return new Intl.DateTimeFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).format(at)
  }
}

/**
 * The page's loader data from a visitor's page: the same for every visitor and viewer but for the
 * offer's "watch or buy" (the caller adjusts it for a signed-in viewer), rendered markdown included.
 */
function productPageData(request: Request, context: LoaderFunctionArgs['context'], page: ProductPage) {
  const tenant = requireSchool(context)
  const t = getT(request, context)
  const { product, offer } = page
  const locale = tenant.language
  const money = (amount: number) => formatMoney(amount, tenant.currency, locale)
  const facts: string[] = []
  if (product.difficulty) facts.push(t(`storefront.product.difficulty.${product.difficulty}`))
  if (product.accessDays > 0) facts.push(t('storefront.product.access_days', { count: product.accessDays }))
  if (product.kind === 'membership' && product.membershipPeriod !== null) {
    facts.push(product.membershipPeriod === -1 ? t('storefront.product.membership_period_lifetime') : t('storefront.product.membership_period', { count: product.membershipPeriod }))
  }
  if (product.kind === 'live_event' && product.eventStartsAt) {
    facts.push(t('storefront.product.event_starts', { date: formatEventStart(product.eventStartsAt, locale, product.eventTimezone) }))
    if (product.eventTimezone) facts.push(t('storefront.product.event_timezone', { zone: product.eventTimezone }))
  }
  if (product.kind === 'consultation' && product.consultationMinutes) facts.push(t('storefront.product.consultation_length', { minutes: product.consultationMinutes }))
  if (product.kind === 'physical' && product.shippingCourierPrice !== null && product.shippingLockerPrice !== null) {
    facts.push(t('storefront.product.shipping', { courier: money(product.shippingCourierPrice), locker: money(product.shippingLockerPrice) }))
  }
  if (product.kind === 'file') facts.push(t('storefront.product.file'))
  return {
    value: {
      seo: {
        title: `${pick(product.seoTitle, product.title)} · ${tenant.name}`,
        description: pick(product.seoDescription, offer.excerpt || product.title),
        url: canonicalUrl(request, context, `/${product.slug}`),
        image: offer.cover?.url ?? null,
        type: 'product' as const,
        siteName: tenant.name,
        locale,
      },
      offer,
      category: product.category,
      descriptionHtml: renderMarkdown(product.description),
      curriculum: page.curriculum,
      facts,
      membershipAll: product.kind === 'membership' && product.membershipGrantsAll,
      included: page.included.filter((p) => !p.hidden || product.kind === 'bundle'),
    },
    changesAt: page.changesAt,
  }
}

/**
 * A published product of this school by slug (seed 000 §2: the page path plus checkout or watch).
 * Hidden products are unlisted, not secret: their page answers to anyone with the link.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const slug = params.slug ?? ''
  const validSlug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) && slug.length <= 60
  const now = Date.now()
  // Signed in: the page's reads ride in the session lookup's batch (one D1 round trip).
  const batched = validSlug ? productPageInSessionBatch(request, context, slug, now) : null
  const { tenant, viewer, offerOptions } = await storefrontViewer(request, context)
  if (!validSlug) notFound()
  const build = (page: ProductPage) => productPageData(request, context, page)
  const page = batched
    ? await batched(offerOptions, build)
    : // Anonymous: kept per isolate for the next visitor.
      await cachedForVisitors({ request, context, route: 'product', signedIn: viewer !== null, now }, async () => {
        const found = await getProductPage(context.db, tenant.id, slug, { ...offerOptions, now })
        if (!found) notFound()
        return build(found)
      })
  if (!page) notFound()
  return data(
    { ...page.value, renderedAt: now },
    { headers: { 'Cache-Control': pageCacheControl({ signedIn: viewer !== null, now, changesAt: page.changesAt }) } },
  )
}

const HIGH_PRIORITY = { fetchpriority: 'high' } as Record<string, string>

export default function ProductPage() {
  const t = useT()
  const locale = useLocale()
  const page = useLoaderData<typeof loader>()
  const { offer } = page
  const watchLabel = offer.kind === 'course' || offer.kind === 'bundle' || offer.kind === 'membership' ? t('storefront.action.watch') : t('storefront.action.open')
  const actionLabel = offer.hasAccess ? watchLabel : offer.isFree ? t('storefront.action.get_free') : t('storefront.action.buy')
  const sellable = offer.hasAccess || offer.isFree || offer.price !== null
  return (
    <article className="space-y-8" data-product-page={offer.slug} lang={locale}>
      <nav aria-label={t('storefront.nav.breadcrumbs')} className="text-sm">
        <Link to="/courses" className="rounded text-brand-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
          ← {t('storefront.product.back')}
        </Link>
      </nav>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <header className="space-y-4 lg:col-start-1">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
            {t(`storefront.kind.${offer.kind}`)}
            {page.category ? <span className="text-slate-500"> · {page.category}</span> : null}
          </p>
          <h1 className="break-words text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{offer.title}</h1>
          <div className="aspect-[16/10] w-full overflow-hidden rounded-2xl bg-gradient-to-br from-brand-100 to-brand-300 shadow-sm">
            {offer.cover ? (
              <img
                src={offer.cover.url}
                width={offer.cover.width}
                height={offer.cover.height}
                sizes="(min-width: 1024px) 800px, 100vw"
                alt=""
                {...HIGH_PRIORITY}
                decoding="async"
                className="size-full object-cover"
                data-product-cover
              />
            ) : null}
          </div>
        </header>

        <aside className="lg:sticky lg:top-6 lg:col-start-2 lg:row-span-2 lg:row-start-1" aria-label={t('storefront.price.regular')}>
          <div className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-buy-box>
            {offer.hasAccess ? <p className="text-sm font-medium text-emerald-700">{t('storefront.action.owned')}</p> : <ProductPrice offer={offer} size="lg" countdown />}
            {sellable ? (
              <a
                href={offer.actionHref}
                className="flex min-h-12 w-full items-center justify-center rounded-lg bg-brand-600 px-6 py-3 text-lg font-semibold text-white shadow hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                data-main-action={offer.hasAccess ? 'watch' : 'checkout'}
              >
                {actionLabel}
              </a>
            ) : null}
            {page.facts.length ? (
              <ul className="space-y-1 border-t border-slate-100 pt-4 text-sm text-slate-700" data-product-facts>
                {page.facts.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </aside>

        <div className="min-w-0 space-y-10 lg:col-start-1">
          {page.descriptionHtml ? <StorefrontMarkdown html={page.descriptionHtml} data-product-description /> : null}
          {page.membershipAll ? <p className="rounded-xl bg-brand-50 p-4 text-brand-900">{t('storefront.product.membership_all')}</p> : null}
          {page.included.length ? (
            <section aria-labelledby="included-title" className="space-y-3">
              <h2 id="included-title" className="text-2xl font-bold text-slate-900">{t('storefront.product.includes')}</h2>
              <ul className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white">
                {page.included.map((p) => (
                  <li key={p.id} className="flex items-center justify-between gap-3 px-4 py-3">
                    <span className="min-w-0 break-words">
                      <span className="mr-2 text-xs uppercase text-slate-500">{t(`storefront.kind.${p.kind}`)}</span>
                      {p.title}
                    </span>
                    <Link to={`/${p.slug}`} className="shrink-0 rounded text-sm font-semibold text-brand-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
                      {t('storefront.action.view')}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <StorefrontCurriculum sections={page.curriculum} />
        </div>
      </div>
    </article>
  )
}
