// Login verification (seed 000 §2 "session verification", §4, §5, §8; ADR 017). When a school's
// mode is 'email' or 'phone', a student's session must confirm a 6-digit code before any student
// page opens. Codes: random, only a salted SHA-256 stored (compared in constant time), valid
// 10 minutes, 5 attempts each, a new one at most once a minute per session (and a few per user
// per hour); a new code makes the previous one unusable. Sessions are tenant-bound, so every
// query here is scoped by tenant and session.
import { and, count, desc, eq, gt, isNull } from 'drizzle-orm'
import type { Db } from '#app/db/client.server.ts'
import { sessions, tenants, users, verificationCodes, type LoginVerificationMode } from '#app/db/schema.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import { enqueueEmail, type OutgoingEmail } from '#app/models/email-outbox.server.ts'
import type { AppLoadContext } from '@remix-run/cloudflare'
import { getSmsSender, type SmsSender } from '#app/sms/sms.server.ts'
import type { MailJob } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { hashSecret, secretMatches } from '#app/utils/session-token.server.ts'
import { redirectTarget, type RedirectOrigin } from '#app/utils/validation.ts'

export const CODE_LENGTH = 6
export const CODE_TTL_MS = 10 * 60_000
export const MAX_ATTEMPTS = 5
/** Seed 000 §9: resend locked 60 s (the page counts down; the server refuses with 429). */
export const RESEND_LOCK_MS = 60_000
export const MAX_SENDS_PER_HOUR = 5
const HOUR_MS = 60 * 60_000

export async function getLoginVerificationMode(db: Db, tenantId: string): Promise<LoginVerificationMode> {
  const [row] = await db.select({ mode: tenants.loginVerification }).from(tenants).where(eq(tenants.id, tenantId)).limit(1)
  return row?.mode ?? 'off'
}

/** Uniform over 000000–999999 (rejection sampling, no modulo bias). */
export function generateCode() {
  const buf = new Uint32Array(1)
  const limit = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000
  for (;;) {
    crypto.getRandomValues(buf)
    if (buf[0] < limit) return String(buf[0] % 1_000_000).padStart(CODE_LENGTH, '0')
  }
}

/** Salted with the row id, so equal codes never share a hash. */
export const hashCode = (rowId: string, code: string) => hashSecret(`${rowId}.${code}`)

/** What the user typed: spaces and dashes dropped; anything but 6 digits never matches. */
export function normaliseCode(input: string) {
  return input.replace(/[\s-]/g, '')
}

/** Stored phone numbers: '+' and digits (prefix and number as sent, stripped to digits). */
export function normalisePhone(input: string) {
  const digits = input.replace(/\D/g, '')
  return digits.length >= 8 && digits.length <= 15 ? `+${digits}` : null
}

/** Seed 000 §5: only the last 4 digits visible. */
export function maskPhone(phone: string) {
  const digits = phone.replace(/\D/g, '')
  if (digits.length <= 4) return '•'.repeat(digits.length)
  return `${'•'.repeat(digits.length - 4)}${digits.slice(-4)}`
}

export async function getUserPhone(db: Db, tenantId: string, userId: string) {
  const [row] = await db.select({ phone: users.phone }).from(users).where(and(eq(users.tenantId, tenantId), eq(users.id, userId))).limit(1)
  return row?.phone ?? null
}

/** Saves the student's phone; false for a number that is not one or an unknown user. */
export async function saveUserPhone(db: Db, tenantId: string, userId: string, phoneNumber: string, now = Date.now()) {
  const phone = normalisePhone(phoneNumber)
  if (!phone) return null
  const rows = await db
    .update(users)
    .set({ phone, updatedAt: now })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .returning({ id: users.id })
  return rows.length ? phone : null
}

export async function isSessionVerified(db: Db, tenantId: string, sessionId: string) {
  const [row] = await db.select({ at: sessions.loginVerifiedAt }).from(sessions).where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId))).limit(1)
  return row?.at != null
}

async function latestCode(db: Db, tenantId: string, sessionId: string) {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.tenantId, tenantId), eq(verificationCodes.sessionId, sessionId)))
    .orderBy(desc(verificationCodes.sentAt))
    .limit(1)
  return row ?? null
}

/** For the page: when the last code went out and when a new one may be asked for. */
export async function getVerificationState(db: Db, tenantId: string, sessionId: string, now = Date.now()) {
  const last = await latestCode(db, tenantId, sessionId)
  if (!last) return { sent: false as const, channel: null, resendAt: null }
  const usable = last.consumedAt === null && last.expiresAt > now && last.attempts < MAX_ATTEMPTS
  return { sent: usable, channel: last.channel, resendAt: last.sentAt + RESEND_LOCK_MS > now ? last.sentAt + RESEND_LOCK_MS : null }
}

function verificationEmail({ locale, school, to, code }: { locale: Locale; school: string; to: string; code: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const esc = (v: string) => v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
  const intro = t('verification.mail.intro', { school })
  const expiry = t('verification.mail.expiry')
  return {
    template: 'login_verification',
    to,
    subject: t('verification.mail.subject', { code, school }),
    text: [intro, code, expiry, t('mail.signature', { school })].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px"><p style="margin:0 0 16px;line-height:1.5">${esc(intro)}</p><p style="margin:24px 0;font-size:32px;font-weight:700;letter-spacing:8px;font-family:ui-monospace,monospace" data-verification-code>${esc(code)}</p><p style="margin:0 0 16px;line-height:1.5">${esc(expiry)}</p><p style="margin:0 0 16px;line-height:1.5">${esc(t('mail.signature', { school }))}</p></body></html>`,
  }
}

export type SendDeps = {
  db: Db
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
  const [{ sent }] = await db
    .select({ sent: count() })
    .from(verificationCodes)
    .where(and(eq(verificationCodes.tenantId, tenant.id), eq(verificationCodes.userId, user.id), gt(verificationCodes.sentAt, now - HOUR_MS)))
  if (sent >= MAX_SENDS_PER_HOUR) return { ok: false, reason: 'rate_limited', retryAfterMs: HOUR_MS }

  const phone = channel === 'phone' ? await getUserPhone(db, tenant.id, user.id) : null
  if (channel === 'phone' && !phone) return { ok: false, reason: 'no_phone' }

  const code = generateCode()
  const id = newId()
  await db.batch([
    db
      .update(verificationCodes)
      .set({ consumedAt: now })
      .where(and(eq(verificationCodes.tenantId, tenant.id), eq(verificationCodes.sessionId, sessionId), isNull(verificationCodes.consumedAt))),
    db.insert(verificationCodes).values({ id, tenantId: tenant.id, userId: user.id, sessionId, channel, codeHash: hashCode(id, code), attempts: 0, sentAt: now, expiresAt: now + CODE_TTL_MS }),
  ])
  try {
    if (channel === 'email') {
      await enqueueEmail(db, mailQueue, tenant.id, verificationEmail({ locale: tenant.language, school: tenant.name, to: user.email, code }))
    } else {
      if (!sms) throw new Error('SMS is not configured (SMSAPI_TOKEN)')
      await sms.send({ to: phone!, text: getTranslator(tenant.language)('verification.sms', { code, school: tenant.name }) })
    }
  } catch (error) {
    // Nothing reached the user: the row goes, so neither the resend lock nor the hourly limit counts it.
    await db.delete(verificationCodes).where(and(eq(verificationCodes.tenantId, tenant.id), eq(verificationCodes.id, id)))
    console.error(JSON.stringify({ event: 'verification_send_failed', tenantId: tenant.id, channel, error: String(error) }))
    return { ok: false, reason: 'send_failed' }
  }
  return { ok: true, channel, resendAt: now + RESEND_LOCK_MS, destination: channel === 'email' ? user.email : maskPhone(phone!) }
}

/**
 * Checks a code for this session (of this user, of this school). Every try counts against the
 * code's attempts before comparing; the right code marks the session verified once.
 */
export async function verifyCode(db: Db, tenantId: string, { userId, sessionId, code, now = Date.now() }: { userId: string; sessionId: string; code: string; now?: number }) {
  const last = await latestCode(db, tenantId, sessionId)
  if (!last || last.userId !== userId || last.consumedAt !== null || last.expiresAt <= now || last.attempts >= MAX_ATTEMPTS) return false
  const counted = await db
    .update(verificationCodes)
    .set({ attempts: last.attempts + 1 })
    .where(and(eq(verificationCodes.tenantId, tenantId), eq(verificationCodes.id, last.id), eq(verificationCodes.attempts, last.attempts), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id })
  // A concurrent try moved the counter: this one is refused rather than compared twice.
  if (counted.length === 0) return false
  const typed = normaliseCode(code)
  if (!new RegExp(`^\\d{${CODE_LENGTH}}$`).test(typed) || !secretMatches(`${last.id}.${typed}`, last.codeHash)) return false
  const consumed = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(and(eq(verificationCodes.tenantId, tenantId), eq(verificationCodes.id, last.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id })
  if (consumed.length === 0) return false
  const verified = await db
    .update(sessions)
    .set({ loginVerifiedAt: now })
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id })
  return verified.length > 0
}

// Request helpers shared by /verify (forms, no JavaScript) and its script calls (/json/verification/*).

/** Where to go after verifying: a kept same-site path, never /verify itself; else /panel. */
export function afterVerificationPath(redirectTo: unknown, origin: RedirectOrigin) {
  // The shared redirect guard (issue 19 §1), then never back to /verify itself or a JSON endpoint.
  const target = redirectTarget(redirectTo, origin)
  if (!target || /^\/verify(?:[/?#.]|$)/i.test(target) || /^\/json\//i.test(target)) return '/panel'
  return target
}

export type SendAnswer = { status: number; body: { success: boolean; message?: string; resend_in?: number; retry_after?: number; destination?: string; channel?: string; phone_required?: boolean; redirectTo?: string } }

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
