import type { BlockProps } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Choice, ImagePicker, TextInput, type FormProps } from './parts.tsx'

export function HeroForm({ value, onChange, errors, options }: FormProps<BlockProps<'hero'>>) {
  const t = useT()
  const set = <K extends keyof BlockProps<'hero'>>(key: K, v: BlockProps<'hero'>[K]) => onChange({ ...value, [key]: v })
  return (
    <div className="space-y-4">
      <TextInput label={t('subpages.f.heading')} path="heading" errors={errors} value={value.heading} onChange={(v) => set('heading', v)} maxLength={120} />
      <TextInput label={t('subpages.f.subheading')} path="subheading" errors={errors} value={value.subheading} onChange={(v) => set('subheading', v)} maxLength={300} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput label={t('subpages.f.cta_text')} path="ctaText" errors={errors} value={value.ctaText} onChange={(v) => set('ctaText', v)} maxLength={40} />
        <TextInput label={t('subpages.f.cta_href')} path="ctaHref" errors={errors} value={value.ctaHref} onChange={(v) => set('ctaHref', v)} maxLength={500} placeholder="/courses" />
      </div>
      <Choice
        label={t('subpages.f.align')}
        path="align"
        errors={errors}
        value={value.align}
        onChange={(v) => set('align', v)}
        choices={[
          { value: 'center', label: t('subpages.f.align_center') },
          { value: 'left', label: t('subpages.f.align_left') },
        ]}
      />
      <ImagePicker label={t('subpages.f.image')} path="image" errors={errors} value={value.image} onChange={(v) => set('image', v)} options={options} />
    </div>
  )
}
