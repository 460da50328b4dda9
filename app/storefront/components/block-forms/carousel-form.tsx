import type { BlockProps, ImageRef } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Check, ImagePicker, ListEditor, TextInput, type FormProps } from './parts.tsx'

type Slide = BlockProps<'carousel'>['slides'][number]

export function CarouselForm({ value, onChange, errors, options }: FormProps<BlockProps<'carousel'>>) {
  const t = useT()
  return (
    <div className="space-y-4">
      <ListEditor<Slide>
        label={t('subpages.f.slides')}
        path="slides"
        errors={errors}
        items={value.slides}
        max={20}
        onChange={(slides) => onChange({ ...value, slides })}
        // No image yet: the draft does not parse until one is uploaded.
        make={() => ({
          image: null as unknown as ImageRef,
          alt: '',
          caption: '',
          href: '',
        })}
        itemLabel={(i) => t('subpages.f.slide_n', { n: i + 1 })}
        render={(slide, i, update) => (
          <>
            <ImagePicker label={t('subpages.f.image')} path={`slides.${i}.image`} errors={errors} value={slide.image} onChange={(v) => update({ ...slide, image: v as ImageRef })} options={options} />
            <div className="grid gap-3 sm:grid-cols-2">
              <TextInput label={t('subpages.f.alt')} path={`slides.${i}.alt`} errors={errors} value={slide.alt} onChange={(v) => update({ ...slide, alt: v })} maxLength={200} />
              <TextInput label={t('subpages.f.caption')} path={`slides.${i}.caption`} errors={errors} value={slide.caption} onChange={(v) => update({ ...slide, caption: v })} maxLength={200} />
            </div>
            <TextInput label={t('subpages.f.link')} path={`slides.${i}.href`} errors={errors} value={slide.href} onChange={(v) => update({ ...slide, href: v })} maxLength={500} />
          </>
        )}
      />
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <Check label={t('subpages.f.dots')} path="dots" errors={errors} checked={value.dots} onChange={(v) => onChange({ ...value, dots: v })} />
        <Check label={t('subpages.f.arrows')} path="arrows" errors={errors} checked={value.arrows} onChange={(v) => onChange({ ...value, arrows: v })} />
        <Check label={t('subpages.f.autoplay')} path="autoplay" errors={errors} checked={value.autoplay} onChange={(v) => onChange({ ...value, autoplay: v })} />
      </div>
    </div>
  )
}
