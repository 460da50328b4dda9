// Reviews moderation (seed 001 §4 "Reviews: approve or disapprove"): the school's reviews newest
// first, filtered by status and course; approved ones feed the storefront reviews block. Reviews
// converted from a comment show that origin. Another school's review id is 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { ratingKey } from '#app/engagement/components/course-review-form.tsx'
import { Alert, Button, Card, cx, PageTitle } from '#app/components/ui.tsx'
import { listReviewedProducts, listReviewsForModeration, setReviewStatus } from '#app/models/review.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm } from '#app/utils/validation.ts'
import { Pager } from '#app/components/pager.tsx'

/** Same values as the schema's REVIEW_STATUSES (the component cannot import server modules). */
const REVIEW_STATUSES = ['pending', 'approved', 'disapproved'] as const

const ListQuery = z.object({
  status: z.enum(REVIEW_STATUSES).nullable().catch(null),
  product: z.string().max(64).nullable().catch(null),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
})

const ModerateSchema = z.object({
  reviewId: z.string().trim().min(1).max(64),
  intent: z.enum(['approve', 'disapprove']),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const params = new URL(request.url).searchParams
  const query = ListQuery.parse({ status: params.get('status') || null, product: params.get('product') || null, page: params.get('page') ?? 1 })
  const [list, products] = await Promise.all([
    listReviewsForModeration(context.db, tenant.id, { status: query.status, productId: query.product, page: query.page }),
    listReviewedProducts(context.db, tenant.id),
  ])
  return { title: `${getT(request, context)('engagement.reviews.title')} · ${tenant.name}`, ...list, products, status: query.status, product: query.product }
}

// Not a staffAction: an intent other than approve/disapprove is a field error (422), not a 400.
export async function action(args: ActionFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const parsed = await parseForm(ModerateSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values, 422)
  const changed = await setReviewStatus(context.db, tenant.id, parsed.data.reviewId, parsed.data.intent === 'approve' ? 'approved' : 'disapproved')
  if (!changed) notFound()
  return { ok: true, reviewId: parsed.data.reviewId, status: parsed.data.intent === 'approve' ? 'approved' : 'disapproved' }
}

const STATUS_STYLE: Record<string, string> = {
  pending: 'bg-amber-100 text-amber-800',
  approved: 'bg-emerald-100 text-emerald-800',
  disapproved: 'bg-slate-200 text-slate-700',
}

export default function ReviewsPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  const navigation = useNavigation()
  const [params] = useSearchParams()
  const pageLink = (page: number) => {
    const next = new URLSearchParams(params)
    next.set('page', String(page))
    return `?${next.toString()}`
  }
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('engagement.reviews.intro')}>{t('engagement.reviews.title')}</PageTitle>
      <Card className="space-y-4">
        <Form method="get" className="flex flex-wrap items-end gap-3" data-review-filters>
          <div className="space-y-1">
            <label htmlFor="review-status" className="block text-sm font-medium text-slate-700">
              {t('engagement.reviews.filter.status')}
            </label>
            <select id="review-status" name="status" defaultValue={data.status ?? ''} className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
              <option value="">{t('engagement.reviews.filter.all')}</option>
              {REVIEW_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`engagement.reviews.status.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <label htmlFor="review-product" className="block text-sm font-medium text-slate-700">
              {t('engagement.reviews.filter.course')}
            </label>
            <select id="review-product" name="product" defaultValue={data.product ?? ''} className="max-w-[16rem] rounded-md border border-slate-300 bg-white px-3 py-2 text-sm">
              <option value="">{t('engagement.reviews.filter.all_courses')}</option>
              {data.products.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="secondary">
            {t('engagement.reviews.filter.apply')}
          </Button>
        </Form>
        <p className="text-sm text-slate-600" data-review-total>
          {t('engagement.reviews.count', { count: data.total })}
        </p>
        {data.reviews.length === 0 ? (
          <p className="text-slate-600">{t('engagement.reviews.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-reviews-admin>
            {data.reviews.map((r) => {
              const busy = navigation.state !== 'idle' && navigation.formData?.get('reviewId') === r.id
              return (
                <li key={r.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between" data-admin-review={r.id} data-review-status={r.status}>
                  <div className="min-w-0 space-y-1">
                    <p className="flex flex-wrap items-center gap-2 text-sm">
                      <span className="font-semibold text-slate-900">{t(ratingKey(r.rating))}</span>
                      <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', STATUS_STYLE[r.status])} data-status-badge>
                        {t(`engagement.reviews.status.${r.status}`)}
                      </span>
                      {r.sourceCommentId ? (
                        <span className="rounded bg-violet-100 px-2 py-0.5 text-xs font-semibold text-violet-800" data-review-origin="comment">
                          {t('engagement.reviews.from_comment')}
                        </span>
                      ) : null}
                    </p>
                    <p className={cx('whitespace-pre-line break-words text-sm', r.body ? 'text-slate-800' : 'italic text-slate-500')} data-review-text>
                      {r.body || t('widgets.reviews.no_text')}
                    </p>
                    <p className="text-xs text-slate-500">
                      {t('engagement.reviews.meta', { name: r.firstName || '—', date: formatDate(r.createdAt, locale) })} ·{' '}
                      <Link to={`/${r.slug}`} className="font-medium text-brand-700 hover:underline">
                        {r.title}
                      </Link>
                    </p>
                  </div>
                  <Form method="post" className="flex shrink-0 gap-2" preventScrollReset>
                    <input type="hidden" name="reviewId" value={r.id} />
                    {r.status !== 'approved' ? (
                      <Button type="submit" name="intent" value="approve" disabled={busy} data-review-approve>
                        {t('engagement.reviews.approve')}
                      </Button>
                    ) : null}
                    {r.status !== 'disapproved' ? (
                      <Button type="submit" name="intent" value="disapprove" variant="secondary" disabled={busy} data-review-disapprove>
                        {t('engagement.reviews.disapprove')}
                      </Button>
                    ) : null}
                  </Form>
                </li>
              )
            })}
          </ul>
        )}
        <Pager page={data.page} pageCount={data.pageCount} href={pageLink} />
      </Card>
      {data.status === 'pending' && data.total === 0 ? <Alert tone="success">{t('engagement.reviews.all_done')}</Alert> : null}
    </div>
  )
}
