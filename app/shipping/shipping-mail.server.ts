// The buyer's e-mails of a physical order's shipping (issue 24 item 4), in the school's language:
// "Your order has shipped" with the carrier and tracking (a link when the owner gave one) and
// "Your order was delivered". Links lead to the school's own address (schoolEmailOrigin).
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { OutgoingEmail } from '#app/models/email-outbox.server.ts'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]!))
}

const paragraph = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text)}</p>`
const button = (label: string, url: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>`
const page = (parts: string[]) => `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${parts.join('')}</body></html>`

export type ShippingMailInput = {
  locale: Locale
  school: string
  /** The school's origin for links (https://school.example). */
  origin: string
  to: string
  name: string
  product: string
  lockerCode: string | null
}

export function orderShippedEmail(input: ShippingMailInput & { carrier: string; trackingNumber: string | null; trackingUrl: string | null }): OutgoingEmail {
  const t = getTranslator(input.locale)
  const panelUrl = `${input.origin}/panel`
  const greeting = t('mail.greeting', { name: input.name || input.to })
  const intro = t('shipping.mail.shipped.intro', { product: input.product, school: input.school, carrier: input.carrier })
  const number = input.trackingNumber ? t('shipping.mail.shipped.number', { number: input.trackingNumber }) : null
  const locker = input.lockerCode ? t('shipping.mail.locker', { code: input.lockerCode }) : null
  const signature = t('mail.signature', { school: input.school })
  const track = t('shipping.mail.shipped.track')
  const text = [greeting, intro, number, input.trackingUrl ? `${track}: ${input.trackingUrl}` : null, locker, `${t('shipping.mail.panel')}: ${panelUrl}`, signature].filter(Boolean).join('\n\n')
  const html = page([
    paragraph(greeting),
    paragraph(intro),
    number ? paragraph(number) : '',
    input.trackingUrl ? button(track, input.trackingUrl) : '',
    locker ? paragraph(locker) : '',
    `<p style="margin:0 0 16px"><a href="${escapeHtml(panelUrl)}">${escapeHtml(t('shipping.mail.panel'))}</a></p>`,
    paragraph(signature),
  ])
  return { template: 'order_shipped', to: input.to, subject: t('shipping.mail.shipped.subject', { product: input.product }), text, html }
}

export function orderDeliveredEmail(input: ShippingMailInput): OutgoingEmail {
  const t = getTranslator(input.locale)
  const panelUrl = `${input.origin}/panel`
  const greeting = t('mail.greeting', { name: input.name || input.to })
  const intro = t('shipping.mail.delivered.intro', { product: input.product, school: input.school })
  const signature = t('mail.signature', { school: input.school })
  const text = [greeting, intro, `${t('shipping.mail.panel')}: ${panelUrl}`, signature].join('\n\n')
  const html = page([paragraph(greeting), paragraph(intro), `<p style="margin:0 0 16px"><a href="${escapeHtml(panelUrl)}">${escapeHtml(t('shipping.mail.panel'))}</a></p>`, paragraph(signature)])
  return { template: 'order_delivered', to: input.to, subject: t('shipping.mail.delivered.subject', { product: input.product }), text, html }
}
