import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function CarouselBlock({ id }: { id: string; props: BlockProps<'carousel'>; context: BlockContext }) {
  return <section data-block-type="carousel" id={`block-${id}`} />
}
