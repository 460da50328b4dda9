import type { BlockProps, ImageRef } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { ImagePicker, TextInput, type FormProps } from './parts.tsx'

export function BeforeAfterForm({ value, onChange, errors, options }: FormProps<BlockProps<'before_after'>>) {
  const t = useT()
  const set = <K extends keyof BlockProps<'before_after'>>(key: K, v: BlockProps<'before_after'>[K]) => onChange({ ...value, [key]: v })
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-3">
        <ImagePicker label={t('subpages.f.before_image')} path="before" errors={errors} value={value.before} onChange={(v) => set('before', v as ImageRef)} options={options} />
        <TextInput label={t('subpages.f.alt')} path="beforeAlt" errors={errors} value={value.beforeAlt} onChange={(v) => set('beforeAlt', v)} maxLength={200} />
        <TextInput label={t('subpages.f.label')} path="beforeLabel" errors={errors} value={value.beforeLabel} onChange={(v) => set('beforeLabel', v)} maxLength={40} />
      </div>
      <div className="space-y-3">
        <ImagePicker label={t('subpages.f.after_image')} path="after" errors={errors} value={value.after} onChange={(v) => set('after', v as ImageRef)} options={options} />
        <TextInput label={t('subpages.f.alt')} path="afterAlt" errors={errors} value={value.afterAlt} onChange={(v) => set('afterAlt', v)} maxLength={200} />
        <TextInput label={t('subpages.f.label')} path="afterLabel" errors={errors} value={value.afterLabel} onChange={(v) => set('afterLabel', v)} maxLength={40} />
      </div>
    </div>
  )
}
