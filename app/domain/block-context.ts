// What block renderers get besides their props (pure types + helpers, shared by server and
// client). Built on the server by app/storefront/block-context.server.ts in as few D1 round
// trips as possible.

/** A product as the storefront offers it: price, promotion, lowest 30-day price, the visitor's access. */
export type ProductOffer = {
  id: string
  kind: string
  title: string
  slug: string
  /** Plain-text excerpt of the description. */
  excerpt: string
  cover: { url: string; width: number; height: number } | null
  currency: string
  isFree: boolean
  /** Minor units; null when the product has no price yet (and is not free). */
  price: number | null
  /** Present while a promotion runs: the promo price and when it ends (ms, null = open-ended). */
  promo: { amount: number; endsAt: number | null } | null
  /** Lowest price of the last 30 days before the promotion (EU Omnibus), shown beside a promotion. */
  lowestPrice30Days: number | null
  /** The visitor already has access: the button becomes "watch" (seed 000 §2). */
  hasAccess: boolean
  /** `/{slug}/watch` with access, otherwise `/{slug}/checkout`. */
  actionHref: string
}

export type BlockContext = {
  /** Public media origin: image URL = `${mediaOrigin}/${path}`. */
  mediaOrigin: string
  /** Products named by product-card and reviews blocks, by id (missing = unpublished or gone). */
  products: Record<string, ProductOffer>
  /** Signed Bunny player URLs by block id (video_embed with provider bunny); null when not playable yet. */
  bunnyEmbeds: Record<string, string | null>
  /** Path of the page showing the blocks (countdown storage key, lead form source). */
  pagePath: string
  /** The subpage (lead form posts name it). */
  subpageId: string
  signedIn: boolean
  /** Rendered inside the editor's live preview: no network side effects (lead posts, countdown storage). */
  preview: boolean
}

export function imageUrl(mediaOrigin: string, path: string) {
  return `${mediaOrigin}/${path}`
}
