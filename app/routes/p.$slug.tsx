import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { BlockList } from '#app/storefront/components/blocks/block-view.tsx'
import { getPublishedSubpageWithBlocks } from '#app/models/subpage.server.ts'
import { loadBlockContext } from '#app/storefront/block-context.server.ts'
import { cachedForVisitors } from '#app/storefront/loader-cache.server.ts'
import { excerpt, pageCacheControl, pick, seoMeta } from '#app/domain/seo.ts'
import { canonicalUrl, storefrontViewer } from '#app/storefront/seo.server.ts'
import { notFound } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? seoMeta(data.seo) : [])

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}

/** The first words a visitor reads on the page: the first hero or rich text block. */
function firstText(blocks: Awaited<ReturnType<typeof getPublishedSubpageWithBlocks>> & object) {
  for (const b of blocks.blocks) {
    if (b.type === 'hero') return [b.props.heading, b.props.subheading].filter(Boolean).join('. ')
    if (b.type === 'rich_text') return excerpt(b.props.markdown)
  }
  return ''
}

/** A published sales page of this school, rendered from its blocks (seed 001 "Sales-page editor with blocks"). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, viewer } = await storefrontViewer(request, context)
  const slug = params.slug ?? ''
  if (slug.length > 80) notFound()
  // The same for every visitor: kept per isolate under the school's content version.
  const sales = await cachedForVisitors({ request, context, route: 'subpage', signedIn: viewer !== null, now: Date.now() }, async () => {
    const page = await getPublishedSubpageWithBlocks(context.db, tenant.id, slug)
    if (!page) notFound()
    const blockContext = await loadBlockContext(request, context, tenant.id, page.blocks, { subpageId: page.subpage.id, viewerId: viewer?.id ?? null, viewerRole: viewer?.role })
    // Countdown blocks and product cards' promotions change by themselves: never cache past a fixed end shown on the page.
    const changesAt = [
      ...page.blocks.flatMap((b) => (b.type === 'countdown' && b.props.mode === 'date' ? [Date.parse(b.props.date)] : [])),
      ...Object.values(blockContext.products).map((offer) => offer.promo?.endsAt ?? null),
    ]
    return {
      value: {
        seo: {
          title: `${pick(page.subpage.seoTitle, page.subpage.title)} · ${tenant.name}`,
          description: pick(page.subpage.seoDescription, firstText(page) || page.subpage.title),
          url: canonicalUrl(request, context, `/p/${page.subpage.slug}`),
          image: null,
          type: 'website' as const,
          siteName: tenant.name,
          locale: tenant.language,
        },
        title: page.subpage.title,
        blocks: page.blocks,
        context: blockContext,
      },
      changesAt,
    }
  })
  const now = Date.now()
  return data(sales.value, { headers: { 'Cache-Control': pageCacheControl({ signedIn: viewer !== null, now, changesAt: sales.changesAt }) } })
}

export default function SubpagePage() {
  const page = useLoaderData<typeof loader>()
  return (
    <div data-subpage>
      <h1 className="sr-only">{page.title}</h1>
      <BlockList blocks={page.blocks} context={page.context} />
    </div>
  )
}
