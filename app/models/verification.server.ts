// Login verification (seed 000 §2 "session verification", §4, §5, §8; ADR 017). When a school's
// mode is 'email' or 'phone', a student's session must confirm a 6-digit code before any student
// page opens. Codes: random, only a salted SHA-256 stored (compared in constant time), valid
// 10 minutes, 5 attempts each, a new one at most once a minute per session (and a few per user
// per hour); a new code makes the previous one unusable. Sessions are tenant-bound, so every
// query here is scoped by tenant and session. Sending a code (e-mail or SMS) is the use case in
// app/auth/verification.server.ts.
import { count, desc, eq, gt, isNull } from 'drizzle-orm'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { sessions, tenants, users, verificationCodes, type LoginVerificationMode } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { hashSecret, secretMatches } from '#app/utils/session-token.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export const CODE_LENGTH = 6
export const CODE_TTL_MS = 10 * 60_000
export const MAX_ATTEMPTS = 5
/** Seed 000 §9: resend locked 60 s (the page counts down; the server refuses with 429). */
export const RESEND_LOCK_MS = 60_000
export const MAX_SENDS_PER_HOUR = 5
export const HOUR_MS = 60 * 60_000

export async function getLoginVerificationMode(db: ControlDb, tenantId: string): Promise<LoginVerificationMode> {
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

export async function getUserPhone(db: ShardDb, tenantId: string, userId: string) {
  const [row] = await db.select({ phone: users.phone }).from(users).where(ofTenant(users, tenantId, eq(users.id, userId))).limit(1)
  return row?.phone ?? null
}

/** Saves the student's phone; false for a number that is not one or an unknown user. */
export async function saveUserPhone(db: ShardDb, tenantId: string, userId: string, phoneNumber: string, now = Date.now()) {
  const phone = normalisePhone(phoneNumber)
  if (!phone) return null
  const rows = await db
    .update(users)
    .set({ phone, updatedAt: now })
    .where(ofTenant(users, tenantId, eq(users.id, userId)))
    .returning({ id: users.id })
  return rows.length ? phone : null
}

export async function isSessionVerified(db: ShardDb, tenantId: string, sessionId: string) {
  const [row] = await db.select({ at: sessions.loginVerifiedAt }).from(sessions).where(ofTenant(sessions, tenantId, eq(sessions.id, sessionId))).limit(1)
  return row?.at != null
}

/** The session's newest code, used or not. */
export async function latestCode(db: ShardDb, tenantId: string, sessionId: string) {
  const [row] = await db
    .select()
    .from(verificationCodes)
    .where(ofTenant(verificationCodes, tenantId, eq(verificationCodes.sessionId, sessionId)))
    .orderBy(desc(verificationCodes.sentAt))
    .limit(1)
  return row ?? null
}

/** For the page: when the last code went out and when a new one may be asked for. */
export async function getVerificationState(db: ShardDb, tenantId: string, sessionId: string, now = Date.now()) {
  const last = await latestCode(db, tenantId, sessionId)
  if (!last) return { sent: false as const, channel: null, resendAt: null }
  const usable = last.consumedAt === null && last.expiresAt > now && last.attempts < MAX_ATTEMPTS
  return { sent: usable, channel: last.channel, resendAt: last.sentAt + RESEND_LOCK_MS > now ? last.sentAt + RESEND_LOCK_MS : null }
}

/** How many codes went to this user since `since` (the hourly limit). */
export async function countCodesSentSince(db: ShardDb, tenantId: string, userId: string, since: number) {
  const [{ sent }] = await db
    .select({ sent: count() })
    .from(verificationCodes)
    .where(ofTenant(verificationCodes, tenantId, eq(verificationCodes.userId, userId), gt(verificationCodes.sentAt, since)))
  return sent
}

/** A new code for this session, stored hashed; the session's earlier codes stop working in the same batch. */
export async function issueCode(db: ShardDb, tenantId: string, { userId, sessionId, channel, now }: { userId: string; sessionId: string; channel: 'email' | 'phone'; now: number }) {
  const code = generateCode()
  const id = newId()
  await db.batch([
    db
      .update(verificationCodes)
      .set({ consumedAt: now })
      .where(ofTenant(verificationCodes, tenantId, eq(verificationCodes.sessionId, sessionId), isNull(verificationCodes.consumedAt))),
    db.insert(verificationCodes).values({ id, tenantId, userId, sessionId, channel, codeHash: hashCode(id, code), attempts: 0, sentAt: now, expiresAt: now + CODE_TTL_MS }),
  ])
  return { id, code }
}

/** A code that never reached the user: gone, so neither the resend lock nor the hourly limit counts it. */
export async function deleteCode(db: ShardDb, tenantId: string, id: string) {
  await db.delete(verificationCodes).where(ofTenant(verificationCodes, tenantId, eq(verificationCodes.id, id)))
}

/**
 * Checks a code for this session (of this user, of this school). Every try counts against the
 * code's attempts before comparing; the right code marks the session verified once.
 */
export async function verifyCode(db: ShardDb, tenantId: string, { userId, sessionId, code, now = Date.now() }: { userId: string; sessionId: string; code: string; now?: number }) {
  const last = await latestCode(db, tenantId, sessionId)
  if (!last || last.userId !== userId || last.consumedAt !== null || last.expiresAt <= now || last.attempts >= MAX_ATTEMPTS) return false
  const counted = await db
    .update(verificationCodes)
    .set({ attempts: last.attempts + 1 })
    .where(ofTenant(verificationCodes, tenantId, eq(verificationCodes.id, last.id), eq(verificationCodes.attempts, last.attempts), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id })
  // A concurrent try moved the counter: this one is refused rather than compared twice.
  if (counted.length === 0) return false
  const typed = normaliseCode(code)
  if (!new RegExp(`^\\d{${CODE_LENGTH}}$`).test(typed) || !secretMatches(`${last.id}.${typed}`, last.codeHash)) return false
  const consumed = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(ofTenant(verificationCodes, tenantId, eq(verificationCodes.id, last.id), isNull(verificationCodes.consumedAt)))
    .returning({ id: verificationCodes.id })
  if (consumed.length === 0) return false
  const verified = await db
    .update(sessions)
    .set({ loginVerifiedAt: now })
    .where(ofTenant(sessions, tenantId, eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id })
  return verified.length > 0
}
