import type { BlockProps } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { ListEditor, TextArea, TextInput, type FormProps } from './parts.tsx'

export function FaqForm({ value, onChange, errors }: FormProps<BlockProps<'faq'>>) {
  const t = useT()
  return (
    <div className="space-y-4">
      <TextInput label={t('subpages.f.heading')} path="heading" errors={errors} value={value.heading} onChange={(v) => onChange({ ...value, heading: v })} maxLength={120} />
      <ListEditor
        label={t('subpages.f.questions')}
        path="items"
        errors={errors}
        items={value.items}
        max={30}
        onChange={(items) => onChange({ ...value, items })}
        make={() => ({ question: '', answer: '' })}
        itemLabel={(i) => t('subpages.f.question_n', { n: i + 1 })}
        render={(item, i, update) => (
          <>
            <TextInput label={t('subpages.f.question')} path={`items.${i}.question`} errors={errors} value={item.question} onChange={(v) => update({ ...item, question: v })} maxLength={300} />
            <TextArea label={t('subpages.f.answer')} path={`items.${i}.answer`} errors={errors} value={item.answer} onChange={(v) => update({ ...item, answer: v })} rows={3} maxLength={4000} />
          </>
        )}
      />
    </div>
  )
}
