// /{slug}/checkout: the one-page checkout (issue 8 item 1, seed 000 §7, seed 001 §5). A plain form
// that works without JavaScript: price variant, seats (courses), an account for visitors (or a
// link to log in), invoice details, shipping for physical products, terms and the withdrawal-waiver
// consent for digital content. The server prices the order (app/checkout/checkout.server.ts).
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { checkoutSchema, DIGITAL_KINDS, loadCheckoutOffer, placeOrder, quote } from '#app/checkout/checkout.server.ts'
import { recordRegistration } from '#app/models/app-event.server.ts'
import { createUser } from '#app/models/user.server.ts'
import { QUANTITY_MAX } from '#app/payments/pricing.ts'
import { getCurrentUserOrVerify, startSession } from '#app/utils/auth.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formToObject, parseWith, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await getCurrentUserOrVerify(request, context)
  const offer = await loadCheckoutOffer(context, tenant, params.slug ?? '', user ? { id: user.id, role: user.role } : null)
  if (!offer || !offer.prices.length) notFound()
  const p = offer.product
  const t = getT(request, context)
  return data(
    {
      title: `${t('checkout.title')} · ${p.title}`,
      product: { title: p.title, slug: p.slug, kind: p.kind, vatRate: p.vatRate, isFree: p.isFree, lockerPrice: p.shippingLockerPrice, courierPrice: p.shippingCourierPrice },
      prices: offer.prices,
      lowestPrice30Days: offer.promo ? offer.lowestPrice30Days : null,
      hasAccess: offer.hasAccess,
      currency: tenant.currency,
      locale: tenant.language,
      user: user ? { name: user.name, email: user.email } : null,
      digital: DIGITAL_KINDS.includes(p.kind),
      quantityMax: p.kind === 'course' ? QUANTITY_MAX : 1,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type ActionData = { errors: FieldErrors; values: FormValues; formError?: string }

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await getCurrentUserOrVerify(request, context)
  const offer = await loadCheckoutOffer(context, tenant, params.slug ?? '', user ? { id: user.id, role: user.role } : null)
  if (!offer || !offer.prices.length) notFound()
  const values = formToObject(await request.formData())
  const { password: _password, ...echo } = values
  const parsed = parseWith(checkoutSchema(offer.product, !!user, tenant.language === 'pl' ? 'PL' : ''), values)
  if (!parsed.ok) return data<ActionData>({ errors: parsed.errors, values: echo }, { status: 422 })
  const input = parsed.data
  if (!quote(offer, input)) return data<ActionData>({ errors: { price: { key: 'validation.in' } }, values: echo }, { status: 422 })

  let buyer = user ? { userId: user.id, name: user.name, email: user.email } : null
  let cookie: string | null = null
  if (!buyer) {
    // A visitor gets a student account in the same step; an existing address must log in first.
    const created = await createUser(context.db, tenant.id, { name: input.name, email: input.email!, passwordHash: await hashPassword(input.password!), role: 'student' })
    if (!created) return data<ActionData>({ errors: { email: { key: 'checkout.error.account_exists' } }, values: echo }, { status: 409 })
    buyer = { userId: created.id, name: created.name, email: created.email }
    await recordRegistration(context, tenant.id, created)
    cookie = await startSession(request, context, created.id)
  }
  const outcome = await placeOrder(context, request, tenant, offer, input, buyer)
  const headers = cookie ? { 'Set-Cookie': cookie } : undefined
  if (outcome.kind === 'redirect') return redirect(outcome.url, { status: 303, headers })
  return data<ActionData>({ errors: {}, values: echo, formError: outcome.key }, { status: outcome.key === 'checkout.error.no_provider' ? 409 : 502, headers })
}

export default function CheckoutPage() {
  const d = useLoaderData<typeof loader>()
  const a = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state !== 'idle'
  const values = (a?.values ?? {}) as FormValues
  const errors = (a?.errors ?? {}) as FieldErrors
  const money = (amount: number) => formatMoney(amount, d.currency, d.locale)
  const [priceId, setPriceId] = useState(values.price ?? d.prices[0]!.id)
  const [quantity, setQuantity] = useState(Number(values.quantity ?? 1) || 1)
  const [invoice, setInvoice] = useState(values.invoice ?? 'none')
  const [shipment, setShipment] = useState(values.shipmentType ?? 'parcel_locker')
  const unit = (d.prices.find((p) => p.id === priceId) ?? d.prices[0]!).amount
  const shipping = d.product.kind === 'physical' ? ((shipment === 'parcel_locker' ? d.product.lockerPrice : d.product.courierPrice) ?? 0) : 0
  const total = unit * Math.max(1, Math.min(d.quantityMax, quantity)) + shipping
  const vat = d.product.vatRate ? Math.round((total * d.product.vatRate) / (100 + d.product.vatRate)) : 0
  const consentError = (name: string) => message(errors[name])
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-checkout={d.product.slug}>
      <PageTitle subtitle={d.product.title}>{t('checkout.title')}</PageTitle>
      {d.hasAccess ? (
        <Alert tone="info">
          {t('checkout.already_has_access')}{' '}
          <Link to={`/${d.product.slug}/watch`} className="font-semibold underline">
            {t('checkout.open_product')}
          </Link>
        </Alert>
      ) : null}
      {a?.formError ? <Alert>{t(a.formError)}</Alert> : null}
      <Form method="post" className="space-y-6" noValidate>
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
            <input type="hidden" name="price" value={d.prices[0]!.id} />
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
          {d.lowestPrice30Days !== null ? <p className="text-sm text-slate-600" data-lowest-price>{t('checkout.lowest_price', { price: money(d.lowestPrice30Days) })}</p> : null}
        </Card>

        <Card className="space-y-4 p-5">
          <h2 className="text-lg font-semibold">{t('checkout.buyer')}</h2>
          {d.user ? (
            <p className="text-sm text-slate-700" data-checkout-buyer>
              {t('checkout.signed_in_as', { name: d.user.name, email: d.user.email })}
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-600">
                {t('checkout.have_account')}{' '}
                <Link to={`/login?redirectTo=${encodeURIComponent(`/${d.product.slug}/checkout`)}`} className="font-semibold text-brand-700 underline">
                  {t('checkout.log_in')}
                </Link>
              </p>
              <Field label={t('checkout.name')} name="name" autoComplete="name" defaultValue={values.name} error={errors.name} required />
              <Field label={t('checkout.email')} name="email" type="email" autoComplete="email" defaultValue={values.email} error={errors.email} required />
              <Field label={t('checkout.password')} name="password" type="password" autoComplete="new-password" error={errors.password} required hint={t('checkout.password_hint')} />
            </>
          )}
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">{t('checkout.invoice')}</legend>
            {(['none', 'person', 'company'] as const).map((kind) => (
              <label key={kind} className="mr-4 inline-flex items-center gap-2 text-sm">
                <input type="radio" name="invoice" value={kind} defaultChecked={invoice === kind} onChange={() => setInvoice(kind)} />
                {t(`checkout.invoice.${kind}`)}
              </label>
            ))}
          </fieldset>
          {invoice === 'company' ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('checkout.company_name')} name="companyName" defaultValue={values.companyName} error={errors.companyName} />
              <Field label={t('checkout.vat_number')} name="vatNumber" defaultValue={values.vatNumber} error={errors.vatNumber} placeholder="PL1234567890" />
            </div>
          ) : null}
          {invoice !== 'none' || (d.product.kind === 'physical' && shipment === 'courier') ? (
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label={t('checkout.address')} name="address" autoComplete="street-address" defaultValue={values.address} error={errors.address} className="sm:col-span-3" />
              <Field label={t('checkout.postal_code')} name="postalCode" autoComplete="postal-code" defaultValue={values.postalCode} error={errors.postalCode} placeholder={d.locale === 'pl' ? '12-345' : ''} />
              <Field label={t('checkout.city')} name="city" autoComplete="address-level2" defaultValue={values.city} error={errors.city} className="sm:col-span-2" />
            </div>
          ) : null}
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
            {shipment === 'parcel_locker' ? <Field label={t('checkout.parcel_locker_code')} name="parcelLockerCode" defaultValue={values.parcelLockerCode} error={errors.parcelLockerCode} placeholder="KRA01M" /> : null}
          </Card>
        ) : null}

        <Card className="space-y-3 p-5" data-price-breakdown>
          <h2 className="text-lg font-semibold">{t('checkout.summary')}</h2>
          <dl className="space-y-1 text-sm">
            {shipping ? (
              <div className="flex justify-between">
                <dt>{t('checkout.shipping')}</dt>
                <dd>{money(shipping)}</dd>
              </div>
            ) : null}
            <div className="flex justify-between text-slate-600">
              <dt>{t('checkout.vat_included')}</dt>
              <dd>{money(vat)}</dd>
            </div>
            <div className="flex justify-between text-base font-semibold">
              <dt>{t('checkout.total')}</dt>
              <dd data-total>{money(total)}</dd>
            </div>
          </dl>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="terms" className="mt-1" defaultChecked={values.terms === 'on'} aria-invalid={consentError('terms') ? true : undefined} />
            <span>{t('checkout.terms')}</span>
          </label>
          {consentError('terms') ? <p className="text-sm text-red-700" data-error="terms">{consentError('terms')}</p> : null}
          {d.digital ? (
            <>
              <label className="flex items-start gap-2 text-sm">
                <input type="checkbox" name="waiver" className="mt-1" defaultChecked={values.waiver === 'on'} aria-invalid={consentError('waiver') ? true : undefined} />
                <span>{t('checkout.waiver')}</span>
              </label>
              {consentError('waiver') ? <p className="text-sm text-red-700" data-error="waiver">{consentError('waiver')}</p> : null}
            </>
          ) : null}
          <Button type="submit" disabled={busy} className="w-full">
            {total === 0 ? t('checkout.get_free') : t('checkout.pay', { amount: money(total) })}
          </Button>
        </Card>
      </Form>
    </div>
  )
}
