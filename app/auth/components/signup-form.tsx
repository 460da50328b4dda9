// The platform's signup form (issue 23 §7): the school address follows the name as it is typed
// until the creator edits it; the tax choice follows the currency until the creator picks one.
// Without JavaScript the server does both (an empty address comes from the name). Every field
// error shows at once, with a count at the top for screen readers.
import { Form, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { NewPasswordFields } from '#app/auth/components/new-password-fields.tsx'
import { suggestSlug } from '#app/auth/school-slug.ts'
import { CURRENCIES, DEFAULT_VAT_RATE, defaultVatMode } from '#app/auth/signup-defaults.ts'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export function SignupForm({ hostSuffix, errors, values = {} }: { hostSuffix: string; errors?: FieldErrors; values?: FormValues }) {
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const [slug, setSlug] = useState(values.slug ?? '')
  // Once the creator types an address (or the server echoed one), the name no longer changes it.
  const [slugEdited, setSlugEdited] = useState(Boolean(values.slug))
  const initialCurrency = values.currency ?? (locale === 'pl' ? 'PLN' : 'USD')
  const [vatMode, setVatMode] = useState(values.vat_mode || defaultVatMode(initialCurrency))
  const [vatChosen, setVatChosen] = useState(Boolean(values.vat_mode))
  const fieldErrors = Object.keys(errors ?? {}).filter((k) => k !== 'form').length
  return (
    <div className="mx-auto max-w-xl">
      <PageTitle subtitle={t('platform.signup.subtitle')}>{t('platform.signup.title')}</PageTitle>
      <Card>
        <Form method="post" className="space-y-6" noValidate>
          {errors?.form ? <Alert>{message(errors.form)}</Alert> : null}
          {fieldErrors > 0 ? <Alert>{t('platform.signup.errors_title', { count: fieldErrors })}</Alert> : null}
          <fieldset className="space-y-4">
            <legend className="text-base font-semibold">{t('platform.signup.school_section')}</legend>
            <Field
              label={t('platform.signup.school_name')}
              name="school_name"
              defaultValue={values.school_name}
              required
              maxLength={70}
              error={errors?.school_name}
              onChange={(e) => {
                if (!slugEdited) setSlug(suggestSlug(e.currentTarget.value))
              }}
            />
            <Field
              label={t('platform.signup.slug')}
              name="slug"
              maxLength={40}
              pattern="[a-z0-9][a-z0-9\-]{1,38}[a-z0-9]"
              autoCapitalize="none"
              spellCheck={false}
              value={slug}
              onChange={(e) => {
                setSlugEdited(true)
                setSlug(e.currentTarget.value.toLowerCase())
              }}
              hint={`${t('platform.signup.slug_hint', { example: `${slug || 'my-school'}${hostSuffix}` })}${slugEdited ? '' : ` ${t('platform.signup.slug_suggested')}`}`}
              error={errors?.slug}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label={t('platform.signup.language')}
                name="language"
                defaultValue={values.language ?? locale}
                options={[
                  { value: 'en', label: t('lang.en') },
                  { value: 'pl', label: t('lang.pl') },
                ]}
                error={errors?.language}
              />
              <SelectField
                label={t('platform.signup.currency')}
                name="currency"
                defaultValue={initialCurrency}
                options={CURRENCIES.map((c) => ({ value: c, label: c }))}
                error={errors?.currency}
                onChange={(e) => {
                  if (!vatChosen) setVatMode(defaultVatMode(e.currentTarget.value))
                }}
              />
            </div>
          </fieldset>
          <fieldset className="space-y-4">
            <legend className="text-base font-semibold">{t('platform.signup.tax_section')}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label={t('platform.signup.vat_mode')}
                name="vat_mode"
                value={vatMode}
                onChange={(e) => {
                  setVatChosen(true)
                  setVatMode(e.currentTarget.value)
                }}
                options={[
                  { value: 'vat', label: t('platform.signup.vat_mode.vat') },
                  { value: 'none', label: t('platform.signup.vat_mode.none') },
                ]}
                hint={t('platform.signup.vat_mode_hint')}
                error={errors?.vat_mode}
              />
              {vatMode === 'vat' ? (
                <Field label={t('platform.signup.vat_rate')} name="vat_rate" type="number" inputMode="numeric" min={0} max={50} step={1} defaultValue={values.vat_rate || String(DEFAULT_VAT_RATE)} error={errors?.vat_rate} />
              ) : null}
            </div>
          </fieldset>
          <fieldset className="space-y-4">
            <legend className="text-base font-semibold">{t('platform.signup.account_section')}</legend>
            <Field label={t('auth.name')} name="name" defaultValue={values.name} autoComplete="name" required maxLength={70} error={errors?.name} />
            <Field label={t('auth.email')} name="email" type="email" defaultValue={values.email} autoComplete="email" required maxLength={254} error={errors?.email} />
            <NewPasswordFields errors={errors} />
          </fieldset>
          <Button type="submit" disabled={busy} className="w-full">
            {t('platform.signup.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
