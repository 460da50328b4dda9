// The e-mail confirming a new address (issue 23 item 12): sent to the NEW address, with a link
// built from the school's own origin. Every value is escaped for HTML.
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { OutgoingEmail } from '#app/models/email-outbox.server.ts'

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
const para = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text)}</p>`

export function emailChangeEmail({ locale, school, name, to, url }: { locale: Locale; school: string; name: string; to: string; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const intro = t('account.mail.email_change.intro', { name, school, email: to })
  const action = t('account.mail.email_change.action')
  const ignore = t('account.mail.email_change.ignore')
  return {
    template: 'email_change',
    to,
    subject: t('account.mail.email_change.subject', { school }),
    text: [intro, `${action}: ${url}`, ignore].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${para(intro)}<p style="margin:0 0 16px"><a href="${escapeHtml(url)}" style="color:#4f46e5;font-weight:600">${escapeHtml(action)}</a></p>${para(ignore)}</body></html>`,
  }
}
