// Card payment form for the card update of a membership (seed 000 widget 7/14, §4 card form, §5
// card rules, §8). Number with brand detection and the brand's spacing, expiry month (01–12) and
// year (this year + 11) selects, security code sized by brand (American Express 4); each field
// valid, potentially invalid or invalid (card-validator). The four fields and the page origin are
// encrypted together in the browser (app/payments/card.ts) with the card vault's public key and
// only that cypher is posted: the inputs have no names, so no form ever carries the raw number.
// Without JavaScript nothing can be encrypted: the form says so.
import { useEffect, useId, useMemo, useState } from 'react'
import { cardComplete, cardStates, cardValid, detectBrand, encryptCard, formatCardNumber, LOGO_BRANDS, monthOptions, yearOptions, type FieldState } from '#app/payments/card.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Alert, Button, cx } from '#app/components/ui.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

type ServerErrors = Partial<Record<'cypher' | 'sale' | 'membership', string[]>>

const inputClass = (state: FieldState, touched: boolean) =>
  cx(
    'block w-full rounded-md border bg-white px-3 py-2 text-slate-900 shadow-sm focus:outline-none focus:ring-2 focus:ring-brand-100',
    !touched ? 'border-slate-300' : state === 'valid' ? 'border-emerald-500' : state === 'invalid' ? 'border-red-500' : 'border-amber-400',
  )

export function CardForm({ membershipId, onCancel, onSaved }: { membershipId: string; onCancel?: () => void; onSaved?: () => void }) {
  const t = useT()
  const id = useId()
  const [hydrated, setHydrated] = useState(false)
  const [publicKey, setPublicKey] = useState<JsonWebKey | null>(null)
  const [keyProblem, setKeyProblem] = useState(false)
  const [number, setNumber] = useState('')
  const [month, setMonth] = useState('')
  const [year, setYear] = useState('')
  const [cvv, setCvv] = useState('')
  const [touched, setTouched] = useState({ number: false, month: false, year: false, cvv: false })
  const [busy, setBusy] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const [errors, setErrors] = useState<ServerErrors>({})

  useEffect(() => {
    setHydrated(true)
    let live = true
    fetch('/my/membership/card', { headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })
      .then((r) => (r.ok ? (r.json() as Promise<{ publicKey?: JsonWebKey | null }>) : null))
      .then((body: { publicKey?: JsonWebKey | null } | null) => {
        if (!live) return
        if (body?.publicKey) setPublicKey(body.publicKey)
        else setKeyProblem(true)
      })
      .catch(() => live && setKeyProblem(true))
    return () => {
      live = false
    }
  }, [])

  // A message about the last attempt goes once the student changes a field.
  useEffect(() => {
    setFormError(null)
    setErrors({})
  }, [number, month, year, cvv])

  const brand = detectBrand(number)
  const fields = { cardNumber: number, cardMonth: month, cardYear: year, cardCvv: cvv }
  const states = cardStates(fields)
  const years = useMemo(() => yearOptions(), [])

  async function submit(event: React.FormEvent) {
    event.preventDefault()
    setErrors({})
    setTouched({ number: true, month: true, year: true, cvv: true })
    if (!cardComplete(fields)) return setFormError(t('membership.card.error.fields'))
    if (!cardValid(states)) return setFormError(t('membership.card.error.cypher'))
    if (!publicKey) return setFormError(t('membership.card.error.problem'))
    setFormError(null)
    setBusy(true)
    try {
      const cypher = await encryptCard(publicKey, { ...fields, origin: window.location.origin })
      const res = await fetch('/my/membership/card', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: new URLSearchParams({ cypher, membership_id: membershipId }).toString(),
      })
      if (res.status === 419) return goToLogin()
      const body = (await res.json().catch(() => null)) as { ok?: boolean; errors?: ServerErrors } | null
      if (res.ok && body?.ok) {
        onSaved?.()
        return window.location.assign(`/panel?membership_notice=card_updated&membership=${encodeURIComponent(membershipId)}#membership-${membershipId}`)
      }
      if (body?.errors) setErrors(body.errors)
      else setFormError(t('membership.error.generic'))
    } catch {
      setFormError(t('membership.error.generic'))
    } finally {
      setBusy(false)
    }
  }

  const fieldError = (state: FieldState, wasTouched: boolean, key: string) =>
    wasTouched && state === 'invalid' ? (
      <p className="text-sm text-red-600" data-card-field-error>
        {t(key)}
      </p>
    ) : null
  const serverMessages = [...(errors.cypher ?? []), ...(errors.sale ?? []), ...(errors.membership ?? [])]

  return (
    <form onSubmit={submit} noValidate className="space-y-3" data-card-form aria-busy={busy || undefined}>
      <noscript>
        <Alert tone="info">{t('membership.card.no_js')}</Alert>
      </noscript>
      <div className="space-y-1">
        <label htmlFor={`${id}-number`} className="flex items-center justify-between text-sm font-medium text-slate-700">
          <span>{t('membership.card.number')}</span>
          {brand.type !== 'unknown' ? (
            <span data-card-brand={brand.type} className={cx('rounded px-2 py-0.5 text-xs font-semibold', (LOGO_BRANDS as readonly string[]).includes(brand.type) ? 'bg-slate-800 text-white' : 'bg-slate-100 text-slate-700')}>
              {brand.niceType}
            </span>
          ) : null}
        </label>
        <input
          id={`${id}-number`}
          data-card-number
          data-state={states.cardNumber}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="0000 0000 0000 0000"
          value={number}
          disabled={!hydrated}
          aria-invalid={touched.number && states.cardNumber === 'invalid' ? true : undefined}
          onChange={(e) => setNumber(formatCardNumber(e.target.value))}
          onBlur={() => setTouched((v) => ({ ...v, number: true }))}
          className={inputClass(states.cardNumber, touched.number || number.length > 0)}
        />
        {fieldError(states.cardNumber, touched.number || states.cardNumber === 'invalid', 'membership.card.invalid.number')}
      </div>
      <div className="grid grid-cols-3 gap-3">
        <div className="space-y-1">
          <label htmlFor={`${id}-month`} className="block text-sm font-medium text-slate-700">
            {t('membership.card.month')}
          </label>
          <select
            id={`${id}-month`}
            data-card-month
            data-state={states.cardMonth}
            autoComplete="cc-exp-month"
            value={month}
            disabled={!hydrated}
            aria-invalid={touched.month && states.cardMonth === 'invalid' ? true : undefined}
            onChange={(e) => {
              setMonth(e.target.value)
              setTouched((v) => ({ ...v, month: true }))
            }}
            className={inputClass(states.cardMonth, touched.month)}
          >
            <option value="">MM</option>
            {monthOptions().map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
          {fieldError(states.cardMonth, touched.month, 'membership.card.invalid.month')}
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-year`} className="block text-sm font-medium text-slate-700">
            {t('membership.card.year')}
          </label>
          <select
            id={`${id}-year`}
            data-card-year
            data-state={states.cardYear}
            autoComplete="cc-exp-year"
            value={year}
            disabled={!hydrated}
            onChange={(e) => {
              setYear(e.target.value)
              setTouched((v) => ({ ...v, year: true }))
            }}
            className={inputClass(states.cardYear, touched.year)}
          >
            <option value="">YYYY</option>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
          {fieldError(states.cardYear, touched.year, 'membership.card.invalid.year')}
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-cvv`} className="block text-sm font-medium text-slate-700">
            {t('membership.card.cvv', { name: brand.codeName })}
          </label>
          <input
            id={`${id}-cvv`}
            data-card-cvv
            data-state={states.cardCvv}
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={brand.codeSize}
            placeholder={'0'.repeat(brand.codeSize)}
            value={cvv}
            disabled={!hydrated}
            aria-invalid={touched.cvv && states.cardCvv === 'invalid' ? true : undefined}
            onChange={(e) => setCvv(e.target.value.replace(/\D/g, '').slice(0, brand.codeSize))}
            onBlur={() => setTouched((v) => ({ ...v, cvv: true }))}
            className={inputClass(states.cardCvv, touched.cvv)}
          />
          {fieldError(states.cardCvv, touched.cvv, 'membership.card.invalid.cvv')}
        </div>
      </div>
      {formError || serverMessages.length || keyProblem ? (
        <div data-card-errors>
          <Alert>{[formError, ...serverMessages, keyProblem ? t('membership.card.error.problem') : null].filter(Boolean).join(' ')}</Alert>
        </div>
      ) : null}
      <p className="text-xs text-slate-500">{t('membership.card.secure')}</p>
      <div className="flex gap-2">
        <Button type="submit" disabled={!hydrated || busy || !publicKey} data-card-save>
          {t('membership.card.save')}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            {t('membership.card.cancel')}
          </Button>
        ) : null}
      </div>
    </form>
  )
}
