// The one-page checkout's page (issue 8 item 1): the form the route's action answers. The total
// shown is the server's own computation (priceOrder), re-run as the buyer changes the choices.
import type { SerializeFrom } from '@remix-run/cloudflare'
import { Form, Link, useNavigation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { CheckoutBreakdown } from '#app/checkout/components/checkout-breakdown.tsx'
import { BlikCodeField, CheckoutAccount, CheckoutInvoice, CheckoutMethods, CheckoutPromo } from '#app/checkout/components/checkout-sections.tsx'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { priceOrder } from '#app/payments/pricing.ts'
import type { CheckoutPageData } from '#app/checkout/checkout.server.ts'
import type { CheckoutAnswer } from '#app/checkout/place-order.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { FieldErrors, FieldMessage, FormValues } from '#app/utils/validation.ts'

/** The route's loader data and its action's last answer (none before the first submission). */
export function CheckoutPage({ data: d, answer: a }: { data: SerializeFrom<CheckoutPageData>; answer: SerializeFrom<CheckoutAnswer> | undefined }) {
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state !== 'idle'
  const values = (a?.values ?? {}) as FormValues
  const errors = (a?.errors ?? {}) as FieldErrors
  const money = (amount: number) => formatMoney(amount, d.currency, d.locale)
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const [priceId, setPriceId] = useState(values.price || d.prices[0]?.id || '')
  const [quantity, setQuantity] = useState(Number(values.quantity ?? 1) || 1)
  const [invoice, setInvoice] = useState(values.invoice ?? 'none')
  const [shipment, setShipment] = useState(values.shipmentType ?? 'parcel_locker')
  const [bump, setBump] = useState(values.bump === 'on')
  const [mode, setMode] = useState<'register' | 'login'>(values.mode === 'login' ? 'login' : 'register')
  // The code the server last accepted ("Apply" or a failed order); a new answer replaces it.
  const [promo, setPromo] = useState(a?.promo ?? null)
  useEffect(() => {
    if (!a) return
    if (a.promo) setPromo(a.promo)
    else if (a.errors?.promoCode || !a.values?.promoCode) setPromo(null)
  }, [a])

  if (d.unavailable || !d.prices.length) {
    return (
      <div className="mx-auto max-w-2xl space-y-6" data-checkout={d.product.slug}>
        <PageTitle subtitle={d.product.title}>{t('checkout.title')}</PageTitle>
        <Alert tone="info">{t(`checkout.unavailable.${d.unavailable ?? 'not_priced'}`)}</Alert>
      </div>
    )
  }
  const chosen = d.prices.find((p) => p.id === priceId) ?? d.prices[0]!
  const seats = Math.max(1, Math.min(d.quantityMax, Math.floor(quantity) || 1))
  const shipping = d.product.kind === 'physical' ? (shipment === 'parcel_locker' ? d.product.lockerPrice : d.product.courierPrice) ?? 0 : 0
  // The same computation the server charges (app/payments/pricing.ts).
  const breakdown = priceOrder({
    unitAmount: chosen.amount,
    quantity: seats,
    vatRate: d.product.vatRate,
    shipping,
    promo: promo ? { kind: promo.kind, value: promo.value } : null,
    bump: bump && d.bump ? { amount: d.bump.amount, vatRate: d.bump.vatRate } : null,
  })
  // Without JavaScript the waiver shows whenever a digital bump is offered (it is required only if ticked).
  const waiverNeeded = d.digital || (!!d.bump?.digital && (bump || !hydrated))
  const courier = d.product.kind === 'physical' && (shipment === 'courier' || !hydrated)
  const showAddress = d.simplified ? courier : invoice !== 'none' || courier || !hydrated
  const consentError = (name: string) => message(errors[name])
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-checkout={d.product.slug}>
      <PageTitle subtitle={d.product.title}>{t('checkout.title')}</PageTitle>
      {d.hasAccess ? (
        <Alert tone="info">
          {t('checkout.already_has_access')}{' '}
          <Link to={d.product.kind === 'course' ? `/${d.product.slug}/watch` : '/panel'} className="font-semibold underline">
            {t('checkout.open_product')}
          </Link>
        </Alert>
      ) : null}
      {a?.formError ? <Alert>{t(a.formError)}</Alert> : null}
      {errors.form ? <Alert>{message(errors.form as FieldMessage)}</Alert> : null}
      <Form method="post" className="space-y-6" noValidate>
        {/* Enter in any field places the order (the first submit button is the default one). */}
        <button type="submit" name="intent" value="order" tabIndex={-1} aria-hidden className="absolute -left-[9999px] h-px w-px overflow-hidden" />
        <Card className="space-y-4 p-5">
          <h2 className="text-lg font-semibold">{t('checkout.order')}</h2>
          {d.prices.length > 1 ? (
            <SelectField
              label={t('checkout.price_variant')}
              name="price"
              value={priceId}
              onChange={(e) => setPriceId(e.currentTarget.value)}
              error={errors.price}
              options={d.prices.map((p) => ({ value: p.id, label: `${p.name || d.product.title} — ${money(p.amount)}` }))}
            />
          ) : (
            <>
              <input type="hidden" name="price" value={d.prices[0]!.id} />
              {errors.price ? (
                <p className="text-sm text-red-700" data-field-error="price">
                  {message(errors.price)}
                </p>
              ) : null}
            </>
          )}
          {d.quantityMax > 1 ? (
            <Field
              label={t('checkout.quantity')}
              name="quantity"
              type="number"
              min={1}
              max={d.quantityMax}
              inputMode="numeric"
              defaultValue={values.quantity ?? '1'}
              onChange={(e) => setQuantity(Number(e.currentTarget.value))}
              error={errors.quantity}
              hint={t('checkout.quantity_hint')}
            />
          ) : null}
          {d.lowestPrice30Days !== null ? (
            <p className="text-sm text-slate-600" data-lowest-price>
              {t('checkout.lowest_price', { price: money(d.lowestPrice30Days) })}
            </p>
          ) : null}
        </Card>

        <Card className="space-y-4 p-5">
          <h2 className="text-lg font-semibold">{t('checkout.buyer')}</h2>
          {d.user ? (
            <p className="text-sm text-slate-700" data-checkout-buyer>
              {t('checkout.signed_in_as', { name: d.user.name, email: d.user.email })}
            </p>
          ) : (
            <CheckoutAccount values={values} errors={errors} mode={mode} onMode={setMode} hydrated={hydrated} simplified={d.simplified} />
          )}
          <CheckoutInvoice values={values} errors={errors} invoice={invoice} onInvoice={setInvoice} showAddress={showAddress} defaultCountry={d.defaultCountry} hydrated={hydrated} simplified={d.simplified} />
        </Card>

        {d.product.kind === 'physical' ? (
          <Card className="space-y-4 p-5">
            <h2 className="text-lg font-semibold">{t('checkout.shipping')}</h2>
            {(['parcel_locker', 'courier'] as const).map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input type="radio" name="shipmentType" value={type} defaultChecked={shipment === type} onChange={() => setShipment(type)} />
                {t(`checkout.shipping.${type}`)} — {money((type === 'parcel_locker' ? d.product.lockerPrice : d.product.courierPrice) ?? 0)}
              </label>
            ))}
            {message(errors.shipmentType) ? <p className="text-sm text-red-700">{message(errors.shipmentType)}</p> : null}
            {shipment === 'parcel_locker' || !hydrated ? (
              <Field label={t('checkout.parcel_locker_code')} name="parcelLockerCode" maxLength={20} defaultValue={values.parcelLockerCode} error={errors.parcelLockerCode} placeholder="KRA01M" />
            ) : null}
            {!hydrated ? <p className="text-xs text-slate-500">{t('checkout.shipping_hint')}</p> : null}
          </Card>
        ) : null}

        {d.bump ? (
          <Card className="p-5" data-order-bump>
            <label className="flex items-start gap-3 rounded-md bg-amber-50 p-4 ring-1 ring-amber-300">
              <input type="checkbox" name="bump" className="mt-1" defaultChecked={bump} onChange={(e) => setBump(e.currentTarget.checked)} />
              <span>
                <span className="font-semibold">{t('checkout.bump_add', { title: d.bump.title, price: money(d.bump.amount) })}</span>
                {d.bump.text ? <span className="mt-1 block text-sm text-slate-700">{d.bump.text}</span> : null}
              </span>
            </label>
          </Card>
        ) : null}

        <Card className="space-y-4 p-5" data-price-breakdown>
          <h2 className="text-lg font-semibold">{t('checkout.summary')}</h2>
          {!d.product.isFree ? (
            <CheckoutPromo
              values={{ ...values, promoCode: values.promoCode ?? d.promoCookie }}
              errors={errors}
              applied={promo ? { code: promo.code, discount: breakdown.discount } : null}
              money={money}
            />
          ) : null}
          <CheckoutBreakdown breakdown={breakdown} money={money} bumpTitle={bump && d.bump ? d.bump.title : null} />
          {d.methods.length > 1 && breakdown.total > 0 ? <CheckoutMethods methods={d.methods} values={values} errors={errors} /> : null}
          {/* One way to pay, Przelewy24: its BLIK code field without the list of methods (issue 25). */}
          {d.methods.length === 1 && d.methods[0]!.provider === 'p24' && breakdown.total > 0 ? <BlikCodeField values={values} errors={errors} /> : null}
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="terms" className="mt-1" defaultChecked={values.terms === 'on'} aria-invalid={consentError('terms') ? true : undefined} aria-describedby={consentError('terms') ? 'terms-error' : undefined} />
            <TermsConsent />
          </label>
          {consentError('terms') ? (
            <p className="text-sm text-red-700" data-error="terms" id="terms-error">
              {consentError('terms')}
            </p>
          ) : null}
          {waiverNeeded ? (
            <>
              <label className="flex items-start gap-2 text-sm">
                <input type="checkbox" name="waiver" className="mt-1" defaultChecked={values.waiver === 'on'} aria-invalid={consentError('waiver') ? true : undefined} />
                <span>{t('checkout.waiver')}</span>
              </label>
              {consentError('waiver') ? (
                <p className="text-sm text-red-700" data-error="waiver">
                  {consentError('waiver')}
                </p>
              ) : null}
            </>
          ) : null}
          <Button type="submit" name="intent" value="order" disabled={busy} className="w-full" data-checkout-submit>
            {breakdown.total === 0 ? t('checkout.get_free') : t('checkout.pay', { amount: money(breakdown.total) })}
          </Button>
        </Card>
      </Form>
    </div>
  )
}

/**
 * "I accept the terms of sale and the privacy policy" with both as links to the school's pages
 * (issue 23 §9); they open in a new tab so the form keeps what was typed.
 */
function TermsConsent() {
  const t = useT()
  const mark = '\u0000'
  const sentence = t('legal.checkout.accept', { terms: `${mark}terms${mark}`, privacy: `${mark}privacy${mark}` })
  const link = (to: '/terms' | '/privacy', label: string) => (
    <a key={to} href={to} target="_blank" rel="noopener" className="font-medium text-brand-700 underline" data-legal-link={to.slice(1)}>
      {label}
    </a>
  )
  return (
    <span>
      {sentence.split(mark).map((part, i) => (part === 'terms' && i % 2 ? link('/terms', t('legal.checkout.terms_link')) : part === 'privacy' && i % 2 ? link('/privacy', t('legal.checkout.privacy_link')) : part))}
    </span>
  )
}
