// What follows a completed sale (issue 8): the buyer's receipt email and the owners' "new sale"
// notification (in-app, and email when the school's `transaction` preference allows). Called only
// by the one settle batch that granted access (SettleOutcome.granted), so each sale sends once;
// run after the provider's answer (waitUntil), and never able to undo the sale.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { Locale } from '#app/i18n/i18n.ts'
import { receiptEmail } from '#app/mail/templates.server.ts'
import { enqueueMailingSubscription } from '#app/mailing/subscribe.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { notifyStaff } from '#app/models/notification.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { getTransaction, type Buyer } from '#app/models/transaction.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'

/** `_requestOrigin` is ignored (issue 19 §6): e-mailed links use the school's configured origin. */
export async function afterSale(context: AppLoadContext, tenantId: string, transactionId: string, _requestOrigin?: string) {
  try {
    const tx = await getTransaction(context.db, tenantId, transactionId)
    if (!tx || tx.status !== 'completed') return
    // The school's mailing list (issue 9): the mail worker decides by the school's settings; never throws.
    await enqueueMailingSubscription(context.cloudflare.env, { tenantId, source: 'buyer', subjectId: tx.id })
    const school = await getTenantById(context.control, tenantId)
    if (!school) return
    const locale = school.language as Locale
    const buyer = JSON.parse(tx.buyer || '{}') as Partial<Buyer>
    const total = formatMoney(tx.totalAmount, tx.currency, locale)
    const origin = await schoolEmailOrigin(context, tenantId)
    if (buyer.email) {
      await enqueueEmail(
        context.db,
        context.cloudflare.env.MAIL_QUEUE,
        tenantId,
        receiptEmail({
          locale,
          school: school.name,
          name: buyer.name ?? '',
          to: buyer.email,
          product: tx.productTitle,
          quantity: tx.quantity,
          total,
          vat: tx.vatAmount > 0 ? formatMoney(tx.vatAmount, tx.currency, locale) : null,
          reference: tx.hash.slice(0, 12).toUpperCase(),
          url: `${origin}/panel`,
        }),
      )
    }
    await notifyStaff(context, tenantId, { kind: 'sale', subjectId: tx.id, actorName: buyer.name ?? '', excerpt: `${tx.productTitle} · ${total}`, link: `/home/transactions/${tx.id}` })
  } catch (error) {
    console.error(JSON.stringify({ event: 'after_sale_failed', tenantId, transactionId, error: String(error) }))
  }
}
