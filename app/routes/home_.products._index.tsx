import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { ProductStatus } from '#app/catalogue/components/product-form.tsx'
import { PRODUCT_KIND_LIST } from '#app/domain/product-kinds.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Card, cx, PageTitle } from '#app/components/ui.tsx'
import { effectivePrice, mainPricesOf } from '#app/models/product-price.server.ts'
import { listProducts } from '#app/models/product.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getT } from '#app/utils/request.server.ts'

// An unknown ?kind= shows everything rather than failing.
const QuerySchema = z.object({ kind: z.enum(PRODUCT_KIND_LIST).optional().catch(undefined) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const { kind } = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const now = Date.now()
  const products = await listProducts(context.db, tenant.id, { kind })
  const prices = await mainPricesOf(context.db, tenant.id, products.map((p) => p.id))
  return {
    title: `${getT(request, context)('products.title')} · ${tenant.name}`,
    kind: kind ?? null,
    currency: tenant.currency,
    products: products.map((p) => {
      const price = effectivePrice(p, prices.get(p.id) ?? [], now)
      return { id: p.id, kind: p.kind, title: p.title, published: p.published, hidden: p.hidden, isFree: p.isFree, price: price?.amount ?? null, standard: price?.standard ?? null, promo: price?.promo ?? false }
    }),
  }
}

export default function ProductsPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('products.intro')}>{t('products.title')}</PageTitle>
      <FlashMessage only={['deleted']} />

      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('products.new.title')}</h2>
        <p className="text-sm text-slate-600">{t('products.new.choose_kind')}</p>
        <ul className="flex flex-wrap gap-2" data-kind-chooser>
          {PRODUCT_KIND_LIST.map((k) => (
            <li key={k}>
              <Link to={`/home/products/new?kind=${k}`} className="inline-block rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-50">
                {t(`products.kind.${k}`)}
              </Link>
            </li>
          ))}
        </ul>
      </Card>

      <Card className="space-y-4">
        <nav aria-label={t('products.filter.label')}>
          <ul className="flex flex-wrap gap-1 text-sm">
            {[null, ...PRODUCT_KIND_LIST].map((k) => (
              <li key={k ?? 'all'}>
                <Link
                  to={k ? `/home/products?kind=${k}` : '/home/products'}
                  aria-current={data.kind === k ? 'page' : undefined}
                  className={cx('inline-block rounded-md px-3 py-1', data.kind === k ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-600 hover:bg-slate-100')}
                >
                  {k ? t(`products.kind_plural.${k}`) : t('products.filter.all')}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {data.products.length === 0 ? (
          <p className="text-slate-600">{t('products.empty')}</p>
        ) : (
          <DataTable
            rows={data.products}
            rowKey={(p) => p.id}
            rowProps={(p) => ({ 'data-product-row': p.title, 'data-product-kind': p.kind })}
            columns={[
              {
                key: 'title',
                header: t('products.column.title'),
                cell: (p) => (
                  <Link to={`/home/products/${p.id}`} className="font-medium text-brand-700 hover:underline">
                    {p.title}
                  </Link>
                ),
              },
              { key: 'kind', header: t('products.column.kind'), cell: (p) => t(`products.kind.${p.kind}`) },
              {
                key: 'price',
                header: t('products.column.price'),
                cellProps: () => ({ 'data-product-price': true }),
                cell: (p) =>
                  p.isFree ? (
                    t('products.price.free')
                  ) : p.price === null ? (
                    '—'
                  ) : p.promo && p.standard !== null ? (
                    <>
                      <span className="font-semibold">{formatMoney(p.price, data.currency, locale)}</span> <s className="text-slate-500">{formatMoney(p.standard, data.currency, locale)}</s>
                    </>
                  ) : (
                    formatMoney(p.price, data.currency, locale)
                  ),
              },
              { key: 'status', header: t('products.column.status'), cell: (p) => <ProductStatus published={p.published} hidden={p.hidden} /> },
            ]}
          />
        )}
      </Card>
    </div>
  )
}
