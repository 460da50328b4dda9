// Membership billing emails (issue 8 item 6), in the school's language, in the style of
// templates.server.ts: the first failed renewal ('payment problem') and, for providers we cannot
// charge on schedule (PayU), the renewal pay link. Values are escaped for HTML. A declined card
// names the decline in the seed's words (issue 18 §3: `payment.failure.{reason}` and its hint).
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { OutgoingEmail } from '#app/models/email-outbox.server.ts'
import type { DeclineReason } from '#app/domain/payment-failure.ts'

/** card: our charge of the stored card failed; provider: Stripe's renewal failed; pay_link: the student pays the renewal through a link. */
export type PaymentProblemKind = 'card' | 'provider' | 'pay_link'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** The paragraphs with the action button after the first `buttonAfter` of them. */
function layout(paragraphs: string[], action: { label: string; url: string }, buttonAfter: number) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`)
  body.splice(
    buttonAfter,
    0,
    `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`,
  )
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${body.join('')}</body></html>`
}

export function membershipPaymentProblemEmail({
  kind,
  locale,
  school,
  name,
  to,
  product,
  amount,
  url,
  decline = null,
}: {
  kind: PaymentProblemKind
  locale: Locale
  school: string
  name: string
  to: string
  product: string
  /** Formatted, e.g. "29,00 zł". */
  amount: string
  url: string
  /** Why the card was declined, when the provider said (not for a pay link). */
  decline?: DeclineReason | null
}): OutgoingEmail {
  const t = getTranslator(locale)
  const key = `membership_billing.mail.${kind}` as const
  const reason = decline && kind !== 'pay_link' ? t('payment.failure.mail', { reason: t(`payment.failure.${decline}`), hint: t(`payment.failure.${decline}.hint`) }) : null
  const before = [t('mail.greeting', { name }), t(`${key}.intro`, { amount, product, school }), ...(reason ? [reason] : []), t(`${key}.help`)]
  const signature = t('mail.signature', { school })
  const label = t(`${key}.action`)
  return {
    template: kind === 'pay_link' ? 'membership_renewal_due' : 'membership_payment_problem',
    to,
    subject: t(`${key}.subject`, { product }),
    text: [...before, `${label}: ${url}`, signature].join('\n\n'),
    html: layout([...before, signature], { label, url }, before.length),
  }
}
