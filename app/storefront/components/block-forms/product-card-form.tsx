import type { BlockProps } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Check, Choice, TextInput, type FormProps } from './parts.tsx'

export function ProductCardForm({ value, onChange, errors, options }: FormProps<BlockProps<'product_card'>>) {
  const t = useT()
  return (
    <div className="space-y-4">
      <Choice
        label={t('subpages.f.product')}
        path="productId"
        errors={errors}
        value={value.productId}
        onChange={(v) => onChange({ ...value, productId: v })}
        choices={[{ value: '', label: t('subpages.f.choose') }, ...options.products.map((p) => ({ value: p.id, label: p.title }))]}
      />
      <Check label={t('subpages.f.show_description')} path="showDescription" errors={errors} checked={value.showDescription} onChange={(v) => onChange({ ...value, showDescription: v })} />
      <TextInput
        label={t('subpages.f.button_text')}
        path="buttonText"
        errors={errors}
        value={value.buttonText}
        onChange={(v) => onChange({ ...value, buttonText: v })}
        maxLength={40}
        hint={t('subpages.f.button_text_product_hint')}
      />
    </div>
  )
}
