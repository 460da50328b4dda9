// The promo code form (create on /home/promo-codes, edit on /home/promo-codes/{id}) and the small
// pieces the list shows. A plain <Form method="post">: works without JavaScript.
import { Form, useNavigation } from '@remix-run/react'
import { Button, Field, SelectField } from '#app/components/ui.tsx'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

// Same limits as the model (a component may not import the .server module).
const CODE_MAX = 40

export type PromoFormValues = Partial<Record<'code' | 'kind' | 'value' | 'productId' | 'startsAt' | 'endsAt' | 'usageLimit', string>>

const FIELDS = ['code', 'kind', 'value', 'productId', 'startsAt', 'endsAt', 'usageLimit'] as const

/** What the owner typed, to refill the form after a refusal. */
export function echoInput(input: Record<string, string>): PromoFormValues {
  const out: PromoFormValues = {}
  for (const f of FIELDS) if (typeof input[f] === 'string') out[f] = input[f].slice(0, 200)
  return out
}

export function PromoDiscountLabel({ kind, value, currency }: { kind: 'percent' | 'fixed'; value: number; currency: string }) {
  const locale = useLocale()
  return <span data-promo-discount>{kind === 'percent' ? `${value}%` : formatMoney(value, currency, locale)}</span>
}

const BADGE: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800',
  scheduled: 'bg-sky-100 text-sky-800',
  expired: 'bg-slate-100 text-slate-600',
  used_up: 'bg-amber-100 text-amber-800',
}

export function PromoStatusBadge({ status }: { status: 'active' | 'scheduled' | 'expired' | 'used_up' }) {
  const t = useT()
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-semibold ${BADGE[status]}`} data-promo-status={status}>
      {t(`promo.status.${status}`)}
    </span>
  )
}

export function PromoCodeForm({
  products,
  currency,
  values,
  errors,
  submitLabel,
  dataAttr,
}: {
  products: Array<{ id: string; title: string }>
  currency: string
  values: PromoFormValues
  errors: FieldErrors
  submitLabel: string
  dataAttr: 'data-promo-create' | 'data-promo-edit'
}) {
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  return (
    <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" noValidate {...{ [dataAttr]: true }}>
      <input type="hidden" name="intent" value="save" />
      <Field
        label={t('promo.field.code')}
        name="code"
        defaultValue={values.code ?? ''}
        maxLength={CODE_MAX}
        hint={t('promo.field.code_hint')}
        error={errors.code}
        autoComplete="off"
        className="sm:col-span-2"
      />
      <SelectField
        label={t('promo.field.kind')}
        name="kind"
        defaultValue={values.kind ?? 'percent'}
        error={errors.kind}
        options={[
          { value: 'percent', label: t('promo.kind.percent') },
          { value: 'fixed', label: t('promo.kind.fixed') },
        ]}
      />
      <Field label={t('promo.field.value')} name="value" inputMode="decimal" defaultValue={values.value ?? ''} hint={t('promo.field.value_hint', { currency })} error={errors.value} />
      <SelectField
        label={t('promo.field.product')}
        name="productId"
        defaultValue={values.productId ?? ''}
        error={errors.productId}
        options={[{ value: '', label: t('promo.field.product_all') }, ...products.map((p) => ({ value: p.id, label: p.title }))]}
      />
      <Field label={t('promo.field.usage_limit')} name="usageLimit" inputMode="numeric" defaultValue={values.usageLimit ?? '-1'} hint={t('promo.field.usage_limit_hint')} error={errors.usageLimit} />
      <Field label={t('promo.field.starts_at')} name="startsAt" type="date" defaultValue={values.startsAt ?? ''} hint={t('promo.field.dates_hint')} error={errors.startsAt} />
      <Field label={t('promo.field.ends_at')} name="endsAt" type="date" defaultValue={values.endsAt ?? ''} error={errors.endsAt} />
      {errors.form ? <p className="text-sm text-red-600 sm:col-span-2">{t(errors.form.key, errors.form.values)}</p> : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  )
}
