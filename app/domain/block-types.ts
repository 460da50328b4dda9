// The sales-page editor's block types (seed 001 "Sales-page editor with blocks"). Kept free of
// imports so the drizzle schema can use it.
export const BLOCK_TYPES = [
  'hero',
  'rich_text',
  'lead_form',
  'countdown',
  'carousel',
  'lightbox_gallery',
  'before_after',
  'reviews',
  'video_embed',
  'product_card',
  'faq',
] as const

export type BlockType = (typeof BLOCK_TYPES)[number]
