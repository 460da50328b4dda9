import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function HeroBlock({ id }: { id: string; props: BlockProps<'hero'>; context: BlockContext }) {
  return <section data-block-type="hero" id={`block-${id}`} />
}
