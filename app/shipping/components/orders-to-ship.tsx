// /home/shipping (issue 24 item 4): paid physical orders by shipping state, ticked in bulk to mark
// shipped (one carrier, an optional tracking number per order) or delivered, and the CSV export.
// The bulk form wraps the table so it posts without JavaScript.
import { Form, Link, useNavigation, useSearchParams } from '@remix-run/react'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Pager } from '#app/components/pager.tsx'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import type { ShippingStatus } from '#app/db/schema.server.ts'
import { destinationOf } from '#app/shipping/destination.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { ShippingStateBadge } from './shipping-panel.tsx'

const STATES = ['ready', 'shipped', 'delivered'] as const satisfies readonly ShippingStatus[]

export type OrderToShip = {
  id: string
  hash: string
  createdAt: number
  productTitle: string
  quantity: number
  buyer: { name: string; email: string; phone: string }
  shipping: { shipmentType: 'parcel_locker' | 'courier'; parcelLockerCode?: string; address?: string; postalCode?: string; city?: string } | null
  shippingStatus: ShippingStatus | null
  shippingCarrier: string | null
  trackingNumber: string | null
}

export type OrdersToShipData = { state: ShippingStatus; page: number; pageCount: number; total: number; orders: OrderToShip[] }
export type OrdersToShipActionData = { errors?: FieldErrors; values?: Record<string, string> }

export function OrdersToShipPage({ data, actionData }: { data: OrdersToShipData; actionData: OrdersToShipActionData | undefined }) {
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const [params] = useSearchParams()
  const busy = useNavigation().state === 'submitting'
  const errors = actionData?.errors ?? {}
  const values = actionData?.values ?? {}
  const limit = params.get('error') === 'export_limit' && !actionData
  const ready = data.state === 'ready'
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('shipping.intro')}>{t('shipping.title')}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {limit ? <Alert>{t('shipping.error.export_limit')}</Alert> : null}
      {errors.form ? (
        <div data-field-error="form">
          <Alert>{message(errors.form)}</Alert>
        </div>
      ) : null}

      <Card className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <Form method="get" className="flex flex-wrap items-end gap-2" data-shipping-filter>
            <SelectField label={t('shipping.filter.state')} name="state" defaultValue={data.state} options={STATES.map((s) => ({ value: s, label: t(`shipping.state.${s}`) }))} />
            <Button type="submit" variant="secondary">
              {t('shipping.filter.apply')}
            </Button>
          </Form>
          {/* A real form post: the answer is a file download (or a redirect back with the limit message). */}
          <Form method="post" action="/home/shipping/export" reloadDocument>
            <input type="hidden" name="state" value={data.state} />
            <Button type="submit" variant="secondary" data-export>
              {t('shipping.export')}
            </Button>
          </Form>
        </div>
        <p className="text-sm text-slate-600" data-shipping-total>
          {t('shipping.count', { count: data.total })}
        </p>
        {data.orders.length === 0 ? (
          <p className="text-slate-600" data-shipping-empty>
            {t(`shipping.empty.${data.state}`)}
          </p>
        ) : (
          <Form method="post" className="space-y-4" data-shipping-bulk>
            <DataTable
              data-orders-to-ship
              caption={t('shipping.title')}
              rows={data.orders}
              rowKey={(o) => o.id}
              rowProps={(o) => ({ 'data-order': o.hash })}
              columns={[
                data.state !== 'delivered' && {
                  key: 'select',
                  header: t('shipping.col.select'),
                  srOnlyHeader: true,
                  cell: (o) => (
                    <input type="checkbox" name={`order_${o.id}`} className="size-4" aria-label={t('shipping.col.select_row', { hash: o.hash })} defaultChecked={values[`order_${o.id}`] === 'on'} />
                  ),
                },
                {
                  key: 'order',
                  header: t('shipping.col.order'),
                  cell: (o) => (
                    <Link to={`/home/transactions/${o.id}`} className="whitespace-nowrap font-semibold text-brand-700 hover:underline">
                      {formatDate(o.createdAt, locale)}
                      {/* The start of the order's id, enough to match a parcel; the CSV has it whole. */}
                      <span className="block font-mono text-xs font-normal text-slate-600" title={o.hash}>
                        #{o.hash.slice(0, 8)}
                      </span>
                    </Link>
                  ),
                },
                { key: 'product', header: t('shipping.col.product'), cell: (o) => `${o.productTitle}${o.quantity > 1 ? ` × ${o.quantity}` : ''}` },
                {
                  key: 'buyer',
                  header: t('shipping.col.buyer'),
                  cell: (o) => (
                    <span>
                      {o.buyer.name || o.buyer.email}
                      <span className="block text-xs text-slate-600">{o.buyer.email}</span>
                    </span>
                  ),
                },
                {
                  key: 'destination',
                  header: t('shipping.col.destination'),
                  cell: (o) =>
                    o.shipping?.shipmentType === 'parcel_locker' ? <strong data-locker-code>{t('shipping.locker', { code: o.shipping.parcelLockerCode ?? '' })}</strong> : destinationOf(o.shipping),
                },
                { key: 'state', header: t('shipping.col.state'), cell: (o) => (o.shippingStatus ? <ShippingStateBadge state={o.shippingStatus} /> : null) },
                ready
                  ? {
                      key: 'tracking',
                      header: t('shipping.col.tracking'),
                      cell: (o) => (
                        <input
                          name={`tracking_${o.id}`}
                          maxLength={80}
                          defaultValue={values[`tracking_${o.id}`] ?? ''}
                          aria-label={t('shipping.col.tracking_number_for', { hash: o.hash })}
                          className="w-32 rounded-md border border-slate-300 px-2 py-1 text-sm"
                        />
                      ),
                    }
                  : {
                      key: 'tracking',
                      header: t('shipping.col.tracking'),
                      cell: (o) => (o.shippingCarrier ? `${o.shippingCarrier}${o.trackingNumber ? ` · ${o.trackingNumber}` : ''}` : ''),
                    },
              ]}
            />
            {ready ? (
              <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
                <legend className="px-1 text-sm font-semibold">{t('shipping.bulk.title')}</legend>
                <p className="text-xs text-slate-600">{t('shipping.bulk.tracking_hint')}</p>
                <Field
                  className="max-w-sm"
                  label={t('shipping.field.carrier')}
                  name="carrier"
                  hint={t('shipping.field.carrier_hint')}
                  maxLength={80}
                  defaultValue={values.carrier ?? ''}
                  error={errors.carrier}
                />
                <Button type="submit" name="intent" value="ship" disabled={busy} data-bulk-ship>
                  {t('shipping.bulk.ship')}
                </Button>
              </fieldset>
            ) : null}
            {data.state === 'shipped' ? (
              <Button type="submit" name="intent" value="deliver" disabled={busy} data-bulk-deliver>
                {t('shipping.bulk.deliver')}
              </Button>
            ) : null}
          </Form>
        )}
        <Pager page={data.page} pageCount={data.pageCount} href={(p) => `?${new URLSearchParams({ state: data.state, page: String(p) })}`} className="mt-4" />
      </Card>
    </div>
  )
}
