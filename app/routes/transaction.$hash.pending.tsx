// /transaction/{hash}/pending (seed 000 widget 13, §4 "Transaction polling", §7, §8): the buyer's
// page after checkout. GET renders the current state (a meta refresh keeps it moving without
// JavaScript); POST answers {status, transaction, checkoutLink} and the page polls it every 5 s.
// Only the buyer and the school's staff see a transaction; another school's hash is 404.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { getTransactionByHash, type Transaction } from '#app/models/transaction.server.ts'
import { getCurrentUserOrVerify } from '#app/utils/auth.server.ts'
import { isSecureRequest, serializeCookie } from '#app/utils/cookies.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'

/** Seed 000 §9: poll every 5 s; the warning after 60 s with at least one successful check. */
const POLL_MS = 5000
const WARN_AFTER_MS = 60_000

type SeedStatus = 'PERFORMED' | 'ACCESS_GRANTED' | 'FAILURE' | 'CANCELED' | 'PENDING'

function seedStatus(tx: Transaction): SeedStatus {
  if (tx.status === 'completed') return tx.totalAmount === 0 ? 'ACCESS_GRANTED' : 'PERFORMED'
  if (tx.status === 'failed' || tx.status === 'refunded') return 'FAILURE'
  if (tx.status === 'canceled') return 'CANCELED'
  return 'PENDING'
}

async function readTransaction(request: Request, context: LoaderFunctionArgs['context'], hash: string) {
  const tenant = requireSchool(context)
  const user = await getCurrentUserOrVerify(request, context)
  const tx = await getTransactionByHash(context.db, tenant.id, hash)
  if (!tx || !user || (tx.userId !== user.id && user.role === 'student')) notFound()
  return { tenant, tx }
}

function view(tx: Transaction, slug: string | null) {
  const shipping = tx.shipping ? (JSON.parse(tx.shipping) as Record<string, string>) : null
  return {
    status: seedStatus(tx),
    transaction: { id: tx.id, product: tx.productTitle, amount: tx.totalAmount, currency: tx.currency, quantity: tx.quantity, type: tx.productKind, shipping_data: shipping },
    checkoutLink: tx.checkoutPath,
    manageLink: `/panel/seats/${tx.hash}`,
    startLink: tx.productKind === 'course' && slug ? `/${slug}/watch` : '/panel',
  }
}

const slugOf = (tx: Transaction) => tx.checkoutPath.match(/^\/([a-z0-9-]+)\/checkout$/)?.[1] ?? null

/** Success clears the promo and recommendation cookies (seed 000 §4). */
function clearingHeaders(request: Request, status: SeedStatus) {
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  if (status === 'PERFORMED' || status === 'ACCESS_GRANTED') {
    for (const name of ['promo_code', 'recommendation']) headers.append('Set-Cookie', serializeCookie(name, '', { maxAge: 0, sameSite: 'Lax', httpOnly: false, secure: isSecureRequest(request) }))
  }
  return headers
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tx } = await readTransaction(request, context, params.hash ?? '')
  const v = view(tx, slugOf(tx))
  return data({ ...v, title: getT(request, context)('checkout.pending.title'), locale: requireSchool(context).language }, { headers: clearingHeaders(request, v.status) })
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tx } = await readTransaction(request, context, params.hash ?? '')
  const v = view(tx, slugOf(tx))
  return data(v, { headers: clearingHeaders(request, v.status) })
}

export default function PendingPage() {
  const initial = useLoaderData<typeof loader>()
  const t = useT()
  // Polling re-reads this page's loader (GET, single fetch) every 5 s; the POST action answers the
  // same state to script clients (seed 000 §7).
  const revalidator = useRevalidator()
  const [checks, setChecks] = useState(0)
  const [started] = useState(() => Date.now())
  const [now, setNow] = useState(started)
  const [hydrated, setHydrated] = useState(false)
  const state = initial
  const done = state.status !== 'PENDING'
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate
  useEffect(() => setHydrated(true), [])
  useEffect(() => {
    if (done) return
    const timer = window.setInterval(() => {
      setNow(Date.now())
      revalidate.current()
    }, POLL_MS)
    return () => window.clearInterval(timer)
  }, [done])
  // Every answered check counts (seed 000 §8 counts a 502 as a successful check too).
  const wasLoading = useRef(false)
  useEffect(() => {
    if (revalidator.state === 'loading') wasLoading.current = true
    else if (wasLoading.current) {
      wasLoading.current = false
      setChecks((c) => c + 1)
    }
  }, [revalidator.state])
  const money = formatMoney(state.transaction.amount, state.transaction.currency, initial.locale)
  const shipping = state.transaction.shipping_data
  const success = state.status === 'PERFORMED' || state.status === 'ACCESS_GRANTED'
  const button =
    state.transaction.type === 'course' && state.transaction.quantity > 1
      ? { label: t('checkout.pending.manage_access'), to: state.manageLink }
      : state.transaction.type === 'consultation'
        ? { label: t('checkout.pending.product_list'), to: '/panel' }
        : state.transaction.type === 'file'
          ? { label: t('checkout.pending.download'), to: '/panel' }
          : { label: t('checkout.pending.start'), to: state.startLink }
  return (
    <div className="mx-auto max-w-lg space-y-6" data-pending={state.status}>
      {!done ? <noscript><meta httpEquiv="refresh" content="5" /></noscript> : null}
      <PageTitle>{t('checkout.pending.title')}</PageTitle>
      <Card className="space-y-4 p-6 text-center" role="status">
        {!done ? (
          <>
            <div className="mx-auto h-10 w-10 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden />
            <p className="text-lg font-semibold">{t('checkout.pending.processing')}</p>
            {hydrated && now - started >= WARN_AFTER_MS && checks > 0 ? (
              <div className="space-y-1 text-sm text-slate-600" data-pending-warning>
                <p>{t('checkout.pending.not_confirmed')}</p>
                <p>{t('checkout.pending.check_bank')}</p>
              </div>
            ) : null}
            {!hydrated ? (
              <a href="" className="text-sm font-semibold text-brand-700 underline">
                {t('checkout.pending.refresh')}
              </a>
            ) : null}
          </>
        ) : success ? (
          <>
            <p className="text-xl font-semibold text-green-700" data-pending-result="success">
              {state.status === 'ACCESS_GRANTED' ? t('checkout.pending.access_granted') : t('checkout.pending.payment_successful')}
            </p>
            {state.transaction.type === 'consultation' ? <p className="text-sm text-slate-600">{t('checkout.pending.consultation_email')}</p> : null}
            {state.transaction.type === 'physical' ? (
              <dl className="space-y-1 text-left text-sm" data-order-summary>
                <div className="flex justify-between"><dt>{t('checkout.pending.order_number')}</dt><dd>{state.transaction.id}</dd></div>
                <div className="flex justify-between"><dt>{t('checkout.pending.product')}</dt><dd>{state.transaction.product}</dd></div>
                <div className="flex justify-between"><dt>{t('checkout.pending.amount')}</dt><dd>{money}</dd></div>
                <div className="flex justify-between">
                  <dt>{t('checkout.shipping')}</dt>
                  <dd>{shipping?.shipmentType === 'parcel_locker' ? `${t('checkout.shipping.parcel_locker')} ${shipping.parcelLockerCode}` : `${shipping?.address ?? ''}, ${shipping?.postalCode ?? ''} ${shipping?.city ?? ''}`}</dd>
                </div>
              </dl>
            ) : (
              <Link to={button.to} className="inline-block rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700" data-pending-button>
                {button.label}
              </Link>
            )}
          </>
        ) : (
          <>
            <p className="text-xl font-semibold text-red-700" data-pending-result="failure">
              {t('checkout.pending.failed')}
            </p>
            <Link to={state.checkoutLink} className="font-semibold text-brand-700 underline">
              {t('checkout.pending.go_back')}
            </Link>
          </>
        )}
      </Card>
    </div>
  )
}
