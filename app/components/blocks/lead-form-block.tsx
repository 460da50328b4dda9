import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function LeadFormBlock({ id }: { id: string; props: BlockProps<'lead_form'>; context: BlockContext }) {
  return <section data-block-type="lead_form" id={`block-${id}`} />
}
