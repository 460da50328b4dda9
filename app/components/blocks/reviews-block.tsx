import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function ReviewsBlock({ id }: { id: string; props: BlockProps<'reviews'>; context: BlockContext }) {
  return <section data-block-type="reviews" id={`block-${id}`} />
}
