// Props of every sales-page block (seed 001 "Sales-page editor with blocks", seed 000 §3–§5 for
// the widgets). One zod schema per type: the editor validates with it, the model refuses to store
// anything else, and the storefront parses stored props again before rendering (a block whose
// props no longer parse is skipped, never a 500). Pure: shared by server and client.
import { videoEmbedUrl } from './video-embed.ts'
import { z } from 'zod'
import { isSafeUrl } from '#app/utils/markdown.ts'
import { msg } from '#app/utils/validation.ts'
import { BLOCK_TYPES, type BlockType } from '#app/domain/block-types.ts'

export { BLOCK_TYPES, type BlockType }

const line = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.trim())
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: msg('validation.invalid') })
const requiredLine = (max: number) => line(max).pipe(z.string().min(1))
const markdown = (max: number) => z.string().max(max)

/** A link a creator may put on a button: a path on the site or an http(s)/mailto URL. */
export const safeHref = line(500).refine((s) => s === '' || isSafeUrl(s), { message: msg('validation.url') })

/** An uploaded image (context `image`, `cover` or `avatar`) of this school: its media key and pixel size (no layout shift). */
export const imageRef = z.object({
  path: z.string().max(300).regex(/^tenants\/[A-Za-z0-9_-]+\/[a-z_]+\/[A-Za-z0-9._-]+$/, { message: msg('validation.invalid') }),
  width: z.number().int().min(1).max(20000),
  height: z.number().int().min(1).max(20000),
})
export type ImageRef = z.infer<typeof imageRef>

const hexColor = z.union([z.literal(''), z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: msg('validation.invalid') })])
/** Creator-supplied CSS class names (Tailwind utilities); no quotes, angle brackets or braces. */
const classNames = line(200).refine((s) => /^[\w\s:/\-[\]#.%!]*$/.test(s), { message: msg('validation.invalid') })

export const heroProps = z.object({
  heading: requiredLine(120),
  subheading: line(300).default(''),
  ctaText: line(40).default(''),
  ctaHref: safeHref.default(''),
  image: imageRef.nullable().default(null),
  align: z.enum(['left', 'center']).default('center'),
})

export const richTextProps = z.object({ markdown: markdown(20_000) })

/** Lead form field (seed 000 §3 "Lead"): label, placeholder, name, type, required, checked, options. */
export const LEAD_FIELD_TYPES = ['text', 'email', 'checkbox', 'select', 'textarea', 'radio'] as const
export const LEAD_FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/
export const leadField = z.object({
  label: line(80).default(''),
  placeholder: line(120).default(''),
  name: z.string().regex(LEAD_FIELD_NAME, { message: msg('validation.invalid') }),
  type: z.enum(LEAD_FIELD_TYPES),
  required: z.boolean().default(false),
  checked: z.boolean().default(false),
  options: z.array(z.object({ value: requiredLine(80), text: requiredLine(120) })).max(20).default([]),
})
export type LeadField = z.infer<typeof leadField>
/** Seed 000 §3: default fields name ('First name', required) and email (type email, required). */
export const DEFAULT_LEAD_FIELDS: LeadField[] = [
  { label: 'First name', placeholder: '', name: 'name', type: 'text', required: true, checked: false, options: [] },
  { label: 'Email', placeholder: '', name: 'email', type: 'email', required: true, checked: false, options: [] },
]
/** Names the lead endpoint uses itself; a configured or hidden field may not take them. */
export const LEAD_RESERVED_NAMES = ['block_id', 'subpage_id', '_method', '_token']
export const leadFormProps = z
  .object({
    fields: z.array(leadField).min(1).max(12).default(DEFAULT_LEAD_FIELDS),
    hiddenFields: z.array(z.object({ name: z.string().regex(LEAD_FIELD_NAME, { message: msg('validation.invalid') }), value: line(200) })).max(10).default([]),
    labels: z.boolean().default(true),
    /** Empty = the seed's default in the page's language ('Thank you', 'Subscribe'). */
    successHeader: line(120).default(''),
    successText: markdown(2000).default(''),
    redirectTo: safeHref.default(''),
    buttonText: line(40).default(''),
    /** Empty = the default dark button. */
    buttonClass: classNames.default(''),
  })
  .superRefine((props, ctx) => {
    const names = [...props.fields.map((f) => f.name), ...props.hiddenFields.map((f) => f.name)]
    const seen = new Set<string>()
    names.forEach((name, i) => {
      if (seen.has(name) || LEAD_RESERVED_NAMES.includes(name)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: i < props.fields.length ? ['fields', i, 'name'] : ['hiddenFields', i - props.fields.length, 'name'], message: msg('blocks.lead.duplicate_name') })
      seen.add(name)
    })
    // A lead is an address: the form needs an email field (the leads list is keyed by it).
    if (!props.fields.some((f) => f.type === 'email')) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['fields'], message: msg('blocks.lead.email_required') })
    props.fields.forEach((f, i) => {
      if ((f.type === 'select' || f.type === 'radio') && f.options.length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['fields', i, 'options'], message: msg('validation.required') })
    })
  })

/** Seed 000 §4 "Countdown": mode fixed date or seconds, testMode, colours, custom classes; blockId is the block's id. */
export const countdownProps = z
  .object({
    heading: line(120).default(''),
    mode: z.enum(['date', 'seconds']).default('date'),
    /** Fixed mode: the end as an ISO 8601 instant. */
    date: line(40).default(''),
    /** Seconds mode: length of the countdown from the visitor's first view. */
    seconds: z.number().int().min(1).max(31_536_000).default(3600),
    testMode: z.boolean().default(false),
    customClasses: classNames.default(''),
    bgColorHex: hexColor.default(''),
    textColorHex: hexColor.default(''),
    /** Shown when the countdown reaches zero (markdown). */
    afterContent: markdown(2000).default(''),
  })
  .superRefine((props, ctx) => {
    if (props.mode === 'date' && (!props.date || Number.isNaN(Date.parse(props.date)))) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['date'], message: msg('validation.invalid') })
  })

const slide = z.object({ image: imageRef, alt: line(200).default(''), caption: line(200).default(''), href: safeHref.default('') })
/** Seed 000 §9: 3/2/1 slides at 992/768 px, dots on, arrows off, autoplay 2500 ms, 500 ms, infinite. */
export const carouselProps = z.object({
  slides: z.array(slide).min(1).max(20),
  dots: z.boolean().default(true),
  arrows: z.boolean().default(false),
  autoplay: z.boolean().default(true),
})

/** Seed 000 §3 "Lightbox image": src, alt, caption, thumbnail. */
export const lightboxProps = z.object({
  heading: line(120).default(''),
  images: z.array(z.object({ image: imageRef, alt: line(200).default(''), caption: line(200).default(''), thumbnail: imageRef.nullable().default(null) })).min(1).max(40),
  loop: z.boolean().default(false),
})

export const beforeAfterProps = z.object({
  before: imageRef,
  after: imageRef,
  beforeAlt: line(200).default(''),
  afterAlt: line(200).default(''),
  beforeLabel: line(40).default(''),
  afterLabel: line(40).default(''),
})

export const reviewsProps = z.object({
  heading: line(120).default(''),
  productId: requiredLine(40),
  /** Reviews per page (`length` of POST /json/reviews). */
  pageSize: z.number().int().min(1).max(20).default(5),
})

/** YouTube and Vimeo take the creator's URL (checked host); Bunny takes a video of the school's library. */
export const videoEmbedProps = z
  .object({
    provider: z.enum(['youtube', 'vimeo', 'bunny']),
    url: line(300).default(''),
    videoId: line(40).default(''),
    title: line(200).default(''),
  })
  .superRefine((props, ctx) => {
    if (props.provider === 'bunny' ? !props.videoId : !videoEmbedUrl(props.provider, props.url)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [props.provider === 'bunny' ? 'videoId' : 'url'], message: msg('blocks.video.invalid_url') })
  })

export const productCardProps = z.object({
  productId: requiredLine(40),
  showDescription: z.boolean().default(true),
  /** Empty = "Buy now" / "Watch" in the page's language. */
  buttonText: line(40).default(''),
})

export const faqProps = z.object({
  heading: line(120).default(''),
  items: z.array(z.object({ question: requiredLine(300), answer: markdown(4000) })).min(1).max(30),
})

export const BLOCK_PROPS = {
  hero: heroProps,
  rich_text: richTextProps,
  lead_form: leadFormProps,
  countdown: countdownProps,
  carousel: carouselProps,
  lightbox_gallery: lightboxProps,
  before_after: beforeAfterProps,
  reviews: reviewsProps,
  video_embed: videoEmbedProps,
  product_card: productCardProps,
  faq: faqProps,
} satisfies Record<BlockType, z.ZodTypeAny>

export type BlockProps<T extends BlockType = BlockType> = z.output<(typeof BLOCK_PROPS)[T]>
/** A stored block after its props parsed: what renderers receive. */
export type ParsedBlock = { [T in BlockType]: { id: string; type: T; props: BlockProps<T> } }[BlockType]

export function isBlockType(value: unknown): value is BlockType {
  return typeof value === 'string' && (BLOCK_TYPES as readonly string[]).includes(value)
}

/** Validate props of a type: the parsed props, or zod's error. */
export function parseBlockProps<T extends BlockType>(type: T, props: unknown) {
  return (BLOCK_PROPS[type] as z.ZodType<BlockProps<T>, z.ZodTypeDef, unknown>).safeParse(props)
}

/** Stored row → renderable block, or null when its props no longer parse (skipped, logged by the caller). */
export function toParsedBlock(row: { id: string; type: string; props: string }): ParsedBlock | null {
  if (!isBlockType(row.type)) return null
  let json: unknown
  try {
    json = JSON.parse(row.props)
  } catch {
    return null
  }
  const parsed = parseBlockProps(row.type, json)
  return parsed.success ? ({ id: row.id, type: row.type, props: parsed.data } as ParsedBlock) : null
}

/** Image paths a block uses: the model checks each belongs to the school before saving. */
export function blockImagePaths(block: ParsedBlock): string[] {
  const refs: (ImageRef | null)[] = []
  switch (block.type) {
    case 'hero':
      refs.push(block.props.image)
      break
    case 'carousel':
      refs.push(...block.props.slides.map((s) => s.image))
      break
    case 'lightbox_gallery':
      block.props.images.forEach((i) => refs.push(i.image, i.thumbnail))
      break
    case 'before_after':
      refs.push(block.props.before, block.props.after)
      break
  }
  return refs.filter((r): r is ImageRef => r !== null).map((r) => r.path)
}

/** Product ids a block refers to: checked against the school's catalogue before saving. */
export function blockProductIds(block: ParsedBlock): string[] {
  return block.type === 'reviews' || block.type === 'product_card' ? [block.props.productId] : []
}
