// Issue 27 §6: operators sign in with a password and a TOTP second factor (enrolled before any
// console page), recovery codes work once, roles limit what an operator may do (403, audited),
// admins invite and remove operators (never the last admin), sessions are listed and revocable.
import { env } from 'cloudflare:workers'
import { generateHOTP, generateTOTP } from '@oslojs/otp'
import { describe, expect, it } from 'vitest'
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { TOTP_PERIOD_SECONDS, totpStepAt } from '#app/auth/operator-two-factor.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { appFetch, createTestOperator, createTestSchool, PLATFORM } from '#tests/factories.ts'

const bindings = env as unknown as { DB: D1Database }
const location = (res: Response) => res.headers.get('Location')
const cookieOf = (res: Response) => res.headers.get('Set-Cookie')?.split(';')[0] ?? ''
const totp = (key: Uint8Array) => generateTOTP(key, TOTP_PERIOD_SECONDS, 6)
/** The code of the next 30-second step: accepted (one step of drift) and not yet spent. */
const nextCode = (key: Uint8Array) => generateHOTP(key, BigInt(totpStepAt(Date.now()) + 1), 6)

async function auditRows(action: string) {
  return (
    await bindings.DB.prepare('SELECT tenant_id, actor_id, target, after FROM audit_log WHERE action = ? ORDER BY created_at')
      .bind(action)
      .all<{ tenant_id: string; actor_id: string; target: string; after: string | null }>()
  ).results
}

/** An operator with a password only: what the seed or an invitation leaves before enrolment. */
async function passwordOnlyOperator(email: string, role = 'admin') {
  const now = Date.now()
  const id = `op-${email.split('@')[0]}`
  await bindings.DB.prepare('INSERT INTO operators (id, email, name, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(id, email, 'New Op', await hashPassword('operator-pass'), role, now, now)
    .run()
  const res = await appFetch(PLATFORM, '/operator/login', { form: { email, password: 'operator-pass' } })
  expect(res.status).toBe(302)
  return { id, cookie: cookieOf(res), location: location(res) }
}

const OPERATOR_PAGES = ['/operator', '/operator/schools', '/operator/withdrawals', '/operator/payments', '/operator/audit', '/operator/operators', '/operator/domains', '/operator/dead-letters']

describe('the second factor', () => {
  it('an operator without TOTP reaches no operator page until enrolled; enrolment gives ten recovery codes', async () => {
    const { id, cookie, location: next } = await passwordOnlyOperator('enrol@coursefront.test')
    expect(next).toBe('/operator/two-factor/setup')
    for (const path of OPERATOR_PAGES) {
      const res = await appFetch(PLATFORM, path, { cookie })
      expect({ path, status: res.status, location: location(res) }).toEqual({ path, status: 302, location: '/operator/two-factor/setup' })
    }
    const school = await createTestSchool()
    const suspend = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { form: { intent: 'suspend' }, cookie })
    expect(suspend.status).toBe(302)
    expect((await bindings.DB.prepare('SELECT status FROM tenants WHERE id = ?').bind(school.tenantId).first<{ status: string }>())?.status).toBe('active')

    const setup = await appFetch(PLATFORM, '/operator/two-factor/setup', { cookie })
    expect(setup.status).toBe(200)
    const html = await setup.text()
    const shownKey = /data-totp-key[^>]*>([^<]+)</.exec(html)?.[1]?.replace(/\s/g, '')
    expect(shownKey).toMatch(/^[A-Z2-7]{32}$/)
    expect(html).toContain('otpauth://totp/Coursefront:enrol%40coursefront.test?')
    // Reloading shows the same key (kept sealed until confirmed), never the stored form.
    const stored = await bindings.DB.prepare('SELECT totp_key, totp_enabled_at FROM operators WHERE id = ?').bind(id).first<{ totp_key: string; totp_enabled_at: number | null }>()
    expect(stored?.totp_enabled_at).toBeNull()
    expect(stored?.totp_key).toMatch(/^v1\./)
    expect(stored?.totp_key).not.toContain(shownKey!)
    expect(await (await appFetch(PLATFORM, '/operator/two-factor/setup', { cookie })).text()).toContain(/data-totp-key[^>]*>([^<]+)</.exec(html)![1]!)

    const key = decodeBase32IgnorePadding(shownKey!)
    const wrong = await appFetch(PLATFORM, '/operator/two-factor/setup', { form: { code: String((Number(totp(key)) + 1) % 1_000_000).padStart(6, '0') }, cookie })
    expect(wrong.status).toBe(400)
    expect(await wrong.text()).toContain('This code is not valid.')
    const confirmed = await appFetch(PLATFORM, '/operator/two-factor/setup', { form: { code: totp(key) }, cookie })
    expect(confirmed.status).toBe(200)
    const codes = [...(await confirmed.text()).matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((m) => m[1]!)
    expect(new Set(codes).size).toBe(10)
    const hashes = (await bindings.DB.prepare('SELECT code_hash FROM operator_recovery_codes WHERE operator_id = ?').bind(id).all<{ code_hash: string }>()).results
    expect(hashes).toHaveLength(10)
    for (const code of codes) expect(hashes.map((h) => h.code_hash)).not.toContain(code)
    expect((await auditRows('operator.two_factor_enrol')).filter((r) => r.actor_id === id)).toHaveLength(1)

    for (const path of OPERATOR_PAGES) expect({ path, status: (await appFetch(PLATFORM, path, { cookie })).status }).toEqual({ path, status: 200 })
    // Enrolled: the setup page is gone for good.
    expect(location(await appFetch(PLATFORM, '/operator/two-factor/setup', { cookie }))).toBe('/operator')
  })

  it('every sign-in asks for a code; a code works once; a recovery code works once', async () => {
    const { key, codes, email } = await enrolThroughSetup('twice@coursefront.test')
    const second = await appFetch(PLATFORM, '/operator/login', { form: { email, password: 'operator-pass' } })
    expect(location(second)).toBe('/operator/two-factor')
    const cookie = cookieOf(second)
    expect(location(await appFetch(PLATFORM, '/operator', { cookie }))).toBe('/operator/two-factor')
    // The current step's code was spent by the enrolment.
    const replay = await appFetch(PLATFORM, '/operator/two-factor', { form: { code: totp(key) }, cookie })
    expect(replay.status).toBe(400)
    expect(await replay.text()).toContain('This code was already used.')
    expect(location(await appFetch(PLATFORM, '/operator/two-factor', { form: { code: nextCode(key) }, cookie }))).toBe('/operator')
    expect((await appFetch(PLATFORM, '/operator', { cookie })).status).toBe(200)

    const third = cookieOf(await appFetch(PLATFORM, '/operator/login', { form: { email, password: 'operator-pass' } }))
    expect(location(await appFetch(PLATFORM, '/operator/two-factor', { form: { code: codes[0]!.toUpperCase() }, cookie: third }))).toBe('/operator')
    expect((await auditRows('operator.recovery_code_used')).filter((r) => r.target === email)).toHaveLength(1)
    const fourth = cookieOf(await appFetch(PLATFORM, '/operator/login', { form: { email, password: 'operator-pass' } }))
    const again = await appFetch(PLATFORM, '/operator/two-factor', { form: { code: codes[0]! }, cookie: fourth })
    expect(again.status).toBe(400)
    expect(location(await appFetch(PLATFORM, '/operator', { cookie: fourth }))).toBe('/operator/two-factor')
    expect(location(await appFetch(PLATFORM, '/operator/two-factor', { form: { code: codes[1]! }, cookie: fourth }))).toBe('/operator')
  })

  it('recovery codes are renewed with a fresh code from the app, replacing the old ones', async () => {
    const { key, codes, cookie } = await enrolThroughSetup('renew@coursefront.test')
    const renewed = await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'recovery_codes', code: nextCode(key) }, cookie })
    expect(renewed.status).toBe(200)
    const fresh = [...(await renewed.text()).matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((m) => m[1]!)
    expect(fresh).toHaveLength(10)
    expect(fresh).not.toContain(codes[0])
    // That step is spent: the same code cannot renew them again.
    expect((await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'recovery_codes', code: nextCode(key) }, cookie })).status).toBe(400)
    const login = cookieOf(await appFetch(PLATFORM, '/operator/login', { form: { email: 'renew@coursefront.test', password: 'operator-pass' } }))
    expect((await appFetch(PLATFORM, '/operator/two-factor', { form: { code: codes[0]! }, cookie: login })).status).toBe(400)
    expect(location(await appFetch(PLATFORM, '/operator/two-factor', { form: { code: fresh[0]! }, cookie: login }))).toBe('/operator')
  })

  it('wrong codes are throttled per operator', async () => {
    const operator = await createTestOperator({ email: 'guesser@coursefront.test' })
    const cookie = cookieOf(await appFetch(PLATFORM, '/operator/login', { form: { email: operator.email, password: operator.password } }))
    const statuses: number[] = []
    for (let i = 0; i < 11; i++)
      statuses.push((await appFetch(PLATFORM, '/operator/two-factor', { form: { code: `wrong-${i}` }, cookie, headers: { 'CF-Connecting-IP': `198.51.100.${40 + i}` } })).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400))
    expect(statuses[10]).toBe(429)
    // Even the right code waits out the lock.
    expect((await appFetch(PLATFORM, '/operator/two-factor', { form: { code: nextCode(operator.key) }, cookie })).status).toBe(429)
  })
})

describe('roles', () => {
  it('a support operator cannot suspend, change fees or mark withdrawals paid: 403, audited, nothing changed', async () => {
    const support = await createTestOperator({ role: 'support', email: 'helpdesk@coursefront.test' })
    const school = await createTestSchool()
    const suspend = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { form: { intent: 'suspend' }, cookie: support.cookie })
    expect(suspend.status).toBe(403)
    const fees = await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { form: { intent: 'fees', feePercent: '0', feeFixed: '0' }, cookie: support.cookie })
    expect(fees.status).toBe(403)
    const paid = await appFetch(PLATFORM, '/operator/withdrawals', { form: { intent: 'mark_paid', withdrawalId: 'any' }, cookie: support.cookie })
    expect(paid.status).toBe(403)
    const tenant = await bindings.DB.prepare('SELECT status, fee_basis_points FROM tenants WHERE id = ?').bind(school.tenantId).first<{ status: string; fee_basis_points: number | null }>()
    expect(tenant).toEqual({ status: 'active', fee_basis_points: null })
    const refused = (await auditRows('operator.forbidden')).filter((r) => r.actor_id === support.id)
    expect(refused.map((r) => [r.tenant_id, r.target])).toEqual([
      [school.tenantId, 'schools.suspend'],
      [school.tenantId, 'schools.fees'],
      ['platform', 'withdrawals.pay'],
    ])
    // The pages do not offer what the role cannot do.
    expect(await (await appFetch(PLATFORM, '/operator/withdrawals', { cookie: support.cookie })).text()).not.toContain('name="intent" value="mark_paid"')
  })
})

describe('operator accounts', () => {
  it('an admin invites an operator, who joins once with the link and must set up the second factor', async () => {
    const admin = await createTestOperator({ email: 'inviter@coursefront.test' })
    const invalid = await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'invite', name: '', email: 'not-an-email', role: 'support' }, cookie: admin.cookie })
    expect(invalid.status).toBe(400)
    const invited = await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'invite', name: 'Ola Support', email: 'Ola@Coursefront.test', role: 'support' }, cookie: admin.cookie })
    expect(invited.status).toBe(200)
    const url = /data-invite-url[^>]*>([^<]+)</.exec(await invited.text())?.[1]
    expect(url).toMatch(/^http:\/\/localhost(:\d+)?\/operator\/join\/[a-z0-9]+\.[a-z0-9]+$/)
    const path = new URL(url!).pathname
    expect(await (await appFetch(PLATFORM, path)).text()).toContain('ola@coursefront.test')
    const mismatch = await appFetch(PLATFORM, path, { form: { password: 'long-password', password_confirmation: 'other-password' } })
    expect(mismatch.status).toBe(400)
    const joined = await appFetch(PLATFORM, path, { form: { password: 'long-password', password_confirmation: 'long-password' } })
    expect(location(joined)).toBe('/operator/two-factor/setup')
    expect(location(await appFetch(PLATFORM, '/operator', { cookie: cookieOf(joined) }))).toBe('/operator/two-factor/setup')
    const row = await bindings.DB.prepare('SELECT role, totp_enabled_at FROM operators WHERE email = ?').bind('ola@coursefront.test').first()
    expect(row).toEqual({ role: 'support', totp_enabled_at: null })
    // The link works once.
    expect((await appFetch(PLATFORM, path, { form: { password: 'long-password', password_confirmation: 'long-password' } })).status).toBe(410)
    expect((await auditRows('operator.invite')).map((r) => r.target)).toContain('ola@coursefront.test')
    expect((await auditRows('operator.join')).map((r) => r.target)).toContain('ola@coursefront.test')
    // Only admins invite.
    const finance = await createTestOperator({ role: 'finance' })
    expect((await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'invite', name: 'X', email: 'x@coursefront.test', role: 'admin' }, cookie: finance.cookie })).status).toBe(403)
  })

  it('the last admin cannot be removed or demoted; another operator is removed with their sessions', async () => {
    const admin = await createTestOperator({ email: 'last-admin@coursefront.test' })
    const other = await createTestOperator({ role: 'finance', email: 'leaving@coursefront.test' })
    await bindings.DB.prepare("UPDATE operators SET role = 'support' WHERE role = 'admin' AND id <> ?").bind(admin.id).run()
    const demote = await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'role', operatorId: admin.id, role: 'support' }, cookie: admin.cookie })
    expect(demote.status).toBe(409)
    expect(await demote.text()).toContain('at least one admin')
    expect((await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'remove', operatorId: admin.id }, cookie: admin.cookie })).status).toBe(409)
    expect((await bindings.DB.prepare('SELECT role FROM operators WHERE id = ?').bind(admin.id).first())?.role).toBe('admin')

    expect((await appFetch(PLATFORM, '/operator', { cookie: other.cookie })).status).toBe(200)
    const removed = await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'remove', operatorId: other.id }, cookie: admin.cookie })
    expect(removed.status).toBe(302)
    expect(location(await appFetch(PLATFORM, '/operator', { cookie: other.cookie }))).toBe('/operator/login')
    expect((await bindings.DB.prepare('SELECT count(*) AS n FROM operator_sessions WHERE operator_id = ?').bind(other.id).first())?.n).toBe(0)
    expect((await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'remove', operatorId: 'no-such-operator' }, cookie: admin.cookie })).status).toBe(404)
  })

  it("an operator lists their sessions and signs one out; another operator's session is not theirs to end", async () => {
    const operator = await createTestOperator({ role: 'support' })
    const stranger = await createTestOperator({ role: 'support' })
    const second = cookieOf(await appFetch(PLATFORM, '/operator/login', { form: { email: operator.email, password: operator.password } }))
    await appFetch(PLATFORM, '/operator/two-factor', { form: { code: nextCode(operator.key) }, cookie: second })
    const page = await (await appFetch(PLATFORM, '/operator/operators', { cookie: operator.cookie })).text()
    expect(page.match(/data-operator-session="/g)).toHaveLength(2)
    const sessions = (await bindings.DB.prepare('SELECT id FROM operator_sessions WHERE operator_id = ?').bind(operator.id).all<{ id: string }>()).results.map((r) => r.id)
    const strangers = (await bindings.DB.prepare('SELECT id FROM operator_sessions WHERE operator_id = ?').bind(stranger.id).all<{ id: string }>()).results.map((r) => r.id)
    expect((await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'revoke_session', sessionId: strangers[0]! }, cookie: operator.cookie })).status).toBe(404)
    const otherSession = sessions.find((id) => second.includes(id))!
    expect(otherSession).toBeTruthy()
    expect((await appFetch(PLATFORM, '/operator/operators', { form: { intent: 'revoke_session', sessionId: otherSession }, cookie: operator.cookie })).status).toBe(302)
    expect(location(await appFetch(PLATFORM, '/operator', { cookie: second }))).toBe('/operator/login')
    expect((await appFetch(PLATFORM, '/operator', { cookie: operator.cookie })).status).toBe(200)
  })
})

/** An operator enrolled through the setup page: their key, recovery codes and signed-in cookie. */
async function enrolThroughSetup(email: string) {
  const { cookie } = await passwordOnlyOperator(email)
  const html = await (await appFetch(PLATFORM, '/operator/two-factor/setup', { cookie })).text()
  const key = decodeBase32IgnorePadding(/data-totp-key[^>]*>([^<]+)</.exec(html)![1]!.replace(/\s/g, ''))
  const confirmed = await appFetch(PLATFORM, '/operator/two-factor/setup', { form: { code: totp(key) }, cookie })
  const codes = [...(await confirmed.text()).matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((m) => m[1]!)
  expect(codes).toHaveLength(10)
  return { email, key, codes, cookie }
}
