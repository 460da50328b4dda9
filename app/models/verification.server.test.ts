// Login verification codes (ADR 017): generation, hashing, expiry, attempts, the resend lock and
// the hourly limit, against the real D1 schema.
import { env } from 'cloudflare:workers'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { sessions, verificationCodes } from '#app/db/schema.server.ts'
import { createSession } from '#app/models/session.server.ts'
import type { SmsSender } from '#app/sms/sms.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { afterVerificationPath, sendVerificationCode } from '#app/auth/verification.server.ts'
import {
  CODE_TTL_MS,
  generateCode,
  hashCode,
  isSessionVerified,
  maskPhone,
  MAX_ATTEMPTS,
  MAX_SENDS_PER_HOUR,
  normalisePhone,
  RESEND_LOCK_MS,
  saveUserPhone,
  verifyCode,
} from './verification.server.ts'

type Captured = { to: string; text: string }
function smsSpy(fail = false) {
  const sent: Captured[] = []
  const sender: SmsSender = {
    async send(message) {
      if (fail) throw new Error('provider down')
      sent.push(message)
      return { id: `sms-${sent.length}`, points: 0.16 }
    },
  }
  return { sender, sent }
}

async function setup(language: 'en' | 'pl' = 'en') {
  const school = await createTestSchool({ language })
  const student = await createTestStudent(school.tenantId, { email: `v-${crypto.randomUUID().slice(0, 8)}@example.com` })
  const { session } = await createSession(db(), school.tenantId, student.id)
  const tenant = { id: school.tenantId, name: `School ${school.slug}`, language }
  return { school, student, sessionId: session.id, tenant, user: { id: student.id, email: student.email } }
}

const codeRows = (tenantId: string, sessionId: string) => db().select().from(verificationCodes).where(and(eq(verificationCodes.tenantId, tenantId), eq(verificationCodes.sessionId, sessionId)))
const lastMailCode = async (tenantId: string) => {
  const row = await (env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }).DB_SHARD_0.prepare("SELECT text_body AS body, subject FROM email_outbox WHERE tenant_id = ? AND template = 'login_verification' ORDER BY created_at DESC LIMIT 1").bind(tenantId).first<{ body: string; subject: string }>()
  return { code: /\b(\d{6})\b/.exec(row!.body)![1], subject: row!.subject, body: row!.body }
}

describe('codes', () => {
  it('are six digits, evenly spread, and hashed with their row id', () => {
    const codes = Array.from({ length: 2000 }, generateCode)
    for (const code of codes) expect(code).toMatch(/^\d{6}$/)
    expect(new Set(codes).size).toBeGreaterThan(1990)
    expect(hashCode('a', '123456')).toMatch(/^[0-9a-f]{64}$/)
    expect(hashCode('a', '123456')).not.toBe(hashCode('b', '123456'))
  })

  it('masks phones to their last 4 digits and normalises prefix + number', () => {
    expect(maskPhone('+48500600789')).toBe('•••••••0789')
    expect(normalisePhone('+48 500-600-789')).toBe('+48500600789')
    expect(normalisePhone('48')).toBeNull()
    expect(normalisePhone('1234567890123456')).toBeNull()
  })

  it('keeps a same-site redirectTo, never /verify or a script call', () => {
    const origin = 'https://school.test'
    expect(afterVerificationPath('/javascript-foundations/watch', origin)).toBe('/javascript-foundations/watch')
    for (const bad of ['//evil.test', 'https://evil.test', '/verify', '/VERIFY', '/./verify', '/verify?redirectTo=/x', '/json/verification/send', '', null, '/\\evil', '/%09/evil.test', '/.//evil.test'])
      expect(afterVerificationPath(bad, origin)).toBe('/panel')
  })
})

describe('sendVerificationCode / verifyCode', () => {
  it('emails a code in the school language; only its hash is stored; the right code verifies the session once', async () => {
    const s = await setup('pl')
    const result = await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'email' })
    expect(result).toMatchObject({ ok: true, channel: 'email', destination: s.user.email })
    const { code, subject } = await lastMailCode(s.tenant.id)
    expect(subject).toContain('to Twój kod logowania')
    const [row] = await codeRows(s.tenant.id, s.sessionId)
    expect(row.codeHash).toBe(hashCode(row.id, code))
    expect(JSON.stringify(row)).not.toContain(`"${code}"`)
    expect(row.expiresAt - row.sentAt).toBe(CODE_TTL_MS)
    expect(await isSessionVerified(db(), s.tenant.id, s.sessionId)).toBe(false)
    expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code: ` ${code} ` })).toBe(true)
    expect(await isSessionVerified(db(), s.tenant.id, s.sessionId)).toBe(true)
    // Used up: the same code does not work twice.
    expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code })).toBe(false)
  })

  it('refuses an expired code', async () => {
    const s = await setup()
    const start = Date.now() - CODE_TTL_MS - 1000
    await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'email', now: start })
    const { code } = await lastMailCode(s.tenant.id)
    expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code })).toBe(false)
    expect(await isSessionVerified(db(), s.tenant.id, s.sessionId)).toBe(false)
  })

  it(`allows ${MAX_ATTEMPTS} attempts per code, then not even the right code works`, async () => {
    const s = await setup()
    await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'email' })
    const { code } = await lastMailCode(s.tenant.id)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < MAX_ATTEMPTS; i++) expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code: i === 2 ? 'abc' : wrong })).toBe(false)
    expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code })).toBe(false)
    const [row] = await codeRows(s.tenant.id, s.sessionId)
    expect(row.attempts).toBe(MAX_ATTEMPTS)
  })

  it('locks resending for 60 s; a new code invalidates the old one; the hourly limit holds', async () => {
    const s = await setup()
    const t0 = Date.now() - 2 * 60 * 60_000
    await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'email', now: t0 })
    const first = await lastMailCode(s.tenant.id)
    const locked = await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'email', now: t0 + 59_000 })
    expect(locked).toEqual({ ok: false, reason: 'resend_locked', retryAfterMs: 1000 })
    const again = await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'email', now: t0 + RESEND_LOCK_MS })
    expect(again.ok).toBe(true)
    const second = await lastMailCode(s.tenant.id)
    if (first.code !== second.code) expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code: first.code, now: t0 + RESEND_LOCK_MS + 1 })).toBe(false)
    expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code: second.code, now: t0 + RESEND_LOCK_MS + 2 })).toBe(true)

    // Hourly limit per user (across sessions).
    const now = Date.now()
    for (let i = 0; i < MAX_SENDS_PER_HOUR; i++) {
      const { session } = await createSession(db(), s.tenant.id, s.user.id)
      expect((await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: session.id, channel: 'email', now: now - 1000 * i })).ok).toBe(true)
    }
    const { session } = await createSession(db(), s.tenant.id, s.user.id)
    expect(await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: session.id, channel: 'email', now })).toMatchObject({ ok: false, reason: 'rate_limited' })
  })

  it('sends by SMS to the saved phone; without one it asks for it; a provider failure stores no code', async () => {
    const s = await setup()
    const spy = smsSpy()
    expect(await sendVerificationCode({ db: db(), sms: spy.sender }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'phone' })).toEqual({ ok: false, reason: 'no_phone' })
    expect(await saveUserPhone(db(), s.tenant.id, s.user.id, '48500600789')).toBe('+48500600789')
    const down = smsSpy(true)
    expect(await sendVerificationCode({ db: db(), sms: down.sender }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'phone' })).toEqual({ ok: false, reason: 'send_failed' })
    expect(await codeRows(s.tenant.id, s.sessionId)).toEqual([])
    expect(await sendVerificationCode({ db: db(), sms: null }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'phone' })).toEqual({ ok: false, reason: 'send_failed' })
    const result = await sendVerificationCode({ db: db(), sms: spy.sender }, { tenant: s.tenant, user: s.user, sessionId: s.sessionId, channel: 'phone' })
    expect(result).toMatchObject({ ok: true, channel: 'phone', destination: '•••••••0789' })
    expect(spy.sent).toHaveLength(1)
    expect(spy.sent[0].to).toBe('+48500600789')
    expect(spy.sent[0].text).toMatch(/^\d{6} is your login code for School /)
    const code = spy.sent[0].text.slice(0, 6)
    expect(await verifyCode(db(), s.tenant.id, { userId: s.user.id, sessionId: s.sessionId, code })).toBe(true)
  })

  it('does not verify a session with another session’s or another school’s code', async () => {
    const a = await setup()
    const b = await setup()
    await sendVerificationCode({ db: db(), sms: null }, { tenant: a.tenant, user: a.user, sessionId: a.sessionId, channel: 'email' })
    const { code } = await lastMailCode(a.tenant.id)
    const { session: other } = await createSession(db(), a.tenant.id, a.user.id)
    expect(await verifyCode(db(), a.tenant.id, { userId: a.user.id, sessionId: other.id, code })).toBe(false)
    expect(await verifyCode(db(), b.tenant.id, { userId: a.user.id, sessionId: a.sessionId, code })).toBe(false)
    expect(await verifyCode(db(), b.tenant.id, { userId: b.user.id, sessionId: b.sessionId, code })).toBe(false)
    const [row] = await db().select().from(sessions).where(eq(sessions.id, a.sessionId))
    expect(row.loginVerifiedAt).toBeNull()
  })
})
