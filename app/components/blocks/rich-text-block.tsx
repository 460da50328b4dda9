import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function RichTextBlock({ id }: { id: string; props: BlockProps<'rich_text'>; context: BlockContext }) {
  return <section data-block-type="rich_text" id={`block-${id}`} />
}
