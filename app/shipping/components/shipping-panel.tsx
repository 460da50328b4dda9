// The "Shipping" card of a transaction's page (issue 24 item 4): where the parcel goes (parcel
// locker code or address), its state, and the owner's next step — "Mark as shipped" (carrier,
// tracking number and/or link) or "Mark as delivered". Plain forms: they work without JavaScript.
import { Form, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Button, Card, Field } from '#app/components/ui.tsx'
import type { ShippingStatus } from '#app/db/schema.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

export type ShippingPanelData = {
  status: string
  productKind: string
  shippingStatus: ShippingStatus | null
  shippingCarrier: string | null
  trackingNumber: string | null
  trackingUrl: string | null
  shippedAt: number | null
  deliveredAt: number | null
  shipping: { shipmentType: 'parcel_locker' | 'courier'; parcelLockerCode?: string; address?: string; postalCode?: string; city?: string } | null
}

export type ShippingActionData = { errors?: FieldErrors; values?: Record<string, string> }

const isWeb = (url: string | null) => !!url && /^https?:\/\//i.test(url)

export function ShippingStateBadge({ state }: { state: ShippingStatus }) {
  const t = useT()
  const tone = state === 'ready' ? 'bg-amber-100 text-amber-900' : state === 'shipped' ? 'bg-sky-100 text-sky-900' : 'bg-emerald-100 text-emerald-900'
  return (
    <span data-shipping-state={state} className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}>
      {t(`shipping.state.${state}`)}
    </span>
  )
}

function Rows({ rows }: { rows: Array<[string, ReactNode] | null | false> }) {
  return (
    <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
      {rows
        .filter((r): r is [string, ReactNode] => !!r)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  )
}

export function ShippingPanel({ tx, action }: { tx: ShippingPanelData; action?: ShippingActionData }) {
  const t = useT()
  const field = useFieldMessage()
  const busy = useNavigation().state !== 'idle'
  const shipping = tx.shipping
  const errors = action?.errors ?? {}
  // Not a physical order: nothing to show, unless a crafted "ship" post needs its refusal shown.
  if (!shipping && !tx.shippingStatus && !errors.form) return null
  const paid = tx.status === 'completed'
  const values = action?.values ?? {}
  return (
    <Card data-transaction-shipping aria-labelledby="shipping-card-title">
      <h2 id="shipping-card-title" className="text-lg font-semibold">
        {t('shipping.card.title')}
      </h2>
      <Rows
        rows={[
          tx.shippingStatus
            ? [
                t('shipping.card.state'),
                paid ? (
                  <ShippingStateBadge key="s" state={tx.shippingStatus} />
                ) : (
                  // Waiting for the payment, or ended without one (failed, cancelled, refunded): never shipped.
                  t(tx.status === 'pending' || tx.status === 'waiting' ? 'shipping.card.unpaid' : 'shipping.card.not_shippable')
                ),
              ]
            : false,
          shipping ? [t('money.transaction.shipment_type'), t(`money.transaction.shipment.${shipping.shipmentType === 'courier' ? 'courier' : 'parcel_locker'}`)] : false,
          shipping?.parcelLockerCode
            ? [
                t('money.transaction.parcel_locker'),
                <strong key="l" data-locker-code>
                  {shipping.parcelLockerCode}
                </strong>,
              ]
            : false,
          shipping?.address ? [t('money.transaction.address'), shipping.address] : false,
          shipping?.postalCode ? [t('money.transaction.postal_code'), shipping.postalCode] : false,
          shipping?.city ? [t('money.transaction.city'), shipping.city] : false,
          tx.shippingCarrier
            ? [
                t('shipping.card.carrier'),
                <span key="c" data-shipping-carrier>
                  {tx.shippingCarrier}
                </span>,
              ]
            : false,
          tx.trackingNumber
            ? [
                t('shipping.card.tracking_number'),
                <code key="n" data-tracking-number>
                  {tx.trackingNumber}
                </code>,
              ]
            : false,
          isWeb(tx.trackingUrl)
            ? [
                t('shipping.card.tracking_url'),
                <a key="u" href={tx.trackingUrl!} className="break-all text-brand-700 hover:underline" rel="noopener noreferrer" target="_blank" data-tracking-url>
                  {tx.trackingUrl}
                </a>,
              ]
            : false,
          tx.shippedAt ? [t('shipping.card.shipped_at'), formatDateTime(tx.shippedAt)] : false,
          tx.deliveredAt ? [t('shipping.card.delivered_at'), formatDateTime(tx.deliveredAt)] : false,
        ]}
      />
      {errors.form ? (
        <p className="mt-3 text-sm text-red-600" role="alert" data-field-error="form">
          {field(errors.form)}
        </p>
      ) : null}
      {paid && tx.shippingStatus === 'ready' ? (
        <Form method="post" className="mt-4 grid gap-3 sm:grid-cols-2" data-ship-form>
          <input type="hidden" name="intent" value="ship" />
          <Field label={t('shipping.field.carrier')} name="carrier" hint={t('shipping.field.carrier_hint')} defaultValue={values.carrier ?? ''} error={errors.carrier} required maxLength={80} />
          <Field label={t('shipping.field.tracking_number')} name="trackingNumber" defaultValue={values.trackingNumber ?? ''} error={errors.trackingNumber} maxLength={80} />
          <Field
            className="sm:col-span-2"
            label={t('shipping.field.tracking_url')}
            name="trackingUrl"
            type="url"
            inputMode="url"
            hint={t('shipping.field.tracking_url_hint')}
            defaultValue={values.trackingUrl ?? ''}
            error={errors.trackingUrl}
            maxLength={500}
          />
          <div className="sm:col-span-2">
            <Button type="submit" disabled={busy}>
              {t('shipping.ship')}
            </Button>
          </div>
        </Form>
      ) : null}
      {paid && tx.shippingStatus === 'shipped' ? (
        <Form method="post" className="mt-4" data-deliver-form>
          <input type="hidden" name="intent" value="deliver" />
          <Button type="submit" disabled={busy}>
            {t('shipping.deliver')}
          </Button>
        </Form>
      ) : null}
    </Card>
  )
}
