// The editor's form for one block: the type's own form, default props of a new block, and the
// type names shown in the editor. Props travel to the server as JSON in one hidden field.
import type { Translate } from '#app/i18n/i18n.ts'
import { DEFAULT_LEAD_FIELDS, type BlockProps, type BlockType, type ImageRef, type ParsedBlock } from '#app/domain/blocks.ts'
import { BeforeAfterForm } from './before-after-form.tsx'
import { CarouselForm } from './carousel-form.tsx'
import { CountdownForm } from './countdown-form.tsx'
import { FaqForm } from './faq-form.tsx'
import { HeroForm } from './hero-form.tsx'
import { LeadFormForm } from './lead-form-form.tsx'
import { LightboxGalleryForm } from './lightbox-gallery-form.tsx'
import type { BlockErrors, EditorOptions } from './parts.tsx'
import { ProductCardForm } from './product-card-form.tsx'
import { ReviewsForm } from './reviews-form.tsx'
import { RichTextForm } from './rich-text-form.tsx'
import { VideoEmbedForm } from './video-embed-form.tsx'

/** A block being edited: its props may not parse yet (the draft). */
export type DraftBlock = ParsedBlock

/** Props a new block starts with, in the page's language. Image blocks need an upload before they parse. */
export function defaultBlockProps(type: BlockType, t: Translate, firstProductId = ''): BlockProps {
  const noImage = null as unknown as ImageRef
  switch (type) {
    case 'hero':
      return {
        heading: t('subpages.default.hero_heading'),
        subheading: t('subpages.default.hero_subheading'),
        ctaText: '',
        ctaHref: '',
        image: null,
        align: 'center',
      }
    case 'rich_text':
      return { markdown: t('subpages.default.rich_text') }
    case 'lead_form':
      return {
        fields: DEFAULT_LEAD_FIELDS.map((f) => ({
          ...f,
          label: f.type === 'email' ? t('subpages.default.lead_email') : t('subpages.default.lead_name'),
        })),
        hiddenFields: [],
        labels: true,
        successHeader: '',
        successText: '',
        redirectTo: '',
        buttonText: '',
        buttonClass: '',
      }
    case 'countdown':
      return {
        heading: t('subpages.default.countdown_heading'),
        mode: 'seconds',
        date: '',
        seconds: 3600,
        testMode: false,
        customClasses: '',
        bgColorHex: '',
        textColorHex: '',
        afterContent: '',
      }
    case 'carousel':
      return {
        slides: [{ image: noImage, alt: '', caption: '', href: '' }],
        dots: true,
        arrows: false,
        autoplay: true,
      }
    case 'lightbox_gallery':
      return {
        heading: '',
        images: [{ image: noImage, alt: '', caption: '', thumbnail: null }],
        loop: false,
      }
    case 'before_after':
      return {
        before: noImage,
        after: noImage,
        beforeAlt: '',
        afterAlt: '',
        beforeLabel: t('subpages.default.before'),
        afterLabel: t('subpages.default.after'),
      }
    case 'reviews':
      return {
        heading: t('subpages.default.reviews_heading'),
        productId: firstProductId,
        pageSize: 5,
      }
    case 'video_embed':
      return { provider: 'youtube', url: '', videoId: '', title: '' }
    case 'product_card':
      return {
        productId: firstProductId,
        showDescription: true,
        buttonText: '',
      }
    case 'faq':
      return {
        heading: t('subpages.default.faq_heading'),
        items: [
          {
            question: t('subpages.default.faq_question'),
            answer: t('subpages.default.faq_answer'),
          },
        ],
      }
  }
}

export function BlockForm({ draft, onChange, errors, options }: { draft: DraftBlock; onChange: (props: BlockProps) => void; errors: BlockErrors; options: EditorOptions }) {
  const common = { onChange, errors, options }
  switch (draft.type) {
    case 'hero':
      return <HeroForm value={draft.props} {...common} />
    case 'rich_text':
      return <RichTextForm value={draft.props} {...common} />
    case 'lead_form':
      return <LeadFormForm value={draft.props} {...common} />
    case 'countdown':
      return <CountdownForm value={draft.props} {...common} />
    case 'carousel':
      return <CarouselForm value={draft.props} {...common} />
    case 'lightbox_gallery':
      return <LightboxGalleryForm value={draft.props} {...common} />
    case 'before_after':
      return <BeforeAfterForm value={draft.props} {...common} />
    case 'reviews':
      return <ReviewsForm value={draft.props} {...common} />
    case 'video_embed':
      return <VideoEmbedForm value={draft.props} {...common} />
    case 'product_card':
      return <ProductCardForm value={draft.props} {...common} />
    case 'faq':
      return <FaqForm value={draft.props} {...common} />
  }
}
