// Builds the BlockContext of a page of blocks: the products named by product-card/reviews blocks
// (with offers and the viewer's access) and signed Bunny player URLs. Owned by the widgets work.
// D1: the offers (one batch, product-offer.server.ts) and the videos (one query) run side by side.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { UserRole } from '#app/db/schema.server.ts'
import { listVideoStates } from '#app/models/video.server.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { isPlayable } from '#app/domain/video-view.ts'
import { videosService } from '#app/media/videos-service.server.ts'
import type { BlockContext, ProductOffer } from '#app/domain/block-context.ts'
import { blockProductIds, type ParsedBlock } from '#app/domain/blocks.ts'
import { loadProductOffers } from './product-offer.server.ts'

/** Bunny video ids by block id: the video_embed blocks that play from the school's own library. */
function bunnyVideoIds(blocks: ParsedBlock[]) {
  const byBlock = new Map<string, string>()
  for (const block of blocks) if (block.type === 'video_embed' && block.props.provider === 'bunny' && block.props.videoId) byBlock.set(block.id, block.props.videoId)
  return byBlock
}

/**
 * Signed player URLs for Bunny blocks whose video belongs to this school and is playable; null
 * for the others (another school's id, still transcoding, or the media worker down).
 */
async function loadBunnyEmbeds(context: AppLoadContext, tenantId: string, byBlock: Map<string, string>): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {}
  if (byBlock.size === 0) return out
  const ids = [...new Set(byBlock.values())]
  const rows = await listVideoStates(context.db, tenantId, ids)
  const playable = rows.filter((r) => isPlayable(r.state)).map((r) => r.id)
  const service = videosService(context.cloudflare.env, tenantId)
  const urls = new Map<string, string>()
  await Promise.all(
    playable.map(async (videoId) => {
      const embed = await service.embed(videoId)
      if (embed.ok) urls.set(videoId, embed.body.url)
    }),
  )
  for (const [blockId, videoId] of byBlock) out[blockId] = urls.get(videoId) ?? null
  return out
}

export async function loadBlockContext(
  request: Request,
  context: AppLoadContext,
  tenantId: string,
  blocks: ParsedBlock[],
  options: { subpageId: string; viewerId: string | null; viewerRole?: UserRole; preview?: boolean; now?: number },
): Promise<BlockContext> {
  const { mediaOrigin } = mediaOrigins(context.cloudflare.env, request)
  const productIds = [...new Set(blocks.flatMap(blockProductIds))]
  const currency = context.site.kind === 'school' && context.site.tenant.id === tenantId ? context.site.tenant.currency : 'USD'
  const [products, bunnyEmbeds] = await Promise.all([
    productIds.length > 0 ? loadProductOffers(context.db, tenantId, productIds, { viewerId: options.viewerId, viewerRole: options.viewerRole, mediaOrigin, currency, now: options.now }) : Promise.resolve({} as Record<string, ProductOffer>),
    loadBunnyEmbeds(context, tenantId, bunnyVideoIds(blocks)),
  ])
  return {
    mediaOrigin,
    products,
    bunnyEmbeds,
    pagePath: new URL(request.url).pathname,
    subpageId: options.subpageId,
    signedIn: options.viewerId !== null,
    preview: options.preview ?? false,
  }
}
