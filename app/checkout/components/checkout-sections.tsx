// Parts of the one-page checkout form (issue 8 item 1). Plain inputs of one <Form>: everything
// works without JavaScript; with it, choices only show or hide the fields that apply.
import { useEffect, useRef, useState } from 'react'
import { z } from 'zod'
import { parseTaxId, taxIdKey } from '#app/checkout/company-lookup/tax-id.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'
import type { PaymentProvider as PaymentProviderName } from '#app/db/schema.server.ts'
import { Button, Field } from '#app/components/ui.tsx'

type Parts = { values: FormValues; errors: FieldErrors }

/** A visitor creates the account here, or logs in with an existing one, in the same submission. */
export function CheckoutAccount({ values, errors, mode, onMode, hydrated, simplified = false }: Parts & { mode: string; onMode: (mode: 'register' | 'login') => void; hydrated: boolean; simplified?: boolean }) {
  const t = useT()
  // The simplified checkout (issue 23 §11): a new buyer gives only name and e-mail; the password is for logging in.
  const askPassword = !simplified || !hydrated || mode === 'login'
  return (
    <div className="space-y-4" data-checkout-account={mode}>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="sr-only">{t('checkout.account')}</legend>
        {(['register', 'login'] as const).map((m) => (
          <label key={m} className="inline-flex items-center gap-2">
            <input type="radio" name="mode" value={m} defaultChecked={mode === m} onChange={() => onMode(m)} />
            {t(`checkout.mode.${m}`)}
          </label>
        ))}
      </fieldset>
      {/* Without JavaScript both modes' fields show; the name is ignored when logging in. */}
      {!hydrated || mode === 'register' ? <Field label={t('checkout.name')} name="name" autoComplete="name" maxLength={70} defaultValue={values.name} error={errors.name} required={mode === 'register'} /> : null}
      <Field label={t('checkout.email')} name="email" type="email" autoComplete="email" maxLength={254} defaultValue={values.email} error={errors.email} required />
      {simplified && mode === 'register' ? <p className="text-sm text-slate-600" data-simplified-intro>{t('checkout.simplified.intro')}</p> : null}
      {askPassword ? (
        <Field
          label={hydrated && mode === 'login' ? t('checkout.password_login') : t('checkout.password')}
          name="password"
          type="password"
          autoComplete={mode === 'login' || simplified ? 'current-password' : 'new-password'}
          error={errors.password}
          required={!simplified || mode === 'login'}
          hint={hydrated && mode === 'login' ? undefined : simplified ? t('checkout.simplified.password_hint') : t('checkout.password_hint')}
        />
      ) : null}
    </div>
  )
}

/** Invoice details: none, a person, or a company with its VAT number (seed 001 §3, §5). */
export function CheckoutInvoice({ values, errors, invoice, onInvoice, showAddress, defaultCountry, hydrated, simplified = false }: Parts & { invoice: string; onInvoice: (v: string) => void; showAddress: boolean; defaultCountry: string; hydrated: boolean; simplified?: boolean }) {
  const t = useT()
  return (
    <>
      {/* The simplified checkout asks no invoice details (only a courier's address, when shipping). */}
      {simplified ? null : (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">{t('checkout.invoice')}</legend>
          {(['none', 'person', 'company'] as const).map((kind) => (
            <label key={kind} className="mr-4 inline-flex items-center gap-2 text-sm">
              <input type="radio" name="invoice" value={kind} defaultChecked={invoice === kind} onChange={() => onInvoice(kind)} />
              {t(`checkout.invoice.${kind}`)}
            </label>
          ))}
        </fieldset>
      )}
      {/* Without JavaScript every field shows; the server asks only for those that apply. */}
      {!simplified && (invoice === 'company' || !hydrated) ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('checkout.company_name')} name="companyName" maxLength={150} defaultValue={values.companyName} error={errors.companyName} />
          <div className="space-y-2">
            <Field label={t('checkout.vat_number')} name="vatNumber" maxLength={15} defaultValue={values.vatNumber} error={errors.vatNumber} placeholder="PL1234567890" hint={t('checkout.vat_number_hint')} />
            {/* Only with JavaScript: without it the buyer types the company's details (nothing depends on the lookup). */}
            {hydrated ? <CompanyLookup /> : null}
          </div>
        </div>
      ) : null}
      {showAddress ? (
        <div className="grid gap-4 sm:grid-cols-4" data-checkout-address>
          <Field label={t('checkout.address')} name="address" autoComplete="street-address" maxLength={150} defaultValue={values.address} error={errors.address} className="sm:col-span-4" />
          <Field label={t('checkout.postal_code')} name="postalCode" autoComplete="postal-code" maxLength={12} defaultValue={values.postalCode} error={errors.postalCode} placeholder={(values.country || defaultCountry) === 'PL' ? '12-345' : ''} />
          <Field label={t('checkout.city')} name="city" autoComplete="address-level2" maxLength={70} defaultValue={values.city} error={errors.city} className="sm:col-span-2" />
          <Field label={t('checkout.country')} name="country" autoComplete="country" maxLength={2} defaultValue={values.country ?? defaultCountry} error={errors.country} hint={t('checkout.country_hint')} />
        </div>
      ) : null}
    </>
  )
}

const lookupAnswerSchema = z.union([
  z.object({
    ok: z.literal(true),
    company: z.object({ name: z.string(), street: z.string(), postalCode: z.string(), city: z.string(), country: z.string() }),
  }),
  z.object({ ok: z.literal(false), reason: z.enum(['checksum', 'not_found', 'unavailable']) }),
])

type LookupStatus = { tone: 'busy' | 'ok' | 'error'; text: string } | null

/** Write a value into one of the form's inputs (they stay plain, editable inputs). */
function fillInput(form: HTMLFormElement, name: string, value: string) {
  const input = form.elements.namedItem(name)
  if (!(input instanceof HTMLInputElement) || !value) return
  input.value = value
  input.dispatchEvent(new Event('input', { bubbles: true }))
}

/**
 * "Fill from the register" next to the NIP / VAT number (issue 25): a wrong NIP checksum is said at
 * once, without a request; otherwise /checkout/company-lookup answers and the company's name and
 * address are written into the fields, which stay editable. A failure says so and leaves the fields
 * as typed. Messages go to a polite live region.
 */
function CompanyLookup() {
  const t = useT()
  const ref = useRef<HTMLDivElement>(null)
  const [status, setStatus] = useState<LookupStatus>(null)
  const busy = status?.tone === 'busy'

  // A mistyped NIP is said as soon as the buyer leaves the field (no request is made for it).
  useEffect(() => {
    const input = ref.current?.closest('form')?.elements.namedItem('vatNumber')
    if (!(input instanceof HTMLInputElement)) return
    const onChange = () => {
      const query = parseTaxId(input.value)
      if (input.value.trim() && query.kind === 'invalid' && query.reason === 'checksum') setStatus({ tone: 'error', text: t('company_lookup.checksum') })
      else setStatus((s) => (s?.tone === 'error' ? null : s))
    }
    input.addEventListener('change', onChange)
    return () => input.removeEventListener('change', onChange)
  }, [t])

  async function lookUp() {
    const form = ref.current?.closest('form')
    const input = form?.elements.namedItem('vatNumber')
    if (!form || !(input instanceof HTMLInputElement)) return
    const raw = input.value.trim()
    const query = parseTaxId(raw)
    if (!raw || query.kind === 'invalid') {
      setStatus({ tone: 'error', text: t(!raw ? 'company_lookup.empty' : query.kind === 'invalid' && query.reason === 'checksum' ? 'company_lookup.checksum' : 'company_lookup.format') })
      input.focus()
      return
    }
    // The order takes the number in international format (seed 001 §5, e.g. PL1234567890): a NIP
    // typed as ten digits or with separators is written back that way, whatever the register says.
    fillInput(form, 'vatNumber', taxIdKey(query))
    setStatus({ tone: 'busy', text: t('company_lookup.searching') })
    const param = query.kind === 'nip' ? `nip=${query.nip}` : `vat=${query.country}${query.number}`
    let answer: z.infer<typeof lookupAnswerSchema> | null = null
    try {
      const res = await fetch(`/checkout/company-lookup?${param}`, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(20_000) })
      const parsed = lookupAnswerSchema.safeParse(await res.json())
      answer = parsed.success ? parsed.data : null
    } catch {
      answer = null
    }
    if (!answer || !answer.ok) {
      const reason = answer && !answer.ok ? answer.reason : 'unavailable'
      setStatus({ tone: 'error', text: t(`company_lookup.${reason}`) })
      return
    }
    const c = answer.company
    fillInput(form, 'companyName', c.name)
    fillInput(form, 'address', c.street)
    fillInput(form, 'postalCode', c.postalCode)
    fillInput(form, 'city', c.city)
    fillInput(form, 'country', c.country)
    setStatus(c.name ? { tone: 'ok', text: t('company_lookup.filled', { name: c.name }) } : { tone: 'ok', text: t('company_lookup.filled_partly') })
  }

  return (
    <div ref={ref} className="space-y-1" data-company-lookup>
      <Button type="button" variant="secondary" onClick={lookUp} disabled={busy} aria-busy={busy || undefined}>
        {busy ? t('company_lookup.button_busy') : t('company_lookup.button')}
      </Button>
      <p role="status" aria-live="polite" data-company-lookup-status={status?.tone ?? ''} className={status?.tone === 'error' ? 'text-sm text-red-700' : status?.tone === 'ok' ? 'text-sm text-green-700' : 'text-sm text-slate-600'}>
        {status?.text ?? ''}
      </p>
    </div>
  )
}

/** Promo code: checked by the server ("Apply" re-prices the order without placing it). */
export function CheckoutPromo({ values, errors, applied, money }: Parts & { applied: { code: string; discount: number } | null; money: (n: number) => string }) {
  const t = useT()
  return (
    <div className="space-y-2" data-checkout-promo>
      <div className="flex items-end gap-2">
        <Field
          className="flex-1"
          label={t('checkout.promo_code')}
          name="promoCode"
          autoComplete="off"
          maxLength={40}
          defaultValue={values.promoCode}
          error={errors.promoCode}
          onKeyDown={(e) => {
            // Enter in this field applies the code instead of placing the order.
            if (e.key !== 'Enter') return
            e.preventDefault()
            const form = e.currentTarget.form
            form?.requestSubmit(form.querySelector<HTMLButtonElement>('button[value="apply_promo"]') ?? undefined)
          }}
        />
        <Button type="submit" name="intent" value="apply_promo" variant="secondary" formNoValidate className={errors.promoCode ? 'mb-7' : ''}>
          {t('checkout.promo_apply')}
        </Button>
      </div>
      {applied && !errors.promoCode ? (
        <p className="text-sm text-green-700" data-promo-applied>
          {t('checkout.promo_applied', { code: applied.code, amount: money(applied.discount) })}
        </p>
      ) : null}
    </div>
  )
}

/**
 * BLIK level 0 with Przelewy24 (issue 25): the 6-digit code from the buyer's banking app, typed
 * here; empty = choose on Przelewy24's page. The server validates it (`errors.blik_code`).
 */
export function BlikCodeField({ values, errors }: Parts) {
  const t = useT()
  return (
    <Field
      label={t('checkout_blik.label')}
      name="blik_code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      maxLength={6}
      defaultValue={values.blik_code}
      error={errors.blik_code}
      hint={t('checkout_blik.hint')}
      data-blik-code
    />
  )
}

/** The ways to pay when the school offers more than one in this currency (the first is the default). */
export function CheckoutMethods({ methods, values, errors }: Parts & { methods: Array<{ id: string; provider: PaymentProviderName }> }) {
  const t = useT()
  const fieldMessage = useFieldMessage()
  const chosen = methods.some((m) => m.id === values.integration) ? values.integration : methods[0]?.id
  const [picked, setPicked] = useState(chosen)
  // Without JavaScript the BLIK field shows under Przelewy24 whichever method is chosen.
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return (
    <fieldset className="space-y-2" data-checkout-methods aria-invalid={errors.integration ? true : undefined}>
      <legend className="text-sm font-semibold">{t('checkout.method.title')}</legend>
      {methods.map((m) => (
        <div key={m.id} className="space-y-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="integration" value={m.id} defaultChecked={chosen === m.id} data-provider={m.provider} onChange={() => setPicked(m.id)} />
            {t(`checkout.method.${m.provider}`)}
          </label>
          {m.provider === 'p24' && (!hydrated || picked === m.id || errors.blik_code) ? (
            <div className="ml-6 max-w-xs">
              <BlikCodeField values={values} errors={errors} />
            </div>
          ) : null}
        </div>
      ))}
      {errors.integration ? (
        <p className="text-sm text-red-700" data-field-error="integration">
          {fieldMessage(errors.integration)}
        </p>
      ) : null}
    </fieldset>
  )
}
