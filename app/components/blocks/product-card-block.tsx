import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function ProductCardBlock({ id }: { id: string; props: BlockProps<'product_card'>; context: BlockContext }) {
  return <section data-block-type="product_card" id={`block-${id}`} />
}
