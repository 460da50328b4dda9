import { useMemo } from 'react'
import type { BlockProps } from '#app/domain/blocks.ts'
import type { BlockContext } from '#app/domain/block-context.ts'
import { MARKDOWN_CLASSES } from '#app/storefront/widgets/markdown-classes.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { useT } from '#app/utils/i18n-react.ts'

/** Questions as native disclosures (<details>: keyboard and screen readers for free, works without JS). */
export function FaqBlock({ id, props }: { id: string; props: BlockProps<'faq'>; context: BlockContext }) {
  const t = useT()
  const answers = useMemo(() => props.items.map((item) => renderMarkdown(item.answer)), [props.items])
  const headingId = `block-${id}-heading`
  return (
    <section data-block-type="faq" id={`block-${id}`} aria-labelledby={headingId} className="mx-auto max-w-3xl">
      <h2 id={headingId} className="mb-4 text-2xl font-bold text-slate-900">
        {props.heading || t('blocks.faq.heading')}
      </h2>
      <div className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {props.items.map((item, i) => (
          <details key={i} className="group" data-faq-item>
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 font-medium text-slate-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
              <span>{item.question}</span>
              <span aria-hidden="true" className="shrink-0 text-xl leading-none text-slate-500 transition group-open:rotate-45">
                +
              </span>
            </summary>
            <div className={`px-5 pb-5 text-slate-700 ${MARKDOWN_CLASSES}`} dangerouslySetInnerHTML={{ __html: answers[i] }} />
          </details>
        ))}
      </div>
    </section>
  )
}
