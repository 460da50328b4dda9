// Issue 23's new forms given empty, malformed, over-long or hostile input (non-negotiable 2): a
// 4xx with field errors, never a 5xx, and no row of the school or its users changed.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { appFetch, createTestSchool, createTestStudent, login, type TestSchool } from '#tests/factories.ts'

const LONG = 'a'.repeat(20_000)
const SCRIPT = '<script>alert(1)</script>\u0000'

/** What a hostile post could change: the school's row, its users, tokens and outgoing mail. */
const state = async (tenantId: string) => {
  // The school's row is in the control plane, the rest in its shard (ADR 033).
  const [school] = await env.DB.batch([env.DB.prepare('SELECT * FROM tenants WHERE id = ?').bind(tenantId)])
  const rows = await env.DB_SHARD_0.batch([
    env.DB_SHARD_0.prepare('SELECT * FROM school_settings WHERE tenant_id = ?').bind(tenantId),
    env.DB_SHARD_0.prepare('SELECT id, email, name, password_hash, deleted_at FROM users WHERE tenant_id = ? ORDER BY id').bind(tenantId),
    env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM auth_tokens WHERE tenant_id = ?').bind(tenantId),
    env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM email_outbox WHERE tenant_id = ?').bind(tenantId),
  ])
  // updated_at moves only with a write; content_version is bumped by any successful POST under /home.
  return [school!, ...rows].map((r) => r.results)
}

let school: TestSchool
let owner: string
let student: string
beforeAll(async () => {
  school = await createTestSchool({ language: 'en' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

type Form = Record<string, string>
type Probe = { path: string; cookie: () => string; form: Form }
const probes = (): Probe[] => [
  ...(
    [
      {},
      { intent: 'tax', vatMode: 'vat', defaultVatRate: '-3' },
      { intent: 'tax', vatMode: 'sometimes', defaultVatRate: '23' },
      { intent: 'tax', vatMode: 'vat', defaultVatRate: '2e2' },
      { intent: 'tax', vatMode: SCRIPT, defaultVatRate: LONG },
    ] as Form[]
  ).map((form) => ({
    path: '/home/settings/payments',
    cookie: () => owner,
    form,
  })),
  ...([{ intent: 'save', termsMd: LONG.repeat(10), privacyMd: '' }, { intent: 'nope' }] as Form[]).map((form) => ({ path: '/home/settings/legal', cookie: () => owner, form })),
  ...(
    [
      { intent: 'bank', bankAccountType: 'us', bankRoutingNumber: '123456789', bankAccount: '12', bankAccountHolder: '' },
      { intent: 'bank', bankAccountType: 'swift', bankSwift: SCRIPT, bankAccount: LONG, bankAccountHolder: LONG },
      { intent: 'bank', bankAccountType: 'mars', bankAccount: 'PL00', bankAccountHolder: 'X' },
    ] as Form[]
  ).map((form) => ({ path: '/home/balance', cookie: () => owner, form })),
  ...(
    [
      {},
      { intent: 'name', name: '' },
      { intent: 'name', name: LONG },
      { intent: 'email', email: 'not-an-email' },
      { intent: 'password', currentPassword: 'wrong-password', newPassword: 'new-pass-123' },
      { intent: 'password', currentPassword: '', newPassword: '1' },
      { intent: 'delete', password: 'wrong-password' },
      { intent: 'delete', password: '' },
    ] as Form[]
  ).map((form) => ({ path: '/account', cookie: () => student, form })),
  { path: '/account', cookie: () => owner, form: { intent: 'delete', password: school.owner.password } },
  { path: '/home/settings/page', cookie: () => owner, form: { loginDisabled: 'yes', registrationDisabled: SCRIPT, simplifiedCheckout: LONG } },
  { path: '/account/email/not-a-token', cookie: () => '', form: {} },
  { path: '/login-link/not-a-token', cookie: () => '', form: {} },
]

describe('issue 23 forms under hostile input', () => {
  it('answer 4xx, never 5xx, and write nothing', async () => {
    for (const probe of probes()) {
      const before = await state(school.tenantId)
      const res = await appFetch(school.host, probe.path, { form: probe.form, cookie: probe.cookie() || undefined })
      expect(res.status, `${probe.path} ${JSON.stringify(probe.form).slice(0, 120)}`).toBeGreaterThanOrEqual(400)
      expect(res.status, `${probe.path} ${JSON.stringify(probe.form).slice(0, 120)}`).toBeLessThan(500)
      expect(await state(school.tenantId), `${probe.path} ${JSON.stringify(probe.form).slice(0, 120)}`).toEqual(before)
    }
  })

  it('the platform login answers the same for garbage and says nothing about schools', async () => {
    for (const form of [{}, { email: SCRIPT }, { email: `${LONG}@example.com` }] as Form[]) {
      const res = await appFetch('localhost', '/login', { form })
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    }
  })
})
