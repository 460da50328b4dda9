// Issue 27 §5: the audit log. Every operator action (suspend, reactivate, fee change, withdrawal
// paid) and every sensitive owner action (payout account, payment integration connect/delete,
// domain add/remove, webhook create) made through the product writes one row with who, when,
// from which IP and before/after — never a secret. Operators read every school's rows; a school's
// staff read their school's only; students get 404. The table refuses UPDATE and DELETE.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { updatePageSettings } from '#app/models/page-settings.server.ts'
import { appFetch, createTestSchool, createTestStudent, dbs, login, type TestSchool, createTestOperator } from '#tests/factories.ts'

const PLATFORM = 'localhost:8787'
const bindings = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }

type Row = { tenant_id: string; actor_kind: string; actor_id: string | null; actor_label: string; action: string; target: string; ip: string; before: string | null; after: string | null }
const rowsOf = async (tenantId: string) =>
  (await bindings.DB.prepare('SELECT tenant_id, actor_kind, actor_id, actor_label, action, target, ip, before, after FROM audit_log WHERE tenant_id = ? ORDER BY created_at, rowid').bind(tenantId).all<Row>()).results
const json = (value: string | null) => (value ? (JSON.parse(value) as Record<string, unknown>) : null)
const from = (ip: string) => ({ 'CF-Connecting-IP': ip })

/** One operator per file, signed in once (a TOTP code works once per step). */
let operatorSignedIn: Promise<string> | null = null
function operatorCookie() {
  operatorSignedIn ??= createTestOperator({ id: 'op-audit', email: 'audit-op@coursefront.test', name: 'Audit Op' }).then((o) => o.cookie)
  return operatorSignedIn
}

async function pendingWithdrawal(school: TestSchool) {
  const id = `wd-${school.tenantId}`
  const now = Date.now()
  await bindings.DB_SHARD_0.prepare("INSERT INTO withdrawals (id, tenant_id, amount, currency, bank_account, status, created_at, updated_at) VALUES (?, ?, 12345, 'PLN', '{}', 'pending', ?, ?)")
    .bind(id, school.tenantId, now, now)
    .run()
  return id
}

describe('the audit log', () => {
  it('records each operator action once, with the operator, the IP and the values before and after', async () => {
    const school = await createTestSchool()
    const operator = await operatorCookie()
    const post = (path: string, form: Record<string, string>) => appFetch(PLATFORM, path, { cookie: operator, form, headers: from('198.51.100.7') })

    expect((await post(`/operator/schools/${school.tenantId}`, { intent: 'suspend' })).status).toBe(302)
    expect((await post(`/operator/schools/${school.tenantId}`, { intent: 'suspend' })).status).toBe(302) // already suspended: nothing new
    expect((await post(`/operator/schools/${school.tenantId}`, { intent: 'reactivate' })).status).toBe(302)
    expect((await post(`/operator/schools/${school.tenantId}`, { intent: 'fees', feePercent: '2.5', feeFixed: '0.50' })).status).toBe(302)
    const withdrawal = await pendingWithdrawal(school)
    expect((await post('/operator/withdrawals', { intent: 'mark_paid', withdrawalId: withdrawal })).status).toBe(302)
    expect((await post('/operator/withdrawals', { intent: 'mark_paid', withdrawalId: withdrawal })).status).toBe(302) // already paid: nothing new

    const rows = await rowsOf(school.tenantId)
    expect(rows.map((r) => r.action)).toEqual(['school.suspend', 'school.reactivate', 'school.fees', 'withdrawal.paid'])
    for (const row of rows) expect(row).toMatchObject({ actor_kind: 'operator', actor_id: 'op-audit', actor_label: 'Audit Op <audit-op@coursefront.test>', ip: '198.51.100.7' })
    expect([json(rows[0]!.before), json(rows[0]!.after)]).toEqual([{ status: 'active' }, { status: 'suspended' }])
    expect([json(rows[2]!.before), json(rows[2]!.after)]).toEqual([{ feeBasisPoints: null, feeFixed: null }, { feeBasisPoints: 250, feeFixed: 50 }])
    expect(rows[3]).toMatchObject({ target: withdrawal })
    expect(json(rows[3]!.after)).toEqual({ status: 'paid', amount: 12345, currency: 'PLN' })
  })

  it('records the owner’s sensitive changes without a secret, and shows the school its rows only', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    await updatePageSettings(dbs(), school.tenantId, { authorName: 'Ann Author', contactEmail: 'ann@example.com' })
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    const post = (path: string, form: Record<string, string>) => appFetch(school.host, path, { cookie, form, headers: from('203.0.113.77') })

    expect((await post('/home/balance', { intent: 'bank', bankAccountType: 'iban', bankAccount: 'PL61109010140000071219812874', bankAccountHolder: 'Ann Author' })).status).toBe(302)
    expect((await post('/home/settings/payments', { provider: 'test', currency: 'EUR' })).status).toBe(303)
    const integration = (await bindings.DB_SHARD_0.prepare('SELECT id FROM payment_integrations WHERE tenant_id = ?').bind(school.tenantId).first<{ id: string }>())!.id
    expect((await post(`/home/settings/payments/${integration}`, { intent: 'delete', confirm: 'DELETE' })).status).toBe(303)
    const created = await post('/home/webhooks', { event: 'student.registered', url: 'https://hooks.example.com/audit' })
    expect(created.status).toBe(200)
    const secret = /(whsec_[A-Za-z0-9_-]+)/.exec(await created.text())?.[1]
    expect(secret).toBeDefined()
    const hostname = `kurs-${school.slug}.test`
    const added = await post('/home/settings/domain', { hostname })
    expect(added.status, added.headers.get('Location') ?? '').toBe(302)
    // (An unproven claim is stored under `hostname#tenant` until its ownership is proven.)
    const domain = (await bindings.DB.prepare("SELECT id FROM domains WHERE tenant_id = ? AND kind = 'custom'").bind(school.tenantId).first<{ id: string }>())!.id
    expect((await post(`/home/settings/domain/${domain}`, { intent: 'remove', confirm: 'DELETE' })).status).toBe(302)

    const rows = await rowsOf(school.tenantId)
    expect(rows.map((r) => r.action)).toEqual(['payout_account.update', 'payment_integration.connect', 'payment_integration.delete', 'webhook.create', 'domain.add', 'domain.remove'])
    for (const row of rows) expect(row).toMatchObject({ actor_kind: 'owner', actor_id: school.owner.id, ip: '203.0.113.77' })
    expect([json(rows[0]!.before), json(rows[0]!.after)]).toEqual([null, { account: '…2874', holder: 'Ann Author', type: 'iban' }])
    expect(rows[4]).toMatchObject({ target: hostname })
    // Never a secret: not the full account number, not the webhook's signing secret.
    const everything = JSON.stringify(rows)
    expect(everything).not.toContain('PL61109010140000071219812874')
    expect(everything).not.toContain(secret!)

    // The school's page lists these, not another school's; a student of the school gets 404.
    const page = await (await appFetch(school.host, '/home/audit', { cookie })).text()
    expect(page).toContain('Payout account changed')
    expect(page).toContain(hostname)
    expect(page).not.toContain(other.slug)
    const student = await createTestStudent(school.tenantId)
    expect((await appFetch(school.host, '/home/audit', { cookie: await login(school.host, student.email, student.password) })).status).toBe(404)
    const otherOwner = await login(other.host, other.owner.email, other.owner.password)
    expect(await (await appFetch(other.host, '/home/audit', { cookie: otherOwner })).text()).not.toContain(hostname)
  })

  it('lists every school for operators, filters by action, in Polish too, and never answers on a school host', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const operator = await operatorCookie()
    await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie: operator, form: { intent: 'suspend' } })
    const all = await (await appFetch(PLATFORM, '/operator/audit', { cookie: operator })).text()
    expect(all).toContain(`/operator/schools/${school.tenantId}`)
    expect(all).toContain('School suspended')
    const fees = await (await appFetch(PLATFORM, '/operator/audit?action=school.fees', { cookie: operator })).text()
    expect(fees).not.toContain(`/operator/schools/${school.tenantId}"`)
    const pl = await (await appFetch(PLATFORM, '/operator/audit', { cookie: operator, headers: { 'Accept-Language': 'pl' } })).text()
    expect(pl).toContain('Dziennik zmian')
    // A crafted filter or cursor is ignored, never a 5xx.
    expect((await appFetch(PLATFORM, '/operator/audit?action=nope&before=%27%3B', { cookie: operator })).status).toBe(200)
    expect((await appFetch((await createTestSchool()).host, '/operator/audit')).status).toBe(404)
    expect((await appFetch(PLATFORM, '/operator/audit')).status).toBe(302)
  })

  it('is append-only: the database refuses to change or remove an entry', async () => {
    const school = await createTestSchool()
    const operator = await operatorCookie()
    await appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie: operator, form: { intent: 'suspend' } })
    await expect(bindings.DB.prepare("UPDATE audit_log SET actor_label = 'someone else' WHERE tenant_id = ?").bind(school.tenantId).run()).rejects.toThrow(/append-only/)
    await expect(bindings.DB.prepare('DELETE FROM audit_log WHERE tenant_id = ?').bind(school.tenantId).run()).rejects.toThrow(/append-only/)
    expect(await rowsOf(school.tenantId)).toHaveLength(1)
  })
})
