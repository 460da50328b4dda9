// Login verification (issue 7 item 6, ADR 017) through the real worker: the school setting, the
// gate on student pages and script calls, /verify with and without JavaScript, the three JSON
// calls, codes stored hashed, expiry, attempts, the resend lock, the SMS peer and its failure,
// and sessions of another school.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { updatePageSettings } from '#app/models/page-settings.server.ts'
import { appFetch, createTestSchool, createTestStudent, login, type TestSchool, dbs } from '#tests/factories.ts'

const DB = (env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }).DB
/** Shard 0, where test schools live (tests/factories.ts). */
const DB_SHARD_0 = (env as unknown as { DB_SHARD_0: D1Database }).DB_SHARD_0
const peers = (env as unknown as { DEV_PEERS: Fetcher }).DEV_PEERS
const peer = async (path: string, init: { method?: string; json?: unknown } = {}) => {
  const res = await peers.fetch(`http://dev-peers.internal${path}`, {
    method: init.method ?? (init.json ? 'POST' : 'GET'),
    headers: init.json ? { 'Content-Type': 'application/json' } : undefined,
    body: init.json ? JSON.stringify(init.json) : undefined,
  })
  return (await res.json()) as Record<string, unknown>
}
const smsTo = async (number: string) => ((await peer(`/_peer/sms/messages?to=${number}`)).messages as Array<{ message: string }>).map((m) => m.message)
const location = (res: Response) => res.headers.get('Location') ?? ''
const settingsForm = (fields: Record<string, string>) => ({ avatarPath: '', coverPath: '', name: 'Verified School', language: 'en', template: 'classic', authorName: '', bio: '', contactEmail: '', customJs: '', conversionCode: '', ...fields })

/** A script call as the page makes it (fetch with JSON). */
function call(school: TestSchool, path: string, cookie: string, json: Record<string, string> = {}) {
  return appFetch(school.host, path, {
    method: 'POST',
    cookie,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    body: JSON.stringify(json),
  })
}
async function mailedCode(school: TestSchool, to: string) {
  const row = await DB_SHARD_0.prepare("SELECT text_body AS body FROM email_outbox WHERE tenant_id = ? AND to_address = ? AND template = 'login_verification' ORDER BY created_at DESC LIMIT 1")
    .bind(school.tenantId, to)
    .first<{ body: string }>()
  return row ? /\b(\d{6})\b/.exec(row.body)![1] : null
}
const codeRows = (school: TestSchool) => DB_SHARD_0.prepare('SELECT * FROM verification_codes WHERE tenant_id = ? ORDER BY sent_at').bind(school.tenantId).all<{ code_hash: string; attempts: number; session_id: string; sent_at: number }>()

async function schoolWith(mode: 'off' | 'email' | 'phone') {
  const school = await createTestSchool()
  await DB.prepare('UPDATE tenants SET login_verification = ? WHERE id = ?').bind(mode, school.tenantId).run()
  const student = await createTestStudent(school.tenantId)
  const cookie = await login(school.host, student.email, student.password)
  return { school, student, cookie }
}

beforeEach(async () => {
  await peer('/_peer/reset', { method: 'POST' })
})

describe('the school setting', () => {
  it('is chosen in the page settings by the owner; an unknown mode is refused and nothing is written', async () => {
    const school = await createTestSchool()
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const page = await (await appFetch(school.host, '/home/settings/page', { cookie: owner })).text()
    expect(page).toContain('name="loginVerification"')
    expect(page).toContain('With a code by SMS')
    const saved = await appFetch(school.host, '/home/settings/page', { form: settingsForm({ loginVerification: 'phone' }), cookie: owner })
    expect(saved.status).toBe(302)
    const mode = () => DB.prepare('SELECT login_verification AS m FROM tenants WHERE id = ?').bind(school.tenantId).first<{ m: string }>()
    expect((await mode())!.m).toBe('phone')
    const refused = await appFetch(school.host, '/home/settings/page', { form: settingsForm({ loginVerification: 'carrier-pigeon', name: 'Changed' }), cookie: owner })
    expect(refused.status).toBe(400)
    expect((await mode())!.m).toBe('phone')
    // A form without the field (older page) keeps the mode.
    expect((await appFetch(school.host, '/home/settings/page', { form: settingsForm({}), cookie: owner })).status).toBe(302)
    expect((await mode())!.m).toBe('phone')
  })
})

describe('the gate', () => {
  it('leaves students alone when the mode is off', async () => {
    const { school, cookie } = await schoolWith('off')
    expect((await appFetch(school.host, '/panel', { cookie })).status).toBe(200)
    const verify = await appFetch(school.host, '/verify', { cookie })
    expect(verify.status).toBe(302)
    expect(location(verify)).toBe('/panel')
    expect(await (await call(school, '/json/verification/send', cookie)).json()).toEqual({ success: false, redirectTo: '/panel' })
  })

  it('sends an unverified student to /verify (keeping redirectTo), answers script calls 403 {redirectTo}, never gates staff', async () => {
    const { school, cookie } = await schoolWith('email')
    const panel = await appFetch(school.host, '/panel', { cookie })
    expect(panel.status).toBe(302)
    expect(location(panel)).toBe('/verify')
    const deep = await appFetch(school.host, '/panel?tab=files', { cookie })
    expect(location(deep)).toBe(`/verify?redirectTo=${encodeURIComponent('/panel?tab=files')}`)
    const script = await appFetch(school.host, '/panel/sessions/nope', { method: 'POST', cookie, headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })
    // Unknown id is looked up first (404); a real one shows the gate.
    expect(script.status).toBe(404)
    const sessionId = (await DB_SHARD_0.prepare('SELECT id FROM sessions WHERE tenant_id = ? ORDER BY created_at DESC LIMIT 1').bind(school.tenantId).first<{ id: string }>())!.id
    const gated = await appFetch(school.host, `/panel/sessions/${sessionId}`, { method: 'POST', cookie, headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })
    expect(gated.status).toBe(403)
    expect(await gated.json()).toEqual({ redirectTo: '/verify' })
    // Still signed in for /verify only: the storefront header treats them as signed out.
    const home = await (await appFetch(school.host, '/', { cookie })).text()
    expect(home).toContain('href="/login"')
    const owner = await login(school.host, school.owner.email, school.owner.password)
    expect((await appFetch(school.host, '/home', { cookie: owner })).status).toBe(200)
    const ownerVerify = await appFetch(school.host, '/verify', { cookie: owner })
    expect(location(ownerVerify)).toBe('/home')
    const visitor = await appFetch(school.host, '/verify')
    expect(location(visitor)).toBe('/login?redirectTo=%2Fverify')
    expect((await call(school, '/json/verification/send', '')).status).toBe(419)
  })
})

describe('email mode with JavaScript (the JSON calls)', () => {
  it('sends a hashed code, locks resending, refuses a wrong code, verifies with the right one, then /panel opens', async () => {
    const { school, student, cookie } = await schoolWith('email')
    const page = await appFetch(school.host, '/verify', { cookie })
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('no-store')
    const html = await page.text()
    expect(html).toContain('Send code')
    expect(html).toContain(student.email)

    const sent = await call(school, '/json/verification/send', cookie)
    expect(sent.status).toBe(200)
    expect(await sent.json()).toMatchObject({ success: true, resend_in: 60, channel: 'email' })
    const code = (await mailedCode(school, student.email))!
    expect(code).toMatch(/^\d{6}$/)
    const { results } = await codeRows(school)
    expect(results).toHaveLength(1)
    expect(results[0].code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(results)).not.toContain(code)

    const again = await call(school, '/json/verification/send', cookie)
    expect(again.status).toBe(429)
    const lock = (await again.json()) as { retry_after: number; message: string }
    expect(lock.retry_after).toBeGreaterThan(55)
    expect(lock.retry_after).toBeLessThanOrEqual(60)
    expect((await codeRows(school)).results).toHaveLength(1)

    const wrong = await call(school, '/json/verification/verify', cookie, { code: code === '000000' ? '111111' : '000000' })
    expect(wrong.status).toBe(422)
    expect(await wrong.json()).toEqual({ success: false, message: 'Invalid or expired verification code.' })
    const tooLong = await call(school, '/json/verification/verify', cookie, { code: `${code}1` })
    expect(tooLong.status).toBe(422)

    const right = await call(school, '/json/verification/verify', cookie, { code })
    expect(right.status).toBe(200)
    expect(await right.json()).toMatchObject({ success: true })
    expect((await appFetch(school.host, '/panel', { cookie })).status).toBe(200)
    // A new login is a new session: asked again.
    const second = await login(school.host, student.email, student.password)
    expect(location(await appFetch(school.host, '/panel', { cookie: second }))).toBe('/verify')
  })

  it('locks a code after 5 attempts and refuses an expired one', async () => {
    const { school, student, cookie } = await schoolWith('email')
    await call(school, '/json/verification/send', cookie)
    const code = (await mailedCode(school, student.email))!
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < 5; i++) expect((await call(school, '/json/verification/verify', cookie, { code: wrong })).status).toBe(422)
    expect((await call(school, '/json/verification/verify', cookie, { code })).status).toBe(422)
    expect((await codeRows(school)).results[0].attempts).toBe(5)

    // A fresh code, then its expiry passes (moved back in time in the database).
    await DB_SHARD_0.prepare('UPDATE verification_codes SET sent_at = sent_at - 61000 WHERE tenant_id = ?').bind(school.tenantId).run()
    expect((await call(school, '/json/verification/send', cookie)).status).toBe(200)
    const fresh = (await mailedCode(school, student.email))!
    await DB_SHARD_0.prepare('UPDATE verification_codes SET expires_at = ? WHERE tenant_id = ? AND consumed_at IS NULL').bind(Date.now() - 1, school.tenantId).run()
    const expired = await call(school, '/json/verification/verify', cookie, { code: fresh })
    expect(expired.status).toBe(422)
    expect(await expired.json()).toMatchObject({ message: 'Invalid or expired verification code.' })
    expect(location(await appFetch(school.host, '/panel', { cookie }))).toBe('/verify')
  })
})

describe('without JavaScript (forms posting to /verify)', () => {
  it('sends, shows the error for a wrong code and goes on to the kept redirectTo', async () => {
    const { school, student, cookie } = await schoolWith('email')
    const sent = await appFetch(school.host, '/verify', { cookie, form: { intent: 'send', redirectTo: '/panel?tab=files' } })
    expect(sent.status).toBe(200)
    const html = await sent.text()
    expect(html).toContain('We sent a 6-digit code to')
    expect(html).toContain('name="code"')
    const locked = await appFetch(school.host, '/verify', { cookie, form: { intent: 'send' } })
    expect(locked.status).toBe(429)
    expect(await locked.text()).toMatch(/Wait \d+ s before asking for a new code\./)
    const code = (await mailedCode(school, student.email))!
    const wrong = await appFetch(school.host, '/verify', { cookie, form: { intent: 'verify', code: code === '000000' ? '111111' : '000000' } })
    expect(wrong.status).toBe(422)
    expect(await wrong.text()).toContain('Invalid or expired verification code.')
    const right = await appFetch(school.host, '/verify', { cookie, form: { intent: 'verify', code, redirectTo: '/panel?tab=files' } })
    expect(right.status).toBe(302)
    expect(location(right)).toBe('/panel?tab=files')
    // A foreign redirectTo is never followed.
    const evil = await schoolWith('email')
    await appFetch(evil.school.host, '/verify', { cookie: evil.cookie, form: { intent: 'send' } })
    const evilCode = (await mailedCode(evil.school, evil.student.email))!
    const res = await appFetch(evil.school.host, '/verify', { cookie: evil.cookie, form: { intent: 'verify', code: evilCode, redirectTo: '//evil.test/x' } })
    expect(location(res)).toBe('/panel')
  })
})

describe('phone mode and the SMS peer', () => {
  it('asks for a phone first, saves it masked, sends the code by SMS through SMSAPI and verifies', async () => {
    const { school, cookie } = await schoolWith('phone')
    const page = await (await appFetch(school.host, '/verify', { cookie })).text()
    expect(page).toContain('name="prefix"')
    expect(page).toContain('value="+48"')
    expect(page).toContain('maxLength="4"')

    const noPhone = await call(school, '/json/verification/send', cookie)
    expect(noPhone.status).toBe(422)
    expect(await noPhone.json()).toMatchObject({ success: false, phone_required: true, message: 'Failed to send verification code.' })

    for (const phone_number of ['', '48', 'abc', '4850060078912345678']) {
      const bad = await call(school, '/json/verification/phone/save', cookie, { phone_number })
      expect(bad.status, phone_number).toBe(422)
      expect(await bad.json()).toEqual({ success: false, message: 'Failed to save phone number.' })
    }
    const saved = await call(school, '/json/verification/phone/save', cookie, { phone_number: '48 500-600-789' })
    expect(saved.status).toBe(200)
    expect(await saved.json()).toEqual({ success: true, phone: '•••••••0789' })
    // While the login still owes a code the number cannot be swapped for another one.
    const swap = await call(school, '/json/verification/phone/save', cookie, { phone_number: '48111222333' })
    expect(swap.status).toBe(422)
    const stored = await DB_SHARD_0.prepare("SELECT phone FROM users WHERE tenant_id = ? AND role = 'student'").bind(school.tenantId).first<{ phone: string }>()
    expect(stored!.phone).toBe('+48500600789')
    expect(await (await appFetch(school.host, '/verify', { cookie })).text()).toContain('•••••••0789')

    const sent = await call(school, '/json/verification/send', cookie)
    expect(sent.status).toBe(200)
    expect(await sent.json()).toMatchObject({ success: true, channel: 'phone', destination: '•••••••0789' })
    const [sms] = await smsTo('48500600789')
    expect(sms).toMatch(new RegExp(`^\\d{6} is your login code for School ${school.slug}\\.`))
    const requests = (await peer('/_peer/requests?target=smsapi')).requests as Array<{ auth: string; body: string }>
    expect(requests.at(-1)!.auth).toBe('bearer')
    expect(Object.fromEntries(new URLSearchParams(requests.at(-1)!.body))).toMatchObject({ to: '48500600789', format: 'json', encoding: 'utf-8', from: 'Coursefront' })

    expect((await call(school, '/json/verification/verify', cookie, { code: sms.slice(0, 6) })).status).toBe(200)
    expect((await appFetch(school.host, '/panel', { cookie })).status).toBe(200)
  })

  it('answers a provider failure with 502 "Failed to send verification code." and keeps no code', async () => {
    const { school, cookie } = await schoolWith('phone')
    await call(school, '/json/verification/phone/save', cookie, { phone_number: '48500600111' })
    await peer('/_peer/faults', { json: { target: 'smsapi', mode: 'status', status: 500, count: 2 } })
    const failed = await call(school, '/json/verification/send', cookie)
    expect(failed.status).toBe(502)
    expect(await failed.json()).toEqual({ success: false, message: 'Failed to send verification code.' })
    expect((await codeRows(school)).results).toHaveLength(0)
    const page = await appFetch(school.host, '/verify', { cookie, form: { intent: 'send' } })
    expect(page.status).toBe(502)
    expect(await page.text()).toContain('Failed to send verification code.')
    // Not locked by a failed send: the next try goes out.
    expect((await call(school, '/json/verification/send', cookie)).status).toBe(200)
    expect(await smsTo('48500600111')).toHaveLength(1)
  })
})

describe('another school', () => {
  it('cannot use its session or its codes here', async () => {
    const a = await schoolWith('email')
    const b = await schoolWith('email')
    await call(a.school, '/json/verification/send', a.cookie)
    const code = (await mailedCode(a.school, a.student.email))!
    // B's cookie means nothing on A's host: the call is a session-expired 419, nothing verified.
    for (const path of ['/json/verification/verify', '/json/verification/send', '/json/verification/phone/save']) {
      const res = await call(a.school, path, b.cookie, { code, phone_number: '48500600222' })
      expect(res.status, path).toBe(419)
    }
    expect(location(await appFetch(a.school.host, '/verify', { cookie: b.cookie }))).toBe('/login?redirectTo=%2Fverify')
    // A's code typed into B's session (on B's host) does nothing.
    expect((await call(b.school, '/json/verification/verify', b.cookie, { code })).status).toBe(422)
    const verified = await DB_SHARD_0.prepare('SELECT count(*) AS n FROM sessions WHERE login_verified_at IS NOT NULL AND tenant_id IN (?, ?)').bind(a.school.tenantId, b.school.tenantId).first<{ n: number }>()
    expect(verified!.n).toBe(0)
    expect(await DB_SHARD_0.prepare('SELECT phone FROM users WHERE tenant_id = ? AND role = ?').bind(a.school.tenantId, 'student').first<{ phone: string | null }>()).toEqual({ phone: null })
  })
})

// updatePageSettings keeps the mode when not given (used by other forms).
describe('updatePageSettings', () => {
  it('writes loginVerification only when given', async () => {
    const school = await createTestSchool()
    await updatePageSettings(dbs(), school.tenantId, { loginVerification: 'email' })
    await updatePageSettings(dbs(), school.tenantId, { authorName: 'X' })
    expect((await DB.prepare('SELECT login_verification AS m FROM tenants WHERE id = ?').bind(school.tenantId).first<{ m: string }>())!.m).toBe('email')
  })
})
