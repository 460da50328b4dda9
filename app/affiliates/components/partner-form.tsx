// The partner form (create on /home/partners, edit on /home/partners/{id}) and the small pieces
// the pages share. A plain <Form method="post">: works without JavaScript (an empty code is made
// from the name on the server); with JavaScript the code field suggests one as the name is typed.
import { Form, useNavigation } from '@remix-run/react'
import { useRef } from 'react'
import { Button, Field, SelectField } from '#app/components/ui.tsx'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

export type PartnerFormValues = Partial<Record<'name' | 'email' | 'code' | 'commissionKind' | 'commissionValue' | 'cookieDays', string>>

const FIELDS = ['name', 'email', 'code', 'commissionKind', 'commissionValue', 'cookieDays'] as const

/** What the owner typed, to refill the form after a refusal. */
export function echoPartnerInput(input: Record<string, string>): PartnerFormValues {
  const out: PartnerFormValues = {}
  for (const f of FIELDS) if (typeof input[f] === 'string') out[f] = input[f].slice(0, 200)
  return out
}

/** The same rule as suggestPartnerCode on the server (a component may not import a .server module). */
function suggest(name: string) {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 20)
}

export function CommissionLabel({ kind, value, currency }: { kind: 'percent' | 'fixed'; value: number; currency: string }) {
  const locale = useLocale()
  return <span data-partner-commission>{kind === 'percent' ? `${value}%` : formatMoney(value, currency, locale)}</span>
}

export function MoneyList({ items, locale, empty }: { items: Array<{ currency: string; amount: number }>; locale: 'en' | 'pl'; empty: string }) {
  const shown = items.filter((i) => i.amount !== 0)
  if (!shown.length) return <span className="text-slate-500">{empty}</span>
  return <span>{shown.map((i) => formatMoney(i.amount, i.currency, locale)).join(' · ')}</span>
}

export function PartnerForm({
  currency,
  values,
  errors,
  submitLabel,
  dataAttr,
}: {
  currency: string
  values: PartnerFormValues
  errors: FieldErrors
  submitLabel: string
  dataAttr: 'data-partner-create' | 'data-partner-edit'
}) {
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  // The code follows the name until the owner types one of their own.
  const touched = useRef(Boolean(values.code))
  return (
    <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" noValidate {...{ [dataAttr]: true }}>
      <input type="hidden" name="intent" value="save" />
      <Field
        label={t('affiliates.field.name')}
        name="name"
        defaultValue={values.name ?? ''}
        maxLength={120}
        error={errors.name}
        autoComplete="off"
        onInput={(e) => {
          const code = e.currentTarget.form?.elements.namedItem('code')
          if (!touched.current && code instanceof HTMLInputElement) code.value = suggest(e.currentTarget.value)
        }}
      />
      <Field label={t('affiliates.field.email')} name="email" type="email" defaultValue={values.email ?? ''} hint={t('affiliates.field.email_hint')} error={errors.email} autoComplete="off" />
      <Field
        label={t('affiliates.field.code')}
        name="code"
        defaultValue={values.code ?? ''}
        maxLength={40}
        hint={t('affiliates.field.code_hint')}
        error={errors.code}
        autoComplete="off"
        className="sm:col-span-2"
        onInput={() => {
          touched.current = true
        }}
      />
      <SelectField
        label={t('affiliates.field.kind')}
        name="commissionKind"
        defaultValue={values.commissionKind ?? 'percent'}
        error={errors.commissionKind}
        options={[
          { value: 'percent', label: t('affiliates.kind.percent') },
          { value: 'fixed', label: t('affiliates.kind.fixed') },
        ]}
      />
      <Field
        label={t('affiliates.field.value')}
        name="commissionValue"
        inputMode="decimal"
        defaultValue={values.commissionValue ?? ''}
        hint={t('affiliates.field.value_hint', { currency })}
        error={errors.commissionValue}
      />
      <Field
        label={t('affiliates.field.cookie_days')}
        name="cookieDays"
        inputMode="numeric"
        defaultValue={values.cookieDays ?? '30'}
        hint={t('affiliates.field.cookie_days_hint')}
        error={errors.cookieDays}
      />
      {errors.form ? <p className="text-sm text-red-600 sm:col-span-2">{t(errors.form.key, errors.form.values)}</p> : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
      </div>
    </Form>
  )
}
