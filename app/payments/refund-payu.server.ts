// A platform PayU sale refunded through the marketplace POS (issue 18): a split sale's refund
// names the school's submerchant cart (extCustomerId), so PayU takes it back from the school's
// share (and the fee in proportion); `refund-{transaction id}` makes a retried request the same refund.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { getPayoutAccount } from '#app/models/payout-account.server.ts'
import type { Transaction } from '#app/models/transaction.server.ts'
import { payuPlatformClient } from './marketplace.server.ts'

/** The submerchant a split PayU sale went to (its payout account when the sale was made). */
export async function payuExtCustomerIdOf(context: AppLoadContext, tenantId: string, tx: Pick<Transaction, 'payoutAccountId'>) {
  const account = await getPayoutAccount(context.db, tenantId, 'payu')
  return account && (!tx.payoutAccountId || account.id === tx.payoutAccountId) ? account.accountRef : null
}

export async function refundAtPayu(context: AppLoadContext, tx: Transaction, extCustomerId: string | null) {
  const client = payuPlatformClient(context)
  if (!client || !tx.providerRef || tx.integrationId !== 'platform-payu') return { ok: false as const, reason: 'not_refundable' as const }
  if (tx.collector === 'split' && !extCustomerId) return { ok: false as const, reason: 'not_refundable' as const }
  try {
    const created = await client.createRefund(tx.providerRef, { amount: tx.totalAmount, extRefundId: `refund-${tx.id}`, description: `Refund ${tx.hash}`, ...(extCustomerId ? { extCustomerId } : {}) })
    if (!created.ok) return { ok: false as const, reason: created.reason === 'unavailable' ? ('unavailable' as const) : ('refused' as const) }
    return { ok: true as const, refundRef: created.refund.refundId, providerStatus: `refund.${created.refund.status}` }
  } catch {
    return { ok: false as const, reason: 'unavailable' as const }
  }
}
