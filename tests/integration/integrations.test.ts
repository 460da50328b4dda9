// /home/integrations (connect with a tested connection, duplicate refused, secrets never shown,
// test, delete with DELETE) and the invoice Retry on /home/transactions/{id}, against the
// invoicing peers through the app's DEV_PEERS binding. Cross-school probes: cross-tenant/integrations.ts.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadInvoicePanel } from '#app/invoicing/invoice-panel.server.ts'
import { issueInvoiceForTransaction } from '#app/invoicing/issue.server.ts'
import { getActiveIntegrationOfKind } from '#app/models/business-integration.server.ts'
import { getInvoiceForTransaction, listIssuedInvoicesForUser } from '#app/models/invoice.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool, d1For } from '#tests/factories.ts'
import { connectInvoicing, failNextCreates, paidSale, peerInvoices, PEER_CREDENTIALS } from '#workers/invoicing/src/test-support.ts'
import { routes as crossTenantRoutes, victims } from './cross-tenant/integrations.ts'

const issueEnv = env as unknown as import('#app/invoicing/issue.server.ts').IssueEnv
const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n

let school: TestSchool
let cookie: string

beforeAll(async () => {
  school = await createTestSchool()
  cookie = await login(school.host, school.owner.email, school.owner.password)
})

describe('/home/integrations', () => {
  it('tests the credentials before saving, seals them, refuses a second system, and deletes after DELETE', async () => {
    const refused = await appFetch(school.host, '/home/integrations', { cookie, form: { provider: 'fakturownia', account: 'coursefront-dev', apiToken: 'wrong-token-123' } })
    expect(refused.status).toBe(422)
    const refusedPage = await refused.text()
    expect(refusedPage).toContain('Fakturownia refused these credentials.')
    expect(refusedPage).not.toContain('wrong-token-123')
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(0)

    const bad = await appFetch(school.host, '/home/integrations', { cookie, form: { provider: 'ifirma', login: 'x', invoiceKey: 'not hex' } })
    expect(bad.status).toBe(422)
    expect(await bad.text()).toContain('The invoice key is hexadecimal')

    const created = await appFetch(school.host, '/home/integrations', { cookie, form: { provider: 'fakturownia', account: 'Coursefront-Dev', apiToken: PEER_CREDENTIALS.fakturownia.apiToken } })
    expect(created.status).toBe(303)
    expect(created.headers.get('Location')).toBe('/home/integrations')
    expect(flashOf(created)).toMatchObject({ done: 'created', message: 'integrations.done.created' })
    const page = await (await appFetch(school.host, '/home/integrations', { cookie: followFlash(cookie, created) })).text()
    expect(page).toContain('Integration created')
    expect(page).toContain('coursefront-dev · …0000')
    expect(page).not.toContain(PEER_CREDENTIALS.fakturownia.apiToken)
    const row = await env.DB_SHARD_0.prepare('SELECT credentials, public_ref FROM business_integrations WHERE tenant_id = ?').bind(school.tenantId).first<{ credentials: string; public_ref: string }>()
    expect(row!.credentials).not.toContain(PEER_CREDENTIALS.fakturownia.apiToken)

    const duplicate = await appFetch(school.host, '/home/integrations', { cookie, form: { provider: 'infakt', apiKey: PEER_CREDENTIALS.infakt.apiKey } })
    expect(duplicate.status).toBe(409)
    expect(await duplicate.text()).toContain('A duplicate integration is rejected: inFakt is already connected as your invoicing system.')
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(1)

    const integration = (await getActiveIntegrationOfKind(db(), school.tenantId, 'invoice'))!
    const tested = await appFetch(school.host, `/home/integrations/${integration.id}`, { cookie, form: { intent: 'test' } })
    expect(tested.status).toBe(200)
    expect(await tested.text()).toContain('Connection works: Fakturownia accepted the credentials.')

    const unconfirmed = await appFetch(school.host, `/home/integrations/${integration.id}`, { cookie, form: { intent: 'delete', confirm: 'delete' } })
    expect(unconfirmed.status).toBe(422)
    expect(await unconfirmed.text()).toContain('Type DELETE to delete the integration.')
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(1)

    const deleted = await appFetch(school.host, `/home/integrations/${integration.id}`, { cookie, form: { intent: 'delete', confirm: 'DELETE' } })
    expect(deleted.headers.get('Location')).toBe('/home/integrations')
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted', message: 'integrations.done.deleted' })
    expect(await (await appFetch(school.host, '/home/integrations', { cookie: followFlash(cookie, deleted) })).text()).toContain('Integration deleted')
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(0)
  })

  it('is for owners and admins only (runs after the delete above), and answers in Polish on a Polish school', async () => {
    const student = await createTestStudent(school.tenantId)
    const studentCookie = await login(school.host, student.email, student.password)
    // The instructor area does not exist for students (404), and their POST writes nothing.
    expect((await appFetch(school.host, '/home/integrations', { cookie: studentCookie })).status).toBe(404)
    expect((await appFetch(school.host, '/home/integrations', { cookie: studentCookie, form: { provider: 'infakt', apiKey: PEER_CREDENTIALS.infakt.apiKey } })).status).toBe(404)
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(0)
    const pl = await createTestSchool({ language: 'pl' })
    const plCookie = await login(pl.host, pl.owner.email, pl.owner.password)
    const refused = await appFetch(pl.host, '/home/integrations', { cookie: plCookie, form: { provider: 'infakt', apiKey: 'zly-klucz' } })
    expect(refused.status).toBe(422)
    expect(await refused.text()).toContain('inFakt odrzucił te dane logowania.')
  })
})

describe('invoice Retry on /home/transactions/{id}', () => {
  it('a failed invoice goes back to pending, is queued, and the worker then issues exactly one', async () => {
    const sale = await paidSale({ school })
    const ownerCookie = await login(school.host, school.owner.email, school.owner.password)
    await connectInvoicing(school.tenantId, 'fakturownia')
    await failNextCreates('fakturownia', 1, 422)
    // First attempt: Fakturownia answers 422 (not retryable) → failed with its reason.
    expect(await issueInvoiceForTransaction(db(), issueEnv, school.tenantId, sale.tx.id, { lastDelivery: false })).toMatchObject({ kind: 'failed' })
    expect((await getTransaction(db(), school.tenantId, sale.tx.id))?.invoiceStatus).toBe('failed')
    const failedPanel = await loadInvoicePanel(db(), school.tenantId, (await getTransaction(db(), school.tenantId, sale.tx.id))!)
    expect(failedPanel).toMatchObject({ status: 'failed', provider: 'fakturownia', number: null, url: null, attempts: 1, canRetry: true })
    expect(failedPanel.error).toBe('Fakturownia: Internal Server Error (HTTP 422)')

    const retry = await appFetch(school.host, `/home/transactions/${sale.tx.id}/invoice`, { cookie: ownerCookie, method: 'POST' })
    expect(retry.status).toBe(303)
    expect(retry.headers.get('Location')).toBe(`/home/transactions/${sale.tx.id}?invoice=retried`)
    expect((await getTransaction(db(), school.tenantId, sale.tx.id))?.invoiceStatus).toBe('pending')
    expect(await getInvoiceForTransaction(db(), school.tenantId, sale.tx.id)).toMatchObject({ status: 'pending', attempts: 1 })

    // What the worker does with the queued message.
    const outcome = await issueInvoiceForTransaction(db(), issueEnv, school.tenantId, sale.tx.id, { lastDelivery: false })
    expect(outcome).toMatchObject({ kind: 'issued', found: false })
    expect(await peerInvoices('fakturownia', sale.tx.hash)).toHaveLength(1)
    expect(await getInvoiceForTransaction(db(), school.tenantId, sale.tx.id)).toMatchObject({ status: 'issued', attempts: 2, error: null })
    expect(await loadInvoicePanel(db(), school.tenantId, (await getTransaction(db(), school.tenantId, sale.tx.id))!)).toEqual({
      transactionId: sale.tx.id,
      status: 'issued',
      provider: 'fakturownia',
      number: (await peerInvoices('fakturownia', sale.tx.hash))[0]!.number,
      url: `/panel/invoices/${sale.tx.id}`,
      error: null,
      attempts: 2,
      canRetry: false,
    })

    // An issued invoice is not retried.
    const again = await appFetch(school.host, `/home/transactions/${sale.tx.id}/invoice`, { cookie: ownerCookie, method: 'POST' })
    expect(again.headers.get('Location')).toBe(`/home/transactions/${sale.tx.id}?invoice=nothing_to_retry`)
    expect(await peerInvoices('fakturownia', sale.tx.hash)).toHaveLength(1)
  })
})

describe('the buyer’s invoice in /panel', () => {
  it('lists issued invoices with a link and serves the PDF to the buyer only', async () => {
    const own = await createTestSchool()
    await connectInvoicing(own.tenantId, 'infakt')
    const sale = await paidSale({ school: own })
    const notYet = await paidSale({ school: own })
    expect(await issueInvoiceForTransaction(db(), issueEnv, own.tenantId, sale.tx.id, { lastDelivery: false })).toMatchObject({ kind: 'issued' })
    const [issued] = await peerInvoices('infakt', sale.tx.hash)

    const links = await listIssuedInvoicesForUser(db(), own.tenantId, sale.student.id)
    expect(links).toEqual([expect.objectContaining({ transactionId: sale.tx.id, number: issued!.number, href: `/panel/invoices/${sale.tx.id}` })])
    expect(await listIssuedInvoicesForUser(db(), own.tenantId, notYet.student.id)).toEqual([])

    const buyer = await login(own.host, sale.student.email, sale.student.password)
    const panel = await (await appFetch(own.host, '/panel', { cookie: buyer })).text()
    expect(panel).toContain(`href="/panel/invoices/${sale.tx.id}"`)
    expect(panel).toContain(`Invoice ${issued!.number}`)
    const pdf = await appFetch(own.host, `/panel/invoices/${sale.tx.id}`, { cookie: buyer })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf')
    expect(pdf.headers.get('Cache-Control')).toBe('private, no-store')
    expect((await pdf.text()).startsWith('%PDF-1.4')).toBe(true)
    const stranger = await login(own.host, notYet.student.email, notYet.student.password)
    expect((await appFetch(own.host, `/panel/invoices/${sale.tx.id}`, { cookie: stranger })).status).toBe(404)
    expect((await appFetch(own.host, `/panel/invoices/${notYet.tx.id}`, { cookie: stranger })).status).toBe(404)
    const owner = await login(own.host, own.owner.email, own.owner.password)
    expect((await appFetch(own.host, `/panel/invoices/${sale.tx.id}`, { cookie: owner })).status).toBe(200)
  })
})

describe('cross-tenant registry of this area (tests/integration/cross-tenant/integrations.ts)', () => {
  it('every probe is 404 from another school (owner, visitor); controls hold at home', async () => {
    const victim = await createTestSchool()
    const student = await createTestStudent(victim.tenantId)
    const objects = await victims({ tenantId: victim.tenantId, ownerId: victim.owner.id, studentId: student.id })
    const other = await createTestSchool()
    const otherOwner = await login(other.host, other.owner.email, other.owner.password)
    for (const [route, probes] of Object.entries(crossTenantRoutes)) {
      for (const probe of probes) {
        for (const c of [otherOwner, undefined]) {
          const res = await appFetch(other.host, probe.path(objects as never), { method: probe.method, form: probe.form, cookie: c })
          expect(res.status, `${probe.method} ${route}`).toBe(404)
        }
        if (probe.control) expect((await appFetch(victim.host, probe.path(objects as never), { method: probe.method, form: probe.form })).status, `control ${route}`).toBe(probe.control.status)
      }
    }
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', victim.tenantId)).toBe(1)
  })
})
