import type { BlockProps } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Choice, NumberInput, TextInput, type FormProps } from './parts.tsx'

export function ReviewsForm({ value, onChange, errors, options }: FormProps<BlockProps<'reviews'>>) {
  const t = useT()
  return (
    <div className="space-y-4">
      <TextInput label={t('subpages.f.heading')} path="heading" errors={errors} value={value.heading} onChange={(v) => onChange({ ...value, heading: v })} maxLength={120} />
      <Choice
        label={t('subpages.f.product')}
        path="productId"
        errors={errors}
        value={value.productId}
        onChange={(v) => onChange({ ...value, productId: v })}
        choices={[{ value: '', label: t('subpages.f.choose') }, ...options.products.map((p) => ({ value: p.id, label: p.title }))]}
      />
      <NumberInput label={t('subpages.f.page_size')} path="pageSize" errors={errors} value={value.pageSize} onChange={(v) => onChange({ ...value, pageSize: v })} min={1} max={20} />
    </div>
  )
}
