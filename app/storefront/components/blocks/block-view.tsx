// One renderer per block type; the storefront's subpages and the editor's live preview both use it.
import type { BlockContext } from '#app/domain/block-context.ts'
import type { ParsedBlock } from '#app/domain/blocks.ts'
import { HeroBlock } from './hero-block.tsx'
import { RichTextBlock } from './rich-text-block.tsx'
import { LeadFormBlock } from './lead-form-block.tsx'
import { CountdownBlock } from './countdown-block.tsx'
import { CarouselBlock } from './carousel-block.tsx'
import { LightboxGalleryBlock } from './lightbox-gallery-block.tsx'
import { BeforeAfterBlock } from './before-after-block.tsx'
import { ReviewsBlock } from './reviews-block.tsx'
import { VideoEmbedBlock } from './video-embed-block.tsx'
import { ProductCardBlock } from './product-card-block.tsx'
import { FaqBlock } from './faq-block.tsx'

export function BlockView({ block, context }: { block: ParsedBlock; context: BlockContext }) {
  switch (block.type) {
    case 'hero':
      return <HeroBlock id={block.id} props={block.props} context={context} />
    case 'rich_text':
      return <RichTextBlock id={block.id} props={block.props} context={context} />
    case 'lead_form':
      return <LeadFormBlock id={block.id} props={block.props} context={context} />
    case 'countdown':
      return <CountdownBlock id={block.id} props={block.props} context={context} />
    case 'carousel':
      return <CarouselBlock id={block.id} props={block.props} context={context} />
    case 'lightbox_gallery':
      return <LightboxGalleryBlock id={block.id} props={block.props} context={context} />
    case 'before_after':
      return <BeforeAfterBlock id={block.id} props={block.props} context={context} />
    case 'reviews':
      return <ReviewsBlock id={block.id} props={block.props} context={context} />
    case 'video_embed':
      return <VideoEmbedBlock id={block.id} props={block.props} context={context} />
    case 'product_card':
      return <ProductCardBlock id={block.id} props={block.props} context={context} />
    case 'faq':
      return <FaqBlock id={block.id} props={block.props} context={context} />
  }
}

export function BlockList({ blocks, context }: { blocks: ParsedBlock[]; context: BlockContext }) {
  return (
    <div className="space-y-12" data-blocks>
      {blocks.map((block) => (
        <BlockView key={block.id} block={block} context={context} />
      ))}
    </div>
  )
}
