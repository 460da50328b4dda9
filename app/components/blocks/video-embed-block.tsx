import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function VideoEmbedBlock({ id }: { id: string; props: BlockProps<'video_embed'>; context: BlockContext }) {
  return <section data-block-type="video_embed" id={`block-${id}`} />
}
