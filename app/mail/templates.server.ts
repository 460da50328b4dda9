// Transactional email bodies, rendered in the school's language. Values are escaped for HTML.
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { OutgoingEmail } from '#app/models/email-outbox.server.ts'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

function layout(paragraphs: string[], action?: { label: string; url: string }) {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`)
  if (action) {
    body.splice(
      2,
      0,
      `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>`,
    )
  }
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">${body.join('')}</body></html>`
}

export function passwordResetEmail({ locale, school, name, to, url }: { locale: Locale; school: string; name: string; to: string; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const lines = [t('mail.greeting', { name }), t('mail.reset.intro', { school }), t('mail.reset.expiry'), t('mail.reset.ignore'), t('mail.signature', { school })]
  return {
    template: 'password_reset',
    to,
    subject: t('mail.reset.subject', { school }),
    text: [lines[0], lines[1], `${t('mail.reset.action')}: ${url}`, ...lines.slice(2)].join('\n\n'),
    html: layout(lines, { label: t('mail.reset.action'), url }),
  }
}

export function schoolWelcomeEmail({ locale, school, name, to, url }: { locale: Locale; school: string; name: string; to: string; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const lines = [t('mail.greeting', { name }), t('mail.welcome.intro', { school, url }), t('mail.welcome.login', { email: to })]
  return {
    template: 'school_welcome',
    to,
    subject: t('mail.welcome.subject', { school }),
    text: lines.join('\n\n'),
    html: layout(lines),
  }
}

/** A custom domain could not be connected within 24 hours (issue 3): sent once to each owner. */
export function domainProblemEmail({
  locale,
  school,
  name,
  to,
  hostname,
  problem,
  url,
}: {
  locale: Locale
  school: string
  name: string
  to: string
  hostname: string
  /** Translation key of the reason, e.g. domains.problem.timeout. */
  problem: string
  url: string
}): OutgoingEmail {
  const t = getTranslator(locale)
  const lines = [t('mail.greeting', { name }), t('mail.domain_problem.intro', { hostname, school, reason: t(problem) }), t('mail.domain_problem.help'), t('mail.signature', { school })]
  return {
    template: 'domain_problem',
    to,
    subject: t('mail.domain_problem.subject', { hostname }),
    text: [lines[0], lines[1], `${t('mail.domain_problem.action')}: ${url}`, ...lines.slice(2)].join('\n\n'),
    html: layout(lines, { label: t('mail.domain_problem.action'), url }),
  }
}

/** An added or imported student (issue 5 §4) chooses a password from this link (valid 7 days). */
export function invitationEmail({ locale, school, name, to, url }: { locale: Locale; school: string; name: string; to: string; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const lines = [t('mail.greeting', { name }), t('students.mail.intro', { school, email: to }), t('students.mail.expiry'), t('mail.signature', { school })]
  return {
    template: 'invitation',
    to,
    subject: t('students.mail.subject', { school }),
    text: [lines[0], lines[1], `${t('students.mail.action')}: ${url}`, ...lines.slice(2)].join('\n\n'),
    html: layout(lines, { label: t('students.mail.action'), url }),
  }
}

/** The buyer's receipt after a completed payment (issue 8): what was bought, the total with VAT, and where to start. */
export function receiptEmail({
  locale,
  school,
  name,
  to,
  product,
  quantity,
  total,
  vat,
  reference,
  url,
}: { locale: Locale; school: string; name: string; to: string; product: string; quantity: number; total: string; vat: string | null; reference: string; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const lines = [
    t('mail.greeting', { name }),
    t('checkout.mail.receipt.intro', { school }),
    [quantity > 1 ? `${product} × ${quantity}` : product, t('checkout.mail.receipt.total', { total }), vat ? t('checkout.mail.receipt.vat', { vat }) : '', t('checkout.mail.receipt.reference', { reference })].filter(Boolean).join('\n'),
    t('mail.signature', { school }),
  ]
  return {
    template: 'receipt',
    to,
    subject: t('checkout.mail.receipt.subject', { school, product }),
    text: [lines[0], lines[1], lines[2], `${t('checkout.mail.receipt.action')}: ${url}`, lines[3]].join('\n\n'),
    html: layout(lines, { label: t('checkout.mail.receipt.action'), url }),
  }
}
