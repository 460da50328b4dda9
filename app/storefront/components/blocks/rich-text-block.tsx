import { useMemo } from 'react'
import type { BlockProps } from '#app/domain/blocks.ts'
import type { BlockContext } from '#app/domain/block-context.ts'
import { MARKDOWN_CLASSES } from '#app/storefront/widgets/markdown-classes.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'

/** The creator's markdown, sanitized by renderMarkdown (no scripts, handlers or unsafe URLs). */
export function RichTextBlock({ id, props }: { id: string; props: BlockProps<'rich_text'>; context: BlockContext }) {
  const html = useMemo(() => renderMarkdown(props.markdown), [props.markdown])
  return (
    <section data-block-type="rich_text" id={`block-${id}`} className="mx-auto max-w-3xl text-slate-800">
      <div className={MARKDOWN_CLASSES} dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  )
}
