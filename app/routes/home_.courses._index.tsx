import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { ProductStatus } from '#app/catalogue/components/product-form.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { effectivePrice, mainPricesOf } from '#app/models/product-price.server.ts'
import { listProducts } from '#app/models/product.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const now = Date.now()
  const courses = await listProducts(context.db, tenant.id, { kind: 'course' })
  const prices = await mainPricesOf(context.db, tenant.id, courses.map((c) => c.id))
  return {
    title: `${getT(request, context)('products.courses.title')} · ${tenant.name}`,
    currency: tenant.currency,
    courses: courses.map((c) => ({ id: c.id, title: c.title, published: c.published, hidden: c.hidden, isFree: c.isFree, price: effectivePrice(c, prices.get(c.id) ?? [], now)?.amount ?? null })),
  }
}

export default function CoursesPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('products.courses.intro')}>{t('products.courses.title')}</PageTitle>
      <FlashMessage only={['deleted']} />
      <div>
        <Link to="/home/products/new?kind=course" className="inline-flex items-center rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-700">
          {t('products.courses.new')}
        </Link>
      </div>
      <Card>
        {data.courses.length === 0 ? (
          <p className="text-slate-600">{t('products.courses.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-course-list>
            {data.courses.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-course-row={c.title}>
                <div className="min-w-0">
                  <Link to={`/home/products/${c.id}`} className="font-medium text-brand-700 hover:underline">
                    {c.title}
                  </Link>
                  <p className="text-sm text-slate-500">{c.isFree ? t('products.price.free') : c.price === null ? '—' : formatMoney(c.price, data.currency, locale)}</p>
                </div>
                <div className="flex items-center gap-3">
                  <ProductStatus published={c.published} hidden={c.hidden} />
                  <Link to={`/home/courses/${c.id}/sections`} className="text-sm font-semibold text-brand-700 hover:underline">
                    {t('products.curriculum')}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}
