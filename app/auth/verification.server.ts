// Sending a login verification code (ADR 017) and the answers of /verify and its script calls.
// The codes themselves (generation, hashes, limits, checks) are the model's:
// app/models/verification.server.ts.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { ShardDb } from '#app/db/client.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import { enqueueEmail, type OutgoingEmail } from '#app/models/email-outbox.server.ts'
import { countCodesSentSince, deleteCode, getUserPhone, HOUR_MS, issueCode, latestCode, maskPhone, MAX_SENDS_PER_HOUR, RESEND_LOCK_MS } from '#app/models/verification.server.ts'
import { getSmsSender, type SmsSender } from '#app/sms/sms.server.ts'
import type { MailJob } from '#app/utils/env.server.ts'
import { redirectTarget, type RedirectOrigin } from '#app/utils/validation.ts'

function verificationEmail({ locale, school, to, code }: { locale: Locale; school: string; to: string; code: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const esc = (v: string) => v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]!))
  const intro = t('verification.mail.intro', { school })
  const expiry = t('verification.mail.expiry')
  return {
    template: 'login_verification',
    to,
    subject: t('verification.mail.subject', { code, school }),
    text: [intro, code, expiry, t('mail.signature', { school })].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px"><p style="margin:0 0 16px;line-height:1.5">${esc(
      intro,
    )}</p><p style="margin:24px 0;font-size:32px;font-weight:700;letter-spacing:8px;font-family:ui-monospace,monospace" data-verification-code>${esc(
      code,
    )}</p><p style="margin:0 0 16px;line-height:1.5">${esc(expiry)}</p><p style="margin:0 0 16px;line-height:1.5">${esc(t('mail.signature', { school }))}</p></body></html>`,
  }
}

export type SendDeps = {
  db: ShardDb
  mailQueue?: Queue<MailJob>
  /** null when SMS is not configured: phone mode then fails to send. */
  sms: SmsSender | null
}

export type SendInput = {
  tenant: { id: string; name: string; language: Locale }
  user: { id: string; email: string }
  sessionId: string
  channel: 'email' | 'phone'
  now?: number
}

export type SendResult =
  | { ok: true; channel: 'email' | 'phone'; resendAt: number; destination: string }
  | { ok: false; reason: 'resend_locked' | 'rate_limited'; retryAfterMs: number }
  | { ok: false; reason: 'no_phone' | 'send_failed' }

/** A new code for this session by email or SMS; the previous one stops working. */
export async function sendVerificationCode({ db, mailQueue, sms }: SendDeps, { tenant, user, sessionId, channel, now = Date.now() }: SendInput): Promise<SendResult> {
  const last = await latestCode(db, tenant.id, sessionId)
  if (last && now - last.sentAt < RESEND_LOCK_MS) return { ok: false, reason: 'resend_locked', retryAfterMs: last.sentAt + RESEND_LOCK_MS - now }
  const sent = await countCodesSentSince(db, tenant.id, user.id, now - HOUR_MS)
  if (sent >= MAX_SENDS_PER_HOUR) return { ok: false, reason: 'rate_limited', retryAfterMs: HOUR_MS }

  const phone = channel === 'phone' ? await getUserPhone(db, tenant.id, user.id) : null
  if (channel === 'phone' && !phone) return { ok: false, reason: 'no_phone' }

  const { id, code } = await issueCode(db, tenant.id, { userId: user.id, sessionId, channel, now })
  try {
    if (channel === 'email') {
      await enqueueEmail(db, mailQueue, tenant.id, verificationEmail({ locale: tenant.language, school: tenant.name, to: user.email, code }))
    } else {
      if (!sms) throw new Error('SMS is not configured (SMSAPI_TOKEN)')
      await sms.send({ to: phone!, text: getTranslator(tenant.language)('verification.sms', { code, school: tenant.name }) })
    }
  } catch (error) {
    // Nothing reached the user: the row goes, so neither the resend lock nor the hourly limit counts it.
    await deleteCode(db, tenant.id, id)
    console.error(JSON.stringify({ event: 'verification_send_failed', tenantId: tenant.id, channel, error: String(error) }))
    return { ok: false, reason: 'send_failed' }
  }
  return { ok: true, channel, resendAt: now + RESEND_LOCK_MS, destination: channel === 'email' ? user.email : maskPhone(phone!) }
}

// Request helpers shared by /verify (forms, no JavaScript) and its script calls (/json/verification/*).

/** Where to go after verifying: a kept same-site path, never /verify itself; else /panel. */
export function afterVerificationPath(redirectTo: unknown, origin: RedirectOrigin) {
  // The shared redirect guard (issue 19 §1), then never back to /verify itself or a JSON endpoint.
  const target = redirectTarget(redirectTo, origin)
  if (!target || /^\/verify(?:[/?#.]|$)/i.test(target) || /^\/json\//i.test(target)) return '/panel'
  return target
}

export type SendAnswer = {
  status: number
  body: { success: boolean; message?: string; resend_in?: number; retry_after?: number; destination?: string; channel?: string; phone_required?: boolean; redirectTo?: string }
}

/** sendVerificationCode's result as the JSON answer (seed 000 §7: {success}; §8 error text). */
export function sendAnswer(result: SendResult, t: (key: string, values?: Record<string, string | number>) => string): SendAnswer {
  if (result.ok) return { status: 200, body: { success: true, channel: result.channel, destination: result.destination, resend_in: Math.ceil(RESEND_LOCK_MS / 1000) } }
  if (result.reason === 'resend_locked') {
    const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000))
    return { status: 429, body: { success: false, message: t('verification.error.locked', { seconds }), retry_after: seconds } }
  }
  if (result.reason === 'rate_limited') return { status: 429, body: { success: false, message: t('verification.error.rate_limited'), retry_after: Math.ceil(result.retryAfterMs / 1000) } }
  if (result.reason === 'no_phone') return { status: 422, body: { success: false, message: t('verification.error.send'), phone_required: true } }
  return { status: 502, body: { success: false, message: t('verification.error.send') } }
}

/** The outbox queue and the configured SMS sender of this worker. */
export function sendDepsFrom(context: AppLoadContext): SendDeps {
  const env = context.cloudflare.env
  return { db: context.db, mailQueue: env.MAIL_QUEUE, sms: getSmsSender(env) }
}
