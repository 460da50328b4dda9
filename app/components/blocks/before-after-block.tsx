import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function BeforeAfterBlock({ id }: { id: string; props: BlockProps<'before_after'>; context: BlockContext }) {
  return <section data-block-type="before_after" id={`block-${id}`} />
}
