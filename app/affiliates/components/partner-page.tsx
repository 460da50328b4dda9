// The page of one partner (/home/partners/{id}): figures per currency with "Mark paid", the
// sales, the links to send, the private stats link, the edit form, deactivate and delete.
import { Form, useNavigation } from '@remix-run/react'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Button, Card, PageTitle } from '#app/components/ui.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { CommissionLabel, PartnerForm, type PartnerFormValues } from './partner-form.tsx'
import { CommissionState, CopyField } from './partner-parts.tsx'

export type PartnerPageData = {
  currency: string
  partner: { id: string; name: string; code: string; kind: 'percent' | 'fixed'; value: number; cookieDays: number; active: boolean; updatedAt: number }
  values: PartnerFormValues
  figures: Array<{ currency: string; sales: number; accrued: number; reversed: number; paid: number; owed: number }>
  sales: Array<{
    id: string
    transactionId: string
    createdAt: number
    product: string
    currency: string
    saleAmount: number
    amount: number
    status: 'accrued' | 'reversed' | 'self_referral'
    paid: boolean
    refunded: boolean
  }>
  payouts: Array<{ id: string; currency: string; amount: number; paidAt: number }>
  links: Array<{ id: string; title: string; url: string }>
  statsUrl: string | null
}

export function PartnerPage({ data, errors, values }: { data: PartnerPageData; errors: FieldErrors; values: PartnerFormValues }) {
  const t = useT()
  const field = useFieldMessage()
  const locale = useLocale()
  const busy = useNavigation().state !== 'idle'
  const money = (amount: number, currency: string) => formatMoney(amount, currency, locale)
  const p = data.partner
  return (
    <div className="space-y-6" data-partner={p.code}>
      <p className="text-sm">
        <a href="/home/partners" className="font-semibold text-brand-700 hover:underline">
          ← {t('affiliates.back')}
        </a>
      </p>
      <PageTitle
        subtitle={
          <span className="inline-flex flex-wrap items-center gap-2">
            <span className="font-mono">{p.code}</span>
            <span>·</span>
            <CommissionLabel kind={p.kind} value={p.value} currency={data.currency} />
            <span>·</span>
            <span data-partner-active={p.active ? 'yes' : 'no'}>{p.active ? t('affiliates.status.active') : t('affiliates.status.inactive')}</span>
          </span>
        }
      >
        {p.name}
      </PageTitle>
      <FlashMessage />

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('affiliates.figures.title')}</h2>
        {errors.currency ? (
          <p className="text-sm text-red-600" data-field-error="currency">
            {field(errors.currency)}
          </p>
        ) : null}
        {data.figures.length === 0 ? (
          <p className="text-sm text-slate-600">{t('affiliates.figures.empty')}</p>
        ) : (
          <DataTable
            data-partner-figures
            caption={t('affiliates.figures.title')}
            rows={data.figures}
            rowKey={(f) => f.currency}
            rowProps={(f) => ({ 'data-figures-currency': f.currency })}
            columns={[
              { key: 'currency', header: t('affiliates.col.currency'), cell: (f) => f.currency },
              { key: 'sales', header: t('affiliates.col.sales'), cell: (f) => f.sales },
              { key: 'accrued', header: t('affiliates.col.accrued'), cellProps: () => ({ 'data-accrued': true }), cell: (f) => money(f.accrued, f.currency) },
              { key: 'reversed', header: t('affiliates.col.reversed'), cellProps: () => ({ 'data-reversed': true }), cell: (f) => money(f.reversed, f.currency) },
              { key: 'paid', header: t('affiliates.col.paid'), cellProps: () => ({ 'data-paid': true }), cell: (f) => money(f.paid, f.currency) },
              {
                key: 'owed',
                header: t('affiliates.col.owed'),
                cellProps: () => ({ 'data-owed': true }),
                cell: (f) => (f.owed < 0 ? `${money(-f.owed, f.currency)} ${t('affiliates.clawback')}` : money(f.owed, f.currency)),
              },
              {
                key: 'pay',
                header: t('affiliates.col.action'),
                srOnlyHeader: true,
                cell: (f) =>
                  f.owed !== 0 ? (
                    <Form method="post" data-mark-paid={f.currency}>
                      <input type="hidden" name="intent" value="paid" />
                      <input type="hidden" name="currency" value={f.currency} />
                      <Button type="submit" variant="secondary" disabled={busy}>
                        {t('affiliates.mark_paid', { currency: f.currency })}
                      </Button>
                    </Form>
                  ) : null,
              },
            ]}
          />
        )}
        {data.payouts.length ? (
          <>
            <h3 className="font-semibold">{t('affiliates.payouts.title')}</h3>
            <ul className="text-sm text-slate-700" data-partner-payouts>
              {data.payouts.map((payout) => (
                <li key={payout.id}>
                  {formatDate(payout.paidAt, locale)}: {money(payout.amount, payout.currency)}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Card>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('affiliates.sales.title')}</h2>
        <p className="text-sm text-slate-600">{t('affiliates.sales.hint')}</p>
        {data.sales.length === 0 ? (
          <p className="text-sm text-slate-600">{t('affiliates.figures.empty')}</p>
        ) : (
          <DataTable
            data-partner-sales-list
            caption={t('affiliates.sales.title')}
            rows={data.sales}
            rowKey={(s) => s.id}
            rowProps={(s) => ({ 'data-sale': s.transactionId })}
            columns={[
              { key: 'date', header: t('affiliates.col.date'), className: 'whitespace-nowrap', cell: (s) => formatDate(s.createdAt, locale) },
              {
                key: 'product',
                header: t('affiliates.col.product'),
                cell: (s) => (
                  <a href={`/home/transactions/${s.transactionId}`} className="text-brand-700 hover:underline">
                    {s.product}
                  </a>
                ),
              },
              { key: 'amount', header: t('affiliates.col.amount'), cell: (s) => money(s.saleAmount, s.currency) },
              { key: 'earned', header: t('affiliates.col.earned'), cell: (s) => money(s.amount, s.currency) },
              { key: 'status', header: t('affiliates.col.status'), cell: (s) => <CommissionState sale={s} /> },
            ]}
          />
        )}
      </Card>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('affiliates.links.title')}</h2>
        <p className="text-sm text-slate-600">{t('affiliates.links.hint', { days: p.cookieDays })}</p>
        {data.links.length === 0 ? (
          <p className="text-sm text-slate-600">{t('affiliates.links.none')}</p>
        ) : (
          <div className="space-y-3" data-partner-links>
            {data.links.map((link) => (
              <CopyField key={link.id} id={`link-${link.id}`} label={t('affiliates.links.label', { product: link.title })} value={link.url} />
            ))}
          </div>
        )}
        <h3 className="pt-2 font-semibold">{t('affiliates.stats_link.title')}</h3>
        <p className="text-sm text-slate-600">{t('affiliates.stats_link.hint')}</p>
        {data.statsUrl ? (
          <CopyField id="partner-stats-link" label={t('affiliates.stats_link.label')} value={data.statsUrl} dataAttr="data-stats-link" />
        ) : (
          <p className="text-sm text-slate-600">{t('affiliates.stats_link.unavailable')}</p>
        )}
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">{t('affiliates.save')}</h2>
        {/* Keyed by the saved version so a successful save shows the stored values again. */}
        <PartnerForm key={p.updatedAt} currency={data.currency} values={values} errors={errors} submitLabel={t('affiliates.save')} dataAttr="data-partner-edit" />
      </Card>

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('affiliates.state.title')}</h2>
        <p className="text-sm text-slate-600">{t('affiliates.deactivate_hint')}</p>
        <Form method="post" data-partner-toggle>
          <input type="hidden" name="intent" value="active" />
          <input type="hidden" name="active" value={p.active ? '0' : '1'} />
          <Button type="submit" variant="secondary" disabled={busy}>
            {p.active ? t('affiliates.deactivate') : t('affiliates.activate')}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-3 border-red-200">
        <h2 className="text-lg font-semibold">{t('affiliates.delete_title')}</h2>
        <p className="text-sm text-slate-600">{t('affiliates.delete_hint')}</p>
        <Form method="post" className="space-y-3" data-partner-delete>
          <input type="hidden" name="intent" value="delete" />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="confirm" aria-invalid={errors.confirm ? true : undefined} />
            {t('affiliates.delete_confirm_label')}
          </label>
          {errors.confirm ? (
            <p className="text-sm text-red-600" data-field-error="confirm">
              {field(errors.confirm)}
            </p>
          ) : null}
          <Button type="submit" variant="danger" disabled={busy}>
            {t('affiliates.delete')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
