// The pending-transaction page's state (seed 000 widget 13, §4 "Transaction polling", §7): one
// reader for the page and for `POST /transaction/{hash}/pending`. Only the buyer and the school's
// staff see a transaction; another school's hash, a visitor and another student get 404.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { getProduct } from '#app/models/product.server.ts'
import { getTransactionByHash, type ShippingDetails, type Transaction } from '#app/models/transaction.server.ts'
import { declineFromStatusReason } from '#app/domain/payment-failure.ts'
import { confirmDueSlowPayment } from '#app/payments/test-slow.server.ts'
import { getCurrentUserOrVerify } from '#app/auth/auth.server.ts'
import { isSecureRequest, serializeCookie } from '#app/utils/cookies.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

/** The seed's statuses: PERFORMED / ACCESS_GRANTED success, FAILURE / CANCELED failure, anything else polls on. */
export type SeedStatus = 'PERFORMED' | 'ACCESS_GRANTED' | 'FAILURE' | 'CANCELED' | 'PENDING'

export function seedStatus(tx: Pick<Transaction, 'status' | 'totalAmount'>): SeedStatus {
  if (tx.status === 'completed') return tx.totalAmount === 0 ? 'ACCESS_GRANTED' : 'PERFORMED'
  if (tx.status === 'failed' || tx.status === 'refunded' || tx.status === 'mismatch') return 'FAILURE'
  if (tx.status === 'canceled') return 'CANCELED'
  return 'PENDING'
}

export const isSuccess = (s: SeedStatus) => s === 'PERFORMED' || s === 'ACCESS_GRANTED'

/** Cookies cleared once the payment succeeded (seed 000 §4): the promo code and the recommendation. */
export const CLEARED_ON_SUCCESS = ['promo_code', 'recommendation'] as const

export async function readBuyerTransaction(request: Request, context: AppLoadContext, hash: string) {
  const tenant = requireSchool(context)
  const user = await getCurrentUserOrVerify(request, context)
  let tx = await getTransactionByHash(context.db, tenant.id, hash)
  if (!tx || !user || (tx.userId !== user.id && user.role === 'student')) notFound()
  // The built-in test provider's slow confirmation arrives when it is due (development only).
  if (await confirmDueSlowPayment(context, tenant.id, tx, new URL(request.url).origin)) tx = (await getTransactionByHash(context.db, tenant.id, hash)) ?? tx
  return { tenant, tx }
}

function parseShipping(raw: string | null): ShippingDetails | null {
  if (!raw) return null
  try {
    return JSON.parse(raw) as ShippingDetails
  } catch {
    return null
  }
}

/** The answer of `POST /transaction/{hash}/pending` (seed 000 §7: status, transaction, checkoutLink) plus where the buttons lead. */
export async function pendingView(context: AppLoadContext, tenantId: string, tx: Transaction) {
  const product = tx.productId && tx.productKind === 'course' ? await getProduct(context.db, tenantId, tx.productId) : undefined
  return {
    status: seedStatus(tx),
    transaction: {
      id: tx.id,
      hash: tx.hash,
      product: tx.productTitle,
      amount: tx.totalAmount,
      currency: tx.currency,
      quantity: tx.quantity,
      type: tx.productKind,
      shipping_data: parseShipping(tx.shipping),
    },
    checkoutLink: tx.checkoutPath || '/courses',
    /** Why a declined payment failed (issue 18 §3: `payment.failure.{decline}` and its hint); null otherwise. */
    decline: tx.status === 'failed' ? declineFromStatusReason(tx.statusReason) : null,
    links: {
      manage: `/panel/seats/${tx.hash}`,
      start: product?.published ? `/${product.slug}/watch` : '/panel',
    },
  }
}

export type PendingView = Awaited<ReturnType<typeof pendingView>>

export function pendingHeaders(request: Request, status: SeedStatus) {
  const headers = new Headers({ 'Cache-Control': 'private, no-store' })
  if (isSuccess(status)) {
    for (const name of CLEARED_ON_SUCCESS) headers.append('Set-Cookie', serializeCookie(name, '', { maxAge: 0, sameSite: 'Lax', httpOnly: false, secure: isSecureRequest(request) }))
  }
  return headers
}
