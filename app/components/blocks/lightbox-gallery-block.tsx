import type { BlockProps } from '#app/storefront/blocks.ts'
import type { BlockContext } from '#app/storefront/block-context.ts'

// Placeholder until the widget lands: renders nothing visible.
export function LightboxGalleryBlock({ id }: { id: string; props: BlockProps<'lightbox_gallery'>; context: BlockContext }) {
  return <section data-block-type="lightbox_gallery" id={`block-${id}`} />
}
