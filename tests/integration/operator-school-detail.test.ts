// Issue 27 §2 and §7: the operator's school page — owner and staff with their last sign-in, counts,
// domains with their problem, integrations and their health (never a secret), recent transactions,
// fee history and operators' notes; each intent gated by the operator's role (403 + an audited
// refusal on the school, nothing changed); e-mailing the owner a sign-in link on the school's own
// host, throttled per school.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { getTranslator } from '#app/i18n/i18n.ts'
import { sealSecret } from '#app/utils/secret-box.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { formatMoney } from '#app/utils/money.ts'
import { createUser } from '#app/models/user.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { appFetch, createTestOperator, createTestSchool, createTestStudent, dbOf, flashOf, followFlash, login, PLATFORM, type TestSchool } from '#tests/factories.ts'

const bindings = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database; INTEGRATIONS_KEY: string }
const shard = bindings.DB_SHARD_0
const en = getTranslator('en')
const pl = getTranslator('pl')
const DAY = 86_400_000

/** Markup is escaped in the page: compare against escaped text. */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;')
const page = (school: TestSchool, cookie: string, headers?: HeadersInit) => appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie, headers })
const post = (school: TestSchool, cookie: string, form: Record<string, string>) => appFetch(PLATFORM, `/operator/schools/${school.tenantId}`, { cookie, form })
/** The markup of the table row carrying `attr` (a data-* attribute with its value). */
const rowOf = (html: string, attr: string) => {
  const start = html.indexOf(attr)
  expect(start, `no ${attr}`).toBeGreaterThan(-1)
  return html.slice(start, html.indexOf('</tr>', start))
}
type AuditRow = { action: string; target: string; actor_id: string | null; after: string | null }
const auditRows = async (tenantId: string, action: string) =>
  (await bindings.DB.prepare('SELECT action, target, actor_id, after FROM audit_log WHERE tenant_id = ? AND action = ? ORDER BY created_at, rowid').bind(tenantId, action).all<AuditRow>()).results
const tenantRow = (tenantId: string) =>
  bindings.DB.prepare('SELECT status, fee_basis_points AS bps, fee_fixed AS fixed FROM tenants WHERE id = ?').bind(tenantId).first<{ status: string; bps: number | null; fixed: number | null }>()
const ownerMails = async (school: TestSchool) =>
  (
    await shard
      .prepare("SELECT to_address AS toAddress, text_body AS text, html_body AS html FROM email_outbox WHERE tenant_id = ? AND template = 'platform_login_links' ORDER BY created_at, rowid")
      .bind(school.tenantId)
      .all<{ toAddress: string; text: string; html: string }>()
  ).results

async function seedSchoolData(school: TestSchool) {
  const now = Date.now()
  const t = school.tenantId
  for (const [i, kind] of ['course', 'file'].entries()) {
    await shard
      .prepare('INSERT INTO products (id, tenant_id, kind, title, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(`p${i}-${t}`, t, kind, `Product ${i}`, `product-${i}`, now, now)
      .run()
  }
  for (let i = 0; i < 3; i++) await createTestStudent(t)
  const erased = await createTestStudent(t)
  await shard.prepare('UPDATE users SET deleted_at = ? WHERE id = ?').bind(now, erased.id).run()
  const sale = (id: string, status: string, amount: number, completedAt: number | null, integrationId: string | null, reason: string | null = null) =>
    shard
      .prepare(
        "INSERT INTO transactions (id, tenant_id, hash, product_kind, product_title, currency, unit_amount, total_amount, status, provider, integration_id, status_reason, terms_accepted_at, checkout_path, completed_at, created_at, updated_at) VALUES (?, ?, ?, 'course', 'Product 0', 'USD', ?, ?, ?, 'payu', ?, ?, ?, '/product-0', ?, ?, ?)",
      )
      .bind(id, t, `hash-${id}`, amount, amount, status, integrationId, reason, now, completedAt, completedAt ?? now, completedAt ?? now)
      .run()
  const payu = `pay-${t}`
  await sale(`tx1-${t}`, 'completed', 1000, now - 2 * DAY, payu)
  await sale(`tx2-${t}`, 'completed', 2500, now - 3 * DAY, payu)
  await sale(`tx3-${t}`, 'completed', 9900, now - 40 * DAY, payu) // older than 30 days
  await sale(`tx4-${t}`, 'failed', 700, null, payu, 'card_declined')
  for (const [id, size, status] of [
    ['m1', 1000, 'ready'],
    ['m2', 2048, 'ready'],
    ['m3', 999_999, 'pending'],
  ] as const) {
    await shard
      .prepare(
        "INSERT INTO media_objects (id, tenant_id, key, context, kind, original_filename, content_type, size, status, created_at) VALUES (?, ?, ?, 'files', 'pdf', 'a.pdf', 'application/pdf', ?, ?, ?)",
      )
      .bind(`${id}-${t}`, t, `tenants/${t}/files/${id}.pdf`, size, status, now)
      .run()
  }
  return { payu, newestSale: now - 2 * DAY }
}

describe('the operator’s school page', () => {
  it('shows the owner and staff with their last sign-in, counts from the school’s data, domains with their problem, and integrations without their secrets', async () => {
    const school = await createTestSchool()
    const admin = { email: `admin@${school.slug}.test`, password: 'admin-pass-1' }
    await createUser(dbOf(school), school.tenantId, { email: admin.email, name: 'Ada Admin', passwordHash: await hashPassword(admin.password), role: 'admin' })
    await login(school.host, admin.email, admin.password)
    const signedIn = (await shard
      .prepare('SELECT max(s.created_at) AS at FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.tenant_id = ? AND u.email = ?')
      .bind(school.tenantId, admin.email)
      .first<{ at: number }>())!.at
    expect(signedIn).toBeGreaterThan(0)
    const { payu, newestSale } = await seedSchoolData(school)

    const hostname = `kurs-${school.slug}.test`
    const now = Date.now()
    await bindings.DB.prepare(
      "INSERT INTO domains (id, tenant_id, hostname, kind, verification_status, problem, last_error, check_count, created_at, updated_at) VALUES (?, ?, ?, 'custom', 'failed', 'domains.problem.timeout', 'DNS answered SERVFAIL', 3, ?, ?)",
    )
      .bind(`dom-${school.tenantId}`, school.tenantId, hostname, now, now)
      .run()

    const plaintext = 'sk_live_operator_page_PLAINTEXT_42'
    const sealedPayment = await sealSecret(bindings.INTEGRATIONS_KEY, school.tenantId, 'payment:payu', JSON.stringify({ clientSecret: plaintext }))
    await shard
      .prepare("INSERT INTO payment_integrations (id, tenant_id, provider, currency, credentials, public_ref, enabled, created_at, updated_at) VALUES (?, ?, 'payu', 'USD', ?, '', 1, ?, ?)")
      .bind(payu, school.tenantId, sealedPayment, now, now)
      .run()
    const invoiceToken = 'fakturownia-api-token-PLAINTEXT-77'
    const sealedInvoice = await sealSecret(bindings.INTEGRATIONS_KEY, school.tenantId, 'integration:fakturownia', JSON.stringify({ apiToken: invoiceToken }))
    const invoicing = `inv-${school.tenantId}`
    await shard
      .prepare(
        "INSERT INTO business_integrations (id, tenant_id, kind, provider, credentials, public_ref, settings, enabled, created_at, updated_at) VALUES (?, ?, 'invoice', 'fakturownia', ?, 'acme', '{}', 1, ?, ?)",
      )
      .bind(invoicing, school.tenantId, sealedInvoice, now, now)
      .run()
    await shard
      .prepare(
        "INSERT INTO invoices (id, tenant_id, transaction_id, integration_id, provider, status, error, attempts, created_at, updated_at) VALUES (?, ?, ?, ?, 'fakturownia', 'failed', 'HTTP 422: buyer tax id rejected', 3, ?, ?)",
      )
      .bind(`invoice-${school.tenantId}`, school.tenantId, `tx1-${school.tenantId}`, invoicing, now, now)
      .run()
    const hookPath = '/services/T000/B000/PATHSECRET99'
    await shard
      .prepare(
        "INSERT INTO webhooks (id, tenant_id, event, url, secret, secret_hint, enabled, created_at, updated_at) VALUES (?, ?, 'student.registered', ?, 'sealed-webhook-secret-value', 'ab12', 1, ?, ?)",
      )
      .bind(`hook-${school.tenantId}`, school.tenantId, `https://hooks.example.com${hookPath}`, now, now)
      .run()

    const operator = await createTestOperator({ role: 'support' })
    const res = await page(school, operator.cookie)
    expect(res.status).toBe(200)
    const html = await res.text()

    const owner = rowOf(html, 'data-staff="owner"')
    expect(owner).toContain(school.owner.email)
    expect(owner).toContain(en('operator.school.staff.never'))
    const staff = rowOf(html, 'data-staff="admin"')
    expect(staff).toContain('Ada Admin')
    expect(staff).toContain(admin.email)
    expect(staff).toContain(formatDateTime(signedIn))

    expect(html).toMatch(/data-count="products"[^>]*>2</)
    expect(html).toMatch(/data-count="students"[^>]*>3</)
    expect(html).toContain(`data-count="sales">2 sales · ${formatMoney(3500, 'USD', 'en')}<`)
    expect(html).toContain('data-bytes="3048"')

    const domain = rowOf(html, `data-domain="${hostname}"`)
    expect(domain).toContain(en('domains.status.failed'))
    expect(domain).toContain(escaped(en('domains.problem.timeout')))
    expect(domain).toContain('DNS answered SERVFAIL')

    const payment = rowOf(html, 'data-integration="payment"')
    expect(payment).toContain('payu')
    expect(payment).toContain(formatDateTime(newestSale))
    expect(payment).toContain('card_declined')
    const invoice = rowOf(html, 'data-integration="invoice"')
    expect(invoice).toContain('fakturownia')
    expect(invoice).toContain('HTTP 422: buyer tax id rejected')
    expect(rowOf(html, 'data-integration="webhook"')).toContain('hooks.example.com')
    for (const secret of [plaintext, sealedPayment, invoiceToken, sealedInvoice, 'sealed-webhook-secret-value', 'PATHSECRET99']) expect(html).not.toContain(secret)

    expect(html).toContain(`data-transaction="tx1-${school.tenantId}"`)
    expect(html).toContain(`data-transaction="tx4-${school.tenantId}"`)
  })

  it('adds an operator’s note, newest first with its author, and audits it; an empty or too long note is refused', async () => {
    const school = await createTestSchool()
    const operator = await createTestOperator({ role: 'finance', name: 'Nora Notes' })
    expect((await post(school, operator.cookie, { intent: 'note', body: '   ' })).status).toBe(400)
    expect((await post(school, operator.cookie, { intent: 'note', body: 'x'.repeat(2001) })).status).toBe(400)
    const first = await post(school, operator.cookie, { intent: 'note', body: 'Owner called about invoices.' })
    expect(first.status).toBe(302)
    expect(flashOf(first)).toMatchObject({ done: 'note', message: 'operator.school.notes.saved' })
    expect(await (await page(school, followFlash(operator.cookie, first))).text()).toContain(en('operator.school.notes.saved'))
    expect((await post(school, operator.cookie, { intent: 'note', body: 'Second: <b>promised a refund</b>' })).status).toBe(302)

    const html = await (await page(school, operator.cookie)).text()
    const firstAt = html.indexOf('Owner called about invoices.')
    const secondAt = html.indexOf(escaped('Second: <b>promised a refund</b>'))
    expect(secondAt).toBeGreaterThan(-1)
    expect(firstAt).toBeGreaterThan(secondAt)
    expect(html).toContain(escaped(`Nora Notes <${operator.email}>`))
    const rows = await auditRows(school.tenantId, 'school.note')
    expect(rows).toHaveLength(2)
    for (const row of rows) expect(row).toMatchObject({ actor_id: operator.id, target: school.slug })
  })

  it('refuses a support operator suspending or changing fees (403, audited on the school) and changes nothing; finance may change fees but not suspend', async () => {
    const school = await createTestSchool()
    const support = await createTestOperator({ role: 'support' })
    const finance = await createTestOperator({ role: 'finance' })
    const before = await tenantRow(school.tenantId)

    const html = await (await page(school, support.cookie)).text()
    expect(html).not.toContain('name="feePercent"')
    expect(html).not.toContain('value="suspend"')
    expect(html).toContain('value="sign_in_link"')

    expect((await post(school, support.cookie, { intent: 'suspend' })).status).toBe(403)
    expect((await post(school, support.cookie, { intent: 'fees', feePercent: '1', feeFixed: '0.10' })).status).toBe(403)
    expect(await tenantRow(school.tenantId)).toEqual(before)
    const refused = await auditRows(school.tenantId, 'operator.forbidden')
    expect(refused.map((r) => [r.actor_id, r.target])).toEqual([
      [support.id, 'schools.suspend'],
      [support.id, 'schools.fees'],
    ])
    expect(await auditRows(school.tenantId, 'school.fees')).toEqual([])

    expect((await post(school, finance.cookie, { intent: 'suspend' })).status).toBe(403)
    expect((await tenantRow(school.tenantId))!.status).toBe('active')
    expect((await post(school, finance.cookie, { intent: 'fees', feePercent: '2.5', feeFixed: '0.50' })).status).toBe(302)
    expect(await tenantRow(school.tenantId)).toMatchObject({ bps: 250, fixed: 50 })
    expect((await post(school, finance.cookie, { intent: 'sign_in_link' })).status).toBe(403)
    expect(await ownerMails(school)).toEqual([])

    const financePage = await (await page(school, finance.cookie)).text()
    expect(financePage).toContain('name="feePercent"')
    expect(financePage).not.toContain('value="suspend"')
    expect(financePage).not.toContain('value="sign_in_link"')
    const change = rowOf(financePage, 'data-fee-change')
    expect(change).toContain(en('operator.school.fee_history.default'))
    expect(change).toContain('2.5 % + 0.50')
  })

  it('e-mails the owner a one-time sign-in link on the school’s own host, never shown to the operator, three times an hour at most', async () => {
    const school = await createTestSchool()
    const operator = await createTestOperator({ role: 'support' })
    const sent = await post(school, operator.cookie, { intent: 'sign_in_link' })
    expect(sent.status).toBe(302)
    expect(flashOf(sent)).toMatchObject({ done: 'sign_in_link', message: 'operator.school.sign_in_link.sent' })
    expect(await (await page(school, followFlash(operator.cookie, sent))).text()).toContain(escaped(en('operator.school.sign_in_link.sent')))

    const mails = await ownerMails(school)
    expect(mails.map((m) => m.toAddress)).toEqual([school.owner.email])
    const link = new URL(/https?:\/\/\S+\/login-link\/[a-z2-7]+/.exec(mails[0]!.text)![0])
    expect(link.hostname).toBe(school.host)
    const html = await (await page(school, operator.cookie)).text()
    expect(html).not.toContain(link.pathname)
    // The link opens the owner's sign-in on the school.
    const opened = await appFetch(school.host, link.pathname)
    expect(opened.status).toBe(200)
    expect(await opened.text()).toContain(school.owner.email)

    expect((await post(school, operator.cookie, { intent: 'sign_in_link' })).status).toBe(302)
    expect((await post(school, operator.cookie, { intent: 'sign_in_link' })).status).toBe(302)
    const throttled = await post(school, operator.cookie, { intent: 'sign_in_link' })
    expect(throttled.status).toBe(429)
    expect(await throttled.text()).toContain(escaped(en('operator.school.sign_in_link.throttled', { count: 60 })))
    expect(await ownerMails(school)).toHaveLength(3)
    const rows = await auditRows(school.tenantId, 'support.sign_in_link')
    expect(rows).toHaveLength(3)
    for (const row of rows) expect(row).toMatchObject({ actor_id: operator.id, target: school.slug })

    // Another school's quota is its own; a school moving between shards takes no link meanwhile.
    const other = await createTestSchool()
    await bindings.DB.prepare('UPDATE tenants SET moving_since = ? WHERE id = ?').bind(Date.now(), other.tenantId).run()
    const moving = await post(other, operator.cookie, { intent: 'sign_in_link' })
    expect(moving.status).toBe(409)
    expect(await moving.text()).toContain(en('operator.school.sign_in_link.moving'))
    await bindings.DB.prepare('UPDATE tenants SET moving_since = NULL WHERE id = ?').bind(other.tenantId).run()
    expect((await post(other, operator.cookie, { intent: 'sign_in_link' })).status).toBe(302)
    expect(await ownerMails(other)).toHaveLength(1)
  })

  it('speaks Polish, and answers 404 for a school that does not exist', async () => {
    const school = await createTestSchool()
    const operator = await createTestOperator({ role: 'admin' })
    const html = await (await page(school, operator.cookie, { 'Accept-Language': 'pl' })).text()
    for (const key of ['operator.school.staff.title', 'operator.school.counts.title', 'operator.school.integrations.title', 'operator.school.notes.title', 'operator.school.sign_in_link.send']) {
      expect(html).toContain(escaped(pl(key)))
    }
    expect(html).toContain(pl('operator.school.counts.sales_count', { count: 0 }))
    expect((await appFetch(PLATFORM, '/operator/schools/no-such-school', { cookie: operator.cookie })).status).toBe(404)
    expect((await post({ ...school, tenantId: 'no-such-school' }, operator.cookie, { intent: 'note', body: 'hello' })).status).toBe(404)
    for (const intent of ['nonsense', 'constructor', '__proto__']) expect((await post(school, operator.cookie, { intent })).status).toBe(400)
  })
})
