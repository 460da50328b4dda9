// /partners/stats/{token} (issue 24 item 5): a partner's private stats page, by the signed link
// the owner sends them (app/affiliates/stats-token.server.ts). No login: the token names the
// school and the partner; a token of another school (the school comes from the host), an altered
// one or a deleted partner is 404. It shows sales, commission per currency and the last 50 sales
// — date, product, amount, commission — never a buyer's name or e-mail.
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { verifyPartnerStatsToken } from '#app/affiliates/stats-token.server.ts'
import { CommissionState } from '#app/affiliates/components/partner-parts.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { getPartner, listPartnerSales, partnerFigures } from '#app/models/affiliate.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }, { name: 'robots', content: 'noindex' }]

// Private to whoever holds the link: never stored by a shared cache, never sent on as a referrer.
const HEADERS = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' }
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const key = context.cloudflare.env.INTEGRATIONS_KEY
  const claims = key ? await verifyPartnerStatsToken(key, String(params.token ?? '')) : null
  if (!claims || claims.tenantId !== tenant.id) notFound()
  const partner = await getPartner(context.db, tenant.id, claims.partnerId)
  if (!partner) notFound()
  const [figures, sales] = await Promise.all([partnerFigures(context.db, tenant.id, partner.id), listPartnerSales(context.db, tenant.id, partner.id, 50)])
  const t = getT(request, context)
  return data(
    {
      pageTitle: t('affiliates.stats.title', { school: tenant.name }),
      school: tenant.name,
      partner: { name: partner.name, code: partner.code },
      sales: figures.reduce((n, f) => n + f.sales, 0),
      figures: figures.map(({ partnerId: _p, ...f }) => f),
      // Only what the partner may see: no transaction id, no buyer.
      list: sales.map((s) => ({
        id: s.id,
        createdAt: s.createdAt,
        product: s.product,
        currency: s.currency,
        saleAmount: s.saleAmount,
        amount: s.amount,
        status: s.status,
        paid: Boolean(s.paid),
        refunded: Boolean(s.refunded),
      })),
    },
    { headers: HEADERS },
  )
}

export default function PartnerStatsPage() {
  const d = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  const money = (amount: number, currency: string) => formatMoney(amount, currency, locale)
  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-12" data-partner-stats={d.partner.code}>
      <PageTitle subtitle={t('affiliates.stats.intro', { name: d.partner.name, code: d.partner.code })}>{t('affiliates.stats.title', { school: d.school })}</PageTitle>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold" data-stats-sales={d.sales}>
          {t('affiliates.stats.sales', { count: d.sales })}
        </h2>
        {d.figures.length ? (
          <DataTable
            data-stats-figures
            caption={t('affiliates.figures.title')}
            rows={d.figures}
            rowKey={(f) => f.currency}
            rowProps={(f) => ({ 'data-figures-currency': f.currency })}
            columns={[
              { key: 'currency', header: t('affiliates.col.currency'), cell: (f) => f.currency },
              { key: 'accrued', header: t('affiliates.col.accrued'), cellProps: () => ({ 'data-accrued': true }), cell: (f) => money(f.accrued, f.currency) },
              { key: 'paid', header: t('affiliates.col.paid'), cellProps: () => ({ 'data-paid': true }), cell: (f) => money(f.paid, f.currency) },
              {
                key: 'owed',
                header: t('affiliates.col.owed'),
                cellProps: () => ({ 'data-owed': true }),
                cell: (f) => (f.owed < 0 ? `${money(-f.owed, f.currency)} ${t('affiliates.clawback')}` : money(f.owed, f.currency)),
              },
            ]}
          />
        ) : (
          <p className="text-sm text-slate-600">{t('affiliates.stats.empty')}</p>
        )}
      </Card>
      {d.list.length ? (
        <Card>
          <DataTable
            data-stats-sales-list
            caption={t('affiliates.sales.title')}
            showCaption
            rows={d.list}
            rowKey={(s) => s.id}
            columns={[
              { key: 'date', header: t('affiliates.col.date'), className: 'whitespace-nowrap', cell: (s) => formatDate(s.createdAt, locale) },
              { key: 'product', header: t('affiliates.col.product'), cell: (s) => s.product },
              { key: 'amount', header: t('affiliates.col.amount'), cell: (s) => money(s.saleAmount, s.currency) },
              { key: 'earned', header: t('affiliates.col.earned'), cell: (s) => money(s.amount, s.currency) },
              { key: 'status', header: t('affiliates.col.status'), cell: (s) => <CommissionState sale={s} /> },
            ]}
          />
        </Card>
      ) : null}
    </main>
  )
}
