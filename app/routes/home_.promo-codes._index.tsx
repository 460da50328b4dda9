// /home/promo-codes (seed 001 §3 "Promo codes", §8; issue 8 item 2): the school's codes with their
// discount, product, dates, uses and status, and the form to create one. Owners and admins only;
// bad input answers field errors and writes nothing.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { echoInput, PromoCodeForm, PromoDiscountLabel, PromoStatusBadge, type PromoFormValues } from '#app/checkout/components/promo-code-form.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { createPromoCode, listPromoCodes, PromoCodeFormSchema, promoStatus } from '#app/models/promo-code.server.ts'
import { listProducts } from '#app/models/product.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [codes, products] = await Promise.all([listPromoCodes(context.db, tenant.id), listProducts(context.db, tenant.id)])
  const now = Date.now()
  return {
    pageTitle: `${getT(request, context)('promo.title')} · ${tenant.name}`,
    currency: tenant.currency,
    products: products.map((p) => ({ id: p.id, title: p.title })),
    codes: codes.map((c) => ({
      id: c.id,
      code: c.code,
      kind: c.kind,
      value: c.value,
      productTitle: c.productId ? (c.productTitle ?? '') : null,
      startsAt: c.startsAt,
      endsAt: c.endsAt,
      usageLimit: c.usageLimit,
      usedCount: c.usedCount,
      status: promoStatus(c, now),
    })),
  }
}

export const action = staffAction({
  invalidStatus: 422,
  intents: (intent) => {
    const create = intent(PromoCodeFormSchema, async (input, { tenant, request, context, fields }) => {
      const created = await createPromoCode(context.db, tenant.id, input)
      if (!created.ok) {
        const errors: FieldErrors = created.error === 'taken' ? { code: { key: 'promo.error.code_unique' } } : { productId: { key: 'promo.error.product' } }
        return formError(errors, echoInput(fields), 422)
      }
      throw redirectWithFlash(request, '/home/promo-codes', { done: 'created', message: 'promo.done.created' }, { status: 303 })
    })
    // The shared promo form posts intent=save; a bare post (no intent) creates too.
    return { default: create, save: create }
  },
})

export default function PromoCodesPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<{ errors: FieldErrors; values: PromoFormValues }>()
  const t = useT()
  const locale = useLocale()
  const day = (ms: number) => formatDate(ms, locale)
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('promo.intro')}>{t('promo.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      <Card>
        {data.codes.length === 0 ? (
          <p className="text-sm text-slate-600">{t('promo.empty')}</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-500">{t('promo.count', { count: data.codes.length })}</p>
            <DataTable
              data-promo-codes
              rows={data.codes}
              rowKey={(c) => c.id}
              rowProps={(c) => ({ 'data-promo-row': c.code })}
              columns={[
                { key: 'code', header: t('promo.col.code'), className: 'font-mono font-semibold', cell: (c) => c.code },
                { key: 'discount', header: t('promo.col.discount'), cell: (c) => <PromoDiscountLabel kind={c.kind} value={c.value} currency={data.currency} /> },
                { key: 'product', header: t('promo.col.product'), cell: (c) => c.productTitle ?? t('promo.all_products') },
                {
                  key: 'dates',
                  header: t('promo.col.dates'),
                  className: 'whitespace-nowrap',
                  cell: (c) =>
                    c.startsAt === null && c.endsAt === null
                      ? t('promo.dates.always')
                      : [c.startsAt !== null ? t('promo.dates.from', { date: day(c.startsAt) }) : null, c.endsAt !== null ? t('promo.dates.until', { date: day(c.endsAt) }) : null].filter(Boolean).join(' '),
                },
                { key: 'used', header: t('promo.col.used'), cellProps: () => ({ 'data-promo-used': true }), cell: (c) => `${c.usedCount} / ${c.usageLimit === -1 ? t('promo.unlimited') : c.usageLimit}` },
                { key: 'status', header: t('promo.col.status'), cell: (c) => <PromoStatusBadge status={c.status} /> },
                {
                  key: 'edit',
                  header: t('promo.edit'),
                  srOnlyHeader: true,
                  cell: (c) => (
                    <Link to={`/home/promo-codes/${c.id}`} className="font-medium text-brand-700 hover:underline">
                      {t('promo.edit')}
                    </Link>
                  ),
                },
              ]}
            />
          </>
        )}
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('promo.new')}</h2>
        <PromoCodeForm products={data.products} currency={data.currency} values={action?.values ?? {}} errors={action?.errors ?? {}} submitLabel={t('promo.create')} dataAttr="data-promo-create" />
      </Card>
    </div>
  )
}
