import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { PageTitle, cx } from '#app/components/ui.tsx'
import { StorefrontProductGrid } from '#app/storefront/components/storefront-product-card.tsx'
import type { ProductKind } from '#app/db/schema.server.ts'
import { getCatalogue } from '#app/models/storefront.server.ts'
import { cachedForVisitors } from '#app/storefront/loader-cache.server.ts'
import { pageCacheControl, seoMeta } from '#app/domain/seo.ts'
import { canonicalUrl, storefrontViewer } from '#app/storefront/seo.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? seoMeta(data.seo) : [])

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

/** Filter order of the kinds (the schema's list; kept here so the route module has no server import at module scope). */
const PRODUCT_KINDS = ['course', 'bundle', 'membership', 'live_event', 'file', 'consultation', 'physical'] as const satisfies readonly ProductKind[]

/** ?kind= narrows the catalogue; anything else is ignored (the whole catalogue). */
const Query = z.object({ kind: z.enum(PRODUCT_KINDS).optional().catch(undefined) })

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { tenant, viewer, offerOptions } = await storefrontViewer(request, context)
  const t = getT(request, context)
  const { kind } = Query.parse(Object.fromEntries(new URL(request.url).searchParams))
  const now = Date.now()
  // The same for every visitor: kept per isolate under the school's content version.
  const page = await cachedForVisitors({ request, context, route: 'catalogue', signedIn: viewer !== null, now }, async () => {
    const catalogue = await getCatalogue(context.db, tenant.id, { ...offerOptions, now, kind: kind ?? null })
    const title = `${t('storefront.catalogue.title')} · ${tenant.name}`
    return {
      value: {
        seo: {
          title,
          description: t('storefront.catalogue.description', { name: tenant.name }),
          url: canonicalUrl(request, context, kind ? `/courses?kind=${kind}` : '/courses'),
          image: null,
          type: 'website' as const,
          siteName: tenant.name,
          locale: tenant.language,
        },
        kind: kind ?? null,
        kinds: PRODUCT_KINDS.filter((k) => catalogue.kinds.includes(k)),
        products: catalogue.products,
      },
      changesAt: catalogue.changesAt,
    }
  })
  return data(page.value, { headers: { 'Cache-Control': pageCacheControl({ signedIn: viewer !== null, now, changesAt: page.changesAt }) } })
}

export default function CoursesPage() {
  const t = useT()
  const { kind, kinds, products } = useLoaderData<typeof loader>()
  const chip = (active: boolean) =>
    cx(
      'inline-flex min-h-10 items-center rounded-full border px-4 text-sm font-medium focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
      active ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-brand-400',
    )
  return (
    <div className="space-y-8" data-catalogue>
      <PageTitle>{t('school.courses.title')}</PageTitle>
      {kinds.length > 1 ? (
        <nav aria-label={t('storefront.catalogue.filter')}>
          <ul className="flex flex-wrap gap-2">
            <li>
              <Link to="/courses" className={chip(kind === null)} aria-current={kind === null ? 'page' : undefined}>
                {t('storefront.catalogue.all')}
              </Link>
            </li>
            {kinds.map((k) => (
              <li key={k}>
                <Link to={`/courses?kind=${k}`} className={chip(kind === k)} aria-current={kind === k ? 'page' : undefined}>
                  {t(`storefront.kinds.${k}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {products.length ? (
        <StorefrontProductGrid offers={products} eagerFirst={3} />
      ) : (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600" data-catalogue-empty>
          {kind ? t('storefront.catalogue.empty_kind') : t('school.courses.empty')}
        </p>
      )}
    </div>
  )
}
