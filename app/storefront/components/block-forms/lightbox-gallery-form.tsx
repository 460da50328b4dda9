import type { BlockProps, ImageRef } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Check, ImagePicker, ListEditor, TextInput, type FormProps } from './parts.tsx'

type Item = BlockProps<'lightbox_gallery'>['images'][number]

export function LightboxGalleryForm({ value, onChange, errors, options }: FormProps<BlockProps<'lightbox_gallery'>>) {
  const t = useT()
  return (
    <div className="space-y-4">
      <TextInput label={t('subpages.f.heading')} path="heading" errors={errors} value={value.heading} onChange={(v) => onChange({ ...value, heading: v })} maxLength={120} />
      <ListEditor<Item>
        label={t('subpages.f.images')}
        path="images"
        errors={errors}
        items={value.images}
        max={40}
        onChange={(images) => onChange({ ...value, images })}
        make={() => ({
          image: null as unknown as ImageRef,
          alt: '',
          caption: '',
          thumbnail: null,
        })}
        itemLabel={(i) => t('subpages.f.image_n', { n: i + 1 })}
        render={(item, i, update) => (
          <>
            <ImagePicker label={t('subpages.f.image')} path={`images.${i}.image`} errors={errors} value={item.image} onChange={(v) => update({ ...item, image: v as ImageRef })} options={options} />
            <div className="grid gap-3 sm:grid-cols-2">
              <TextInput label={t('subpages.f.alt')} path={`images.${i}.alt`} errors={errors} value={item.alt} onChange={(v) => update({ ...item, alt: v })} maxLength={200} />
              <TextInput label={t('subpages.f.caption')} path={`images.${i}.caption`} errors={errors} value={item.caption} onChange={(v) => update({ ...item, caption: v })} maxLength={200} />
            </div>
          </>
        )}
      />
      <Check label={t('subpages.f.loop')} path="loop" errors={errors} checked={value.loop} onChange={(v) => onChange({ ...value, loop: v })} />
    </div>
  )
}
