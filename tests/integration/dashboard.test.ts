// Issue 23 item 2: the dashboard /home reads its setup checklist from the school's real state and
// counts the last 30 days' completed sales (per currency, gross), sales and new students — never
// another school's — and renders them first, with an accessible chart and its numbers.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { domains, paymentIntegrations, payoutAccounts, schoolSettings, tenants, users } from '#app/db/schema.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { DAY_MS, getDashboard, windowStart } from '#app/models/dashboard.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, control, createTestSchool, createTestStudent, db, dbs, login, type TestSchool } from '#tests/factories.ts'

let n = 0
type Final = 'completed' | 'refunded' | null
/** A sale started at `createdAt` and settled (completed, then maybe refunded) at `settledAt`. */
async function sale(tenantId: string, total: number, currency: string, final: Final, createdAt: number, settledAt = createdAt) {
  const tx = await createTransaction(db(), tenantId, { collector: 'platform', productKind: 'course', productTitle: 'Course', currency, unitAmount: total, totalAmount: total, termsAcceptedAt: createdAt, checkoutPath: '/c/checkout' }, createdAt)
  const step = (status: 'completed' | 'refunded', at: number) => settleTransaction(db(), tenantId, tx.id, { event: { provider: 'test', eventKey: `dash-${Date.now()}-${++n}`, providerStatus: status, status }, status }, at)
  if (final) await step('completed', settledAt)
  if (final === 'refunded') await step('refunded', settledAt + 1000)
  return tx
}

async function homeHtml(school: TestSchool) {
  const cookie = await login(school.host, school.owner.email, school.owner.password)
  const res = await appFetch(school.host, '/home', { cookie })
  expect(res.status).toBe(200)
  return res.text()
}

/** The tenant row as resolution reads it (contact e-mail, avatar: the dashboard's page step). */
const tenantRow = async (tenantId: string) => (await control().select().from(tenants).where(eq(tenants.id, tenantId)))[0]!

const stepState = (html: string, step: string) => new RegExp(`data-setup-step="${step}" data-step-done="(true|false)"`).exec(html)?.[1]

describe('/home: the setup checklist', () => {
  it('ticks each step off from the school’s real state, counts them, and folds away when all six are done', async () => {
    const school = await createTestSchool()
    // Another school done in two steps (an active custom domain, a sale): nothing of it counts here.
    const other = await createTestSchool({ language: 'pl', customDomain: `dash-${Date.now()}.test`, customDomainStatus: 'active' })
    await sale(other.tenantId, 5_000, 'USD', 'completed', Date.now())
    const now = () => Date.now()
    const setup = async () => (await getDashboard(dbs(), await tenantRow(school.tenantId))).setup

    let html = await homeHtml(school)
    expect(html).toContain('data-setup-checklist="open"')
    expect(html).toContain('0 of 6 done')
    for (const step of ['page', 'product', 'lecture', 'payments', 'domain', 'sale']) expect(stepState(html, step)).toBe('false')
    expect(html).toContain('Still missing: Author name, Bio, Public contact email, School avatar')
    // Each step links to where it is done; its state is part of the link's text for screen readers.
    expect(html).toMatch(/<a[^>]*href="\/home\/settings\/page"[^>]*><span class="sr-only">To do: <\/span>Complete your page settings<\/a>/)
    for (const [href, title] of [['/home/products', 'Create your first product'], ['/home/courses', 'Publish your first lecture'], ['/home/settings/payments', 'Set up payments'], ['/home/settings/domain', 'Connect your own domain'], ['/', 'Make your first sale']]) {
      expect(html).toContain(`href="${href}"><span class="sr-only">To do: </span>${title}</a>`)
    }
    const otherHtml = await homeHtml(other)
    expect(otherHtml).toContain('Gotowe: 2 z 6')
    expect(stepState(otherHtml, 'domain')).toBe('true')
    expect(stepState(otherHtml, 'sale')).toBe('true')

    // Page settings: author, bio and contact e-mail are not enough without the avatar.
    await db().update(schoolSettings).set({ authorName: 'Ewa Testowa', bio: 'Baker.' }).where(eq(schoolSettings.tenantId, school.tenantId))
    await control().update(tenants).set({ contactEmail: 'ewa@example.com' }).where(eq(tenants.id, school.tenantId))
    expect(await getDashboard(dbs(), await tenantRow(school.tenantId))).toMatchObject({ setup: { page: false }, missingPage: ['avatar'] })
    await control().update(tenants).set({ avatarPath: `tenants/${school.tenantId}/avatar/a.png` }).where(eq(tenants.id, school.tenantId))
    expect(await setup()).toMatchObject({ page: true, product: false })

    // A product (a draft course is one); a lecture counts once it is published.
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Bread at home' })
    const section = await createSection(db(), school.tenantId, course.id, 'Basics')
    await createLecture(db(), school.tenantId, course.id, section!.id, { title: 'Draft', kind: 'text', body: 'x', published: false })
    expect(await setup()).toMatchObject({ product: true, lecture: false })
    await createLecture(db(), school.tenantId, course.id, section!.id, { title: 'Flour', kind: 'text', body: 'x', published: true })
    expect((await setup()).lecture).toBe(true)

    // Payments: a switched-off integration or an account still onboarding are not ready; an enabled payout account is.
    await db().insert(paymentIntegrations).values({ id: newId(), tenantId: school.tenantId, provider: 'payu', currency: 'USD', credentials: '', enabled: false, createdAt: now(), updatedAt: now() })
    const payoutId = newId()
    await db().insert(payoutAccounts).values({ id: payoutId, tenantId: school.tenantId, provider: 'stripe', accountRef: `acct_${payoutId}`, status: 'onboarding', createdAt: now(), updatedAt: now() })
    expect((await setup()).payments).toBe(false)
    await db().update(payoutAccounts).set({ status: 'enabled' }).where(eq(payoutAccounts.id, payoutId))
    expect((await setup()).payments).toBe(true)

    // A custom domain counts once it is active (the platform subdomain never does).
    const domainId = newId()
    await control().insert(domains).values({ id: domainId, tenantId: school.tenantId, hostname: `dash-${domainId}.test`, kind: 'custom', verificationStatus: 'pending_certificate', createdAt: now(), updatedAt: now() })
    expect((await setup()).domain).toBe(false)
    await control().update(domains).set({ verificationStatus: 'active' }).where(eq(domains.id, domainId))
    expect((await setup()).domain).toBe(true)

    // A pending order or a free one is not a sale; a paid, completed one is.
    await sale(school.tenantId, 4_900, 'USD', null, now())
    await sale(school.tenantId, 0, 'USD', 'completed', now())
    expect((await setup()).sale).toBe(false)
    html = await homeHtml(school)
    expect(html).toContain('5 of 6 done')
    expect(html).toMatch(/<a[^>]*href="\/home\/settings\/page"[^>]*><span class="sr-only">Done: <\/span>Complete your page settings<\/a>/)
    await sale(school.tenantId, 4_900, 'USD', 'completed', now())

    html = await homeHtml(school)
    expect(html).toContain('data-setup-checklist="complete"')
    expect(html).toMatch(/<details[^>]*data-setup-checklist="complete"[^>]*><summary[^>]*>Your school is set up: 6 of 6 done<\/summary>/)
    expect(html).not.toContain('data-setup-checklist="open"')
  })

  it('keeps a refunded first sale ticked off, and counts an enabled integration of the school’s own as payments ready', async () => {
    const school = await createTestSchool()
    await sale(school.tenantId, 2_000, 'USD', 'refunded', Date.now())
    await db().insert(paymentIntegrations).values({ id: newId(), tenantId: school.tenantId, provider: 'stripe', currency: 'USD', credentials: '', enabled: true, createdAt: Date.now(), updatedAt: Date.now() })
    expect(await getDashboard(dbs(), await tenantRow(school.tenantId))).toMatchObject({ setup: { sale: true, payments: true }, revenue: [], sales: 0 })
  })
})

describe('/home: the last 30 days', () => {
  it('sums completed paid sales per currency and day, counts sales and new students, and never another school’s', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const now = Date.now()
    const since = windowStart(now)
    const recent = now - 60_000
    await sale(school.tenantId, 4_900, 'USD', 'completed', recent - 60_000, recent)
    await sale(school.tenantId, 1_500, 'USD', 'completed', now - 3 * DAY_MS)
    await sale(school.tenantId, 10_000, 'PLN', 'completed', now - 10 * DAY_MS)
    // Started before the window, paid inside it (a slow confirmation): counted on the day it completed.
    await sale(school.tenantId, 3_000, 'USD', 'completed', since - 2 * DAY_MS, since + DAY_MS + 5_000)
    // Not revenue: completed before the window, refunded, pending, free.
    await sale(school.tenantId, 7_000, 'USD', 'completed', since - 2 * DAY_MS)
    await sale(school.tenantId, 8_000, 'USD', 'refunded', now - 2 * DAY_MS)
    await sale(school.tenantId, 999, 'USD', null, now - DAY_MS)
    await sale(school.tenantId, 0, 'USD', 'completed', now - DAY_MS)
    await sale(other.tenantId, 99_900, 'USD', 'completed', recent)

    await createTestStudent(school.tenantId)
    await createTestStudent(school.tenantId)
    const old = await createTestStudent(school.tenantId)
    await db().update(users).set({ createdAt: now - 40 * DAY_MS }).where(eq(users.id, old.id))
    const gone = await createTestStudent(school.tenantId)
    await db().update(users).set({ deletedAt: now }).where(eq(users.id, gone.id))
    await createTestStudent(other.tenantId)

    const day = (t: number) => Math.floor((t - since) / DAY_MS)
    const usdDaily = Array(30).fill(0)
    usdDaily[day(recent)] += 4_900
    usdDaily[day(now - 3 * DAY_MS)] += 1_500
    usdDaily[1] += 3_000
    const plnDaily = Array(30).fill(0)
    plnDaily[day(now - 10 * DAY_MS)] = 10_000
    const dashboard = await getDashboard(dbs(), await tenantRow(school.tenantId), now + 1_000)
    expect(dashboard).toMatchObject({ since, sales: 4, newStudents: 2 })
    expect(dashboard.revenue).toEqual([
      { currency: 'PLN', amount: 10_000, sales: 1, daily: plnDaily, dailySales: plnDaily.map((v) => (v ? 1 : 0)) },
      { currency: 'USD', amount: 9_400, sales: 3, daily: usdDaily, dailySales: usdDaily.map((v) => (v ? 1 : 0)) },
    ])
    expect(await getDashboard(dbs(), await tenantRow(other.tenantId))).toMatchObject({ sales: 1, newStudents: 1, revenue: [{ currency: 'USD', amount: 99_900, sales: 1 }] })

    const html = await homeHtml(school)
    // The checklist and the figures come before the rest of the page.
    expect(html.indexOf('data-setup-checklist')).toBeLessThan(html.indexOf('data-dashboard-figures'))
    expect(html.indexOf('data-dashboard-figures')).toBeLessThan(html.indexOf('Addresses'))
    expect(html).toMatch(/data-revenue="PLN">PLN\s100\.00</)
    expect(html).toContain('data-revenue="USD">$94.00<')
    expect(html).not.toContain('$999.00')
    expect(html).toMatch(/data-figure="sales">.*?<dd[^>]*>4<\/dd>/)
    expect(html).toMatch(/data-figure="students">.*?<dd[^>]*>2<\/dd>/)
    // The chart: one image with a title and a summary, in the school's currency, and its numbers in a table.
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="([^"]+)-title \1-desc"/)
    expect(html).toContain('>Daily revenue in USD, last 30 days</title>')
    expect(html).toMatch(/<desc[^>]*>\$94\.00 from 3 sales\. Best day: [A-Z][a-z]{2} \d{1,2}, \$49\.00\.<\/desc>/)
    const chart = html.indexOf('<svg', html.indexOf('data-revenue-chart="USD"'))
    const svg = html.slice(chart, html.indexOf('</svg>', chart))
    expect(svg.match(/<rect /g)).toHaveLength(30)
    const table = html.slice(html.indexOf('data-chart-table'), html.indexOf('</table>'))
    expect(table.match(/<th scope="row"/g)).toHaveLength(30)
    expect(table).toContain('$49.00')
    expect(html).toContain('Sales in other currencies are counted in the revenue figure above.')
  })

  it('shows zeros and an empty chart to a new school, in its language', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const html = await homeHtml(school)
    expect(html).toContain('Gotowe: 0 z 6')
    expect(html).toContain('data-revenue="USD">0,00')
    expect(html).toContain('Brak sprzedaży w USD w ostatnich 30 dniach.')
    expect(html).toMatch(/data-figure="sales">.*?<dd[^>]*>0<\/dd>/)
  })
})
