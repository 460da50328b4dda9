// The e-mails of issue 23 §6 and §11: the platform's "Log in to your school" message (one mail,
// one sign-in link per school) and the owner's "a new student registers" notice. Every value is
// escaped for HTML; links come from the schools' configured origins, never from a request.
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { OutgoingEmail } from '#app/models/email-outbox.server.ts'
import type { UserRole } from '#app/db/schema.server.ts'

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const page = (body: string) => `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${body}</body></html>`
const para = (text: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(text)}</p>`

export type SchoolLink = { school: string; role: UserRole; url: string }

export function platformLoginEmail({ locale, to, links }: { locale: Locale; to: string; links: SchoolLink[] }): OutgoingEmail {
  const t = getTranslator(locale)
  const label = (l: SchoolLink) => `${l.school} (${t(`platform_login.mail.role.${l.role}`)})`
  const text = [
    t('platform_login.mail.intro'),
    ...links.map((l) => `${label(l)}\n${t('platform_login.mail.action', { school: l.school })}: ${l.url}`),
    t('platform_login.mail.expiry'),
    t('platform_login.mail.ignore'),
  ].join('\n\n')
  const items = links
    .map(
      (l) =>
        `<li style="margin:0 0 16px"><strong>${escapeHtml(label(l))}</strong><br><a href="${escapeHtml(l.url)}" style="color:#4f46e5;font-weight:600">${escapeHtml(t('platform_login.mail.action', { school: l.school }))}</a></li>`,
    )
    .join('')
  const html = page(`${para(t('platform_login.mail.intro'))}<ul style="padding-left:20px">${items}</ul>${para(t('platform_login.mail.expiry'))}${para(t('platform_login.mail.ignore'))}`)
  return { template: 'platform_login_links', to, subject: t('platform_login.mail.subject'), text, html }
}

export function newStudentEmail({ locale, school, to, student, url }: { locale: Locale; school: string; to: string; student: { name: string; email: string }; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const intro = t('mail.new_student.intro', { school, name: student.name, email: student.email })
  const action = t('mail.new_student.action')
  return {
    template: 'staff_new_student',
    to,
    subject: t('mail.new_student.subject', { school, name: student.name }),
    text: [intro, `${action}: ${url}`, t('mail.new_student.prefs')].join('\n\n'),
    html: page(`${para(intro)}<p style="margin:0 0 16px"><a href="${escapeHtml(url)}">${escapeHtml(action)}</a></p>${para(t('mail.new_student.prefs'))}`),
  }
}
