import type { BlockProps } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { TextArea, type FormProps } from './parts.tsx'

export function RichTextForm({ value, onChange, errors }: FormProps<BlockProps<'rich_text'>>) {
  const t = useT()
  return (
    <TextArea
      label={t('subpages.f.markdown')}
      path="markdown"
      errors={errors}
      value={value.markdown}
      onChange={(v) => onChange({ markdown: v })}
      rows={12}
      maxLength={20_000}
      mono
      hint={t('subpages.f.markdown_hint')}
    />
  )
}
