// Access-manager emails (issue 8 item 7), in the school's language, in the style of
// templates.server.ts: a new invitee chooses a password from `/invitation/{token}`; someone who
// already has an account here is told they got access and given a login link. Values are escaped.
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { OutgoingEmail } from '#app/models/email-outbox.server.ts'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]!))
}

function layout(paragraphs: string[], action: { label: string; url: string }) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`)
  body.splice(
    2,
    0,
    `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(
      action.label,
    )}</a></p>`,
  )
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${body.join('')}</body></html>`
}

type SeatMail = {
  locale: Locale
  school: string
  name: string
  to: string
  buyer: string
  product: string
  url: string
}

/** A seat for someone without an account here: the link sets their password (valid 7 days). */
export function seatInvitationEmail({ locale, school, name, to, buyer, product, url }: SeatMail): OutgoingEmail {
  const t = getTranslator(locale)
  const lines = [t('mail.greeting', { name }), t('seats.mail.invite.intro', { buyer, product, school }), t('seats.mail.invite.expiry'), t('mail.signature', { school })]
  return {
    template: 'seat_invitation',
    to,
    subject: t('seats.mail.invite.subject', { product, school }),
    text: [lines[0], lines[1], `${t('seats.mail.invite.action')}: ${url}`, ...lines.slice(2)].join('\n\n'),
    html: layout(lines, { label: t('seats.mail.invite.action'), url }),
  }
}

/** A seat for someone who already has an account here: access is there, they only log in. */
export function seatAccessEmail({ locale, school, name, to, buyer, product, url }: SeatMail): OutgoingEmail {
  const t = getTranslator(locale)
  const lines = [t('mail.greeting', { name }), t('seats.mail.access.intro', { buyer, product, school }), t('seats.mail.access.login', { email: to }), t('mail.signature', { school })]
  return {
    template: 'seat_access',
    to,
    subject: t('seats.mail.access.subject', { product, school }),
    text: [lines[0], lines[1], `${t('seats.mail.access.action')}: ${url}`, ...lines.slice(2)].join('\n\n'),
    html: layout(lines, { label: t('seats.mail.access.action'), url }),
  }
}
