import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function FaqBlock({ id }: { id: string; props: BlockProps<'faq'>; context: BlockContext }) {
  return <section data-block-type="faq" id={`block-${id}`} />
}
