// The 5-minute re-check of pending transactions (seed 001 "pending transaction check every 5
// minutes", "status change up to 72 hours"; issue 18 §2, ADR 023): the app cron asks each
// provider's API about transactions no notification has settled, through the same reconcile +
// exactly-once settle path as a notification; after 72 hours an unpaid one ends as failed
// ("Your payment did not go through" on its pending page).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { allShards, controlDb } from '#app/db/shards.server.ts'
import { dispatchAppEvents, eventQueues } from '#app/models/app-event.server.ts'
import { listTransactionsToRecheck, markTransactionChecked, settleTransaction } from '#app/models/transaction.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { afterSale } from './after-sale.server.ts'
import { PENDING_CHECK_AFTER_MS, PENDING_EXPIRY_MS, reconcile } from '#app/domain/payment-confirm.ts'
import { schoolOrigin } from '#app/membership/membership-billing.server.ts'
import { applyDecision } from './notify.server.ts'
import { getIntegrationAdapter } from './registry.server.ts'

export type RecheckSummary = { checked: number; completed: number; expired: number; mismatched: number; unavailable: number }

export async function recheckPendingTransactions(env: Env, ctx: Omit<ExecutionContext, 'props'>, now = Date.now()): Promise<RecheckSummary> {
  const summary: RecheckSummary = { checked: 0, completed: 0, expired: 0, mismatched: 0, unavailable: 0 }
  const control = controlDb(env)
  // Each shard's schools in turn (ADR 033).
  for (const { db } of allShards(env)) {
    // No request: the registry and afterSale read the bindings and the database; the site is the
    // platform's, so school details are read by tenant id.
    const context = { cloudflare: { env, ctx }, db, control, site: { kind: 'platform' }, memo: new Map() } as unknown as AppLoadContext
    for (const tx of await listTransactionsToRecheck(db, { createdBefore: now - PENDING_CHECK_AFTER_MS })) {
      summary.checked++
      await markTransactionChecked(db, tx.tenantId, tx.id, now)
      // The built-in test provider has no API to ask (its slow confirmations come by their own poll): only its expiry applies.
      const askable = tx.provider && tx.provider !== 'test' && tx.integrationId && tx.providerRef
      const adapter = askable ? await getIntegrationAdapter(context, tx.tenantId, tx.provider!, tx.integrationId!) : null
      const state = adapter && tx.providerRef ? await adapter.confirmPayment(tx.providerRef, null) : null
      const decision = state ? reconcile(tx, state, null) : null
      if (decision && decision.kind !== 'retry') {
        const outcome = await applyDecision(db, tx.tenantId, tx, null, decision)
        if (outcome?.status === 'mismatch') summary.mismatched++
        if (outcome?.granted) {
          summary.completed++
          const origin = await schoolOrigin(control, tx.tenantId, env.PLATFORM_HOST)
          await Promise.all([dispatchAppEvents(db, eventQueues(env), tx.tenantId, now), afterSale(context, tx.tenantId, tx.id, origin)])
        }
        if (outcome && outcome.status !== 'pending' && outcome.status !== 'waiting') continue
      } else if (decision?.kind === 'retry') summary.unavailable++
      // Nothing settled it: after 72 hours the payment did not go through.
      if (now - tx.createdAt >= PENDING_EXPIRY_MS) {
        const ended = await settleTransaction(db, tx.tenantId, tx.id, { event: null, status: 'failed', reason: 'expired' }, now)
        if (ended?.status === 'failed') summary.expired++
      }
    }
  }
  return summary
}
