// /home/promo-codes (seed 001 §3 "Promo codes", §8; issue 8 item 2): the school's codes with their
// discount, product, dates, uses and status, and the form to create one. Owners and admins only;
// bad input answers field errors and writes nothing.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { InstructorNav } from '#app/shell/components/instructor-nav.tsx'
import { echoInput, PromoCodeForm, PromoDiscountLabel, PromoStatusBadge, type PromoFormValues } from '#app/checkout/components/promo-code-form.tsx'
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
      <InstructorNav />
      <PageTitle subtitle={t('promo.intro')}>{t('promo.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      <Card>
        {data.codes.length === 0 ? (
          <p className="text-sm text-slate-600">{t('promo.empty')}</p>
        ) : (
          <div className="overflow-x-auto">
            <p className="mb-3 text-sm text-slate-500">{t('promo.count', { count: data.codes.length })}</p>
            <table className="min-w-full text-left text-sm" data-promo-codes>
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    {t('promo.col.code')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('promo.col.discount')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('promo.col.product')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('promo.col.dates')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('promo.col.used')}
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    {t('promo.col.status')}
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">{t('promo.edit')}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.codes.map((c) => (
                  <tr key={c.id} data-promo-row={c.code}>
                    <td className="py-2 pr-4 font-mono font-semibold">{c.code}</td>
                    <td className="py-2 pr-4">
                      <PromoDiscountLabel kind={c.kind} value={c.value} currency={data.currency} />
                    </td>
                    <td className="py-2 pr-4">{c.productTitle ?? t('promo.all_products')}</td>
                    <td className="py-2 pr-4 whitespace-nowrap">
                      {c.startsAt === null && c.endsAt === null
                        ? t('promo.dates.always')
                        : [c.startsAt !== null ? t('promo.dates.from', { date: day(c.startsAt) }) : null, c.endsAt !== null ? t('promo.dates.until', { date: day(c.endsAt) }) : null].filter(Boolean).join(' ')}
                    </td>
                    <td className="py-2 pr-4" data-promo-used>
                      {c.usedCount} / {c.usageLimit === -1 ? t('promo.unlimited') : c.usageLimit}
                    </td>
                    <td className="py-2 pr-4">
                      <PromoStatusBadge status={c.status} />
                    </td>
                    <td className="py-2">
                      <Link to={`/home/promo-codes/${c.id}`} className="font-medium text-brand-700 hover:underline">
                        {t('promo.edit')}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('promo.new')}</h2>
        <PromoCodeForm products={data.products} currency={data.currency} values={action?.values ?? {}} errors={action?.errors ?? {}} submitLabel={t('promo.create')} dataAttr="data-promo-create" />
      </Card>
    </div>
  )
}
