// /transaction/{hash}/success: the payment-success page (issue 18 §3; seed 000 widget 13 success
// state, seed 001 §2 "payment pages: … success", §3 page "conversion code"). The buyer lands here
// from the provider's return URL (/transaction/{hash}/pending) the first time a sale is complete:
// it says the payment succeeded, leads on to the product with a plain link, and is the one page
// flagged `creatorConversion`, so app/root.tsx renders the school's conversion code (with the
// response's nonce, ADR 013) — exactly once per sale: the buyer's first document load claims
// `transactions.conversion_at` (app/models/transaction-conversion.server.ts); every later visit
// goes straight on to the product. Staff may look at it (the school's scripts never run for staff)
// without using up the buyer's conversion. Only the buyer and the school's staff; another school's
// hash is 404. It shows what was bought: product, amount and order number (issue 23 §10), and
// "Rate this course" only to a buyer who has completed a lecture of it and not reviewed it yet.
import { data, redirect, redirectDocument, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { PendingStatus } from '#app/checkout/components/pending-status.tsx'
import { pendingHeaders, pendingView, readBuyerTransaction } from '#app/checkout/pending.server.ts'
import { afterPaymentDestination, claimConversion } from '#app/models/transaction-conversion.server.ts'
import { listCourseProgress } from '#app/models/lecture-progress.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { getMyReview } from '#app/models/review.server.ts'
import type { Transaction } from '#app/models/transaction.server.ts'
import { getCurrentUser } from '#app/auth/auth.server.ts'
import { getT } from '#app/utils/request.server.ts'

/** app/root.tsx renders the school's conversion code on routes flagged so. */
export const handle = { creatorConversion: true }

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

const NO_STORE = { 'Cache-Control': 'private, no-store' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, tx } = await readBuyerTransaction(request, context, params.hash ?? '')
  const self = `/transaction/${tx.hash}/success`
  // A paid sale only: a free order (no payment) keeps its "Access granted" on the pending page.
  if (tx.status !== 'completed' || tx.totalAmount === 0) throw redirect(`/transaction/${tx.hash}`, { status: 303, headers: NO_STORE })
  // Scripts React inserts on the client never run: a client-side navigation (its data request)
  // reloads this page as a document before anything is claimed.
  const dest = request.headers.get('Sec-Fetch-Dest')
  if (dest && dest !== 'document') throw redirectDocument(self, { status: 303, headers: NO_STORE })
  const view = await pendingView(context, tenant.id, tx)
  const user = await getCurrentUser(request, context)
  const isBuyer = !!user && user.role === 'student' && user.id === tx.userId
  if (isBuyer) {
    // GET only: a HEAD (a link checker, a prefetch) never uses up the conversion.
    const claimed = request.method === 'GET' && (await claimConversion(context.db, tenant.id, tx.id))
    // On to the product: the recommendation and promo cookies are cleared on this answer too (seed 000).
    if (!claimed) throw redirect(afterPaymentDestination(view), { status: 303, headers: pendingHeaders(request, view.status) })
  }
  const t = getT(request, context)
  const headers = pendingHeaders(request, view.status)
  const rate = isBuyer ? await rateOffer(context, tenant.id, tx) : null
  return data({ ...view, title: t('payment.success.title'), locale: tenant.language, conversion: isBuyer, rate }, { headers })
}

/** "Rate this course": a course the buyer has made progress in (≥ 1 completed lecture) and not reviewed yet. */
async function rateOffer(context: LoaderFunctionArgs['context'], tenantId: string, tx: Transaction) {
  if (tx.productKind !== 'course' || !tx.productId || !tx.userId) return null
  const [product, progress, review] = await Promise.all([
    getProduct(context.db, tenantId, tx.productId),
    listCourseProgress(context.db, tenantId, tx.userId, tx.productId),
    getMyReview(context.db, tenantId, tx.productId, tx.userId),
  ])
  const completed = progress.filter((p) => p.completedAt !== null).length
  if (!product?.published || completed < 1 || review) return null
  return { href: `/${product.slug}/watch#course-review`, completed }
}

export default function PaymentSuccessPage() {
  const d = useLoaderData<typeof loader>()
  return (
    <div data-payment-success data-conversion={d.conversion ? 'once' : 'staff'}>
      <PendingStatus initial={d} locale={d.locale} rate={d.rate} />
    </div>
  )
}
