import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function CountdownBlock({ id }: { id: string; props: BlockProps<'countdown'>; context: BlockContext }) {
  return <section data-block-type="countdown" id={`block-${id}`} />
}
