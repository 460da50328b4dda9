// Issue 27 §1: the operator dashboard at /operator. Its figures come from every shard and the
// control plane: a sale in PLN on a school in shard 0 and one in EUR on a school in shard 1 show
// per currency (never added up), with the day's bar in the chart's table; a failing custom domain,
// a queued e-mail, an open dead letter and a failed payment show in their sections. The page
// speaks Polish; owners and students of a school never reach it. The school list moved to
// /operator/schools (old /operator?q=… addresses follow it), its suspend buttons only for roles
// that may suspend.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { formatDay } from '#app/operator/dashboard/daily-chart.tsx'
import { formatMoney } from '#app/utils/money-format.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestOperator, createTestSchool, createTestStudent, dbOf, login, PLATFORM, shardD1OfSlug, type TestSchool } from '#tests/factories.ts'

const DAY = 86_400_000
const bindings = env as unknown as { DB: D1Database }

async function textOf(res: Response | Promise<Response>) {
  return (await (await res).text())
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/<!-- -->/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
}

/** The text inside the element carrying `attr` (first match), tags dropped. */
function inside(html: string, attr: string) {
  const at = html.indexOf(attr)
  if (at < 0) return ''
  const open = html.indexOf('>', at) + 1
  const tag = /<([a-z0-9]+)[^<]*$/i.exec(html.slice(0, at))![1]
  const close = html.indexOf(`</${tag}>`, open)
  return html
    .slice(open, close)
    .replace(/<[^>]+>/g, '')
    .trim()
}

/** The table row (or other element up to its `</tr>`) that carries `attr`. */
function rowOf(html: string, attr: string) {
  const at = html.indexOf(attr)
  return at < 0 ? '' : html.slice(at, html.indexOf('</tr>', at))
}

/** What the page shows for an amount (its no-break spaces read as spaces, like textOf). */
const money = (minor: number, currency: string, locale: 'en' | 'pl') => formatMoney(minor, currency, locale).replace(/[\u00a0\u202f]/g, ' ')

const figure = (html: string, name: string) => Number(inside(html, `data-figure="${name}"`).replace(/[^0-9]/g, ''))

let n = 0
async function sale(school: TestSchool, o: { total: number; fee: number; currency: string; collector: 'platform' | 'school' | 'split'; at: number; status?: 'completed' | 'failed' }) {
  const db = dbOf(school)
  const tx = await createTransaction(db, school.tenantId, {
    collector: o.collector,
    productKind: 'course',
    productTitle: `Dashboard course ${++n}`,
    currency: o.currency,
    unitAmount: o.total,
    totalAmount: o.total,
    feeAmount: o.fee,
    provider: 'test',
    providerRef: `dash-${school.slug}-${n}`,
    buyer: JSON.stringify({ name: 'Buyer Person', email: `dash-buyer${n}@example.com` }),
    termsAcceptedAt: o.at,
    checkoutPath: '/c/checkout',
  })
  const status = o.status ?? 'completed'
  await settleTransaction(db, school.tenantId, tx.id, { event: { provider: 'test', eventKey: `dash-${++n}`, providerStatus: status, status }, status, reason: null }, o.at)
  return tx
}

describe('the operator dashboard', () => {
  it('shows schools, sales per currency from both shards, a failing domain, queues and errors', async () => {
    const { cookie } = await createTestOperator()
    const before = await textOf(appFetch(PLATFORM, '/operator', { cookie }))
    const queueBefore = (queue: string, attr: string) => Number(inside(rowOf(before, `data-queue="${queue}"`), attr))
    const errorsBefore = Number(inside(rowOf(before, 'data-error-kind="payment_failed"'), 'data-errors-day'))

    const polish = await createTestSchool({ name: 'Dashboard PLN School', shard: 0 })
    const euro = await createTestSchool({ name: 'Dashboard EUR School', shard: 1 })
    const failing = await createTestSchool({ name: 'Dashboard Domain School', customDomain: `kurs-${Date.now().toString(36)}.dashboard.test`, customDomainStatus: 'failed' })
    const hostname = (await bindings.DB.prepare("SELECT hostname FROM domains WHERE tenant_id = ? AND kind = 'custom'").bind(failing.tenantId).first<{ hostname: string }>())!.hostname
    await bindings.DB.prepare("UPDATE domains SET problem = 'domains.problem.timeout', last_checked_at = ? WHERE hostname = ?").bind(Date.now(), hostname).run()

    const now = Date.now()
    const pln = { total: 14_900, fee: 745 }
    const eur = { total: 5_000, fee: 250 }
    await sale(polish, { ...pln, currency: 'PLN', collector: 'platform', at: now - 2 * DAY })
    await sale(euro, { ...eur, currency: 'EUR', collector: 'split', at: now - 60_000 })
    // Outside the window, and not a sale: neither counts.
    await sale(polish, { total: 99_900, fee: 1_000, currency: 'PLN', collector: 'platform', at: now - 45 * DAY })
    await sale(polish, { total: 3_300, fee: 100, currency: 'PLN', collector: 'platform', at: now - 60_000, status: 'failed' })

    // A queued e-mail on shard 1 and an open dead letter of the mail queue.
    const shard1 = await shardD1OfSlug(euro.slug)
    await shard1
      .prepare("INSERT INTO email_outbox (id, tenant_id, template, to_address, subject, text_body, html_body, status, created_at) VALUES (?, ?, 'test', 'x@example.com', 's', 't', 'h', 'queued', ?)")
      .bind(newId(), euro.tenantId, now)
      .run()
    await bindings.DB.prepare(
      "INSERT INTO dead_letters (id, queue, message_id, tenant_id, body, reason, attempts, status, created_at) VALUES (?, 'mail', ?, ?, '{}', 'retries exhausted', 5, 'open', ?)",
    )
      .bind(newId(), newId(), euro.tenantId, now)
      .run()

    const res = await appFetch(PLATFORM, '/operator', { cookie })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    expect(html).toContain('data-operator-nav')

    // Schools: three more active ones, three more new ones in the window.
    expect(figure(html, 'schools-active') - figure(before, 'schools-active')).toBe(3)
    expect(figure(html, 'schools-new') - figure(before, 'schools-new')).toBe(3)

    // Money per currency, each from its own shard, never summed together.
    expect(inside(html, 'data-figure="gmv-PLN"')).toBe(money(pln.total, 'PLN', 'en'))
    expect(inside(html, 'data-figure="fees-PLN"')).toBe(money(pln.fee, 'PLN', 'en'))
    expect(inside(html, 'data-figure="sales-PLN"')).toBe('1')
    expect(inside(html, 'data-figure="gmv-EUR"')).toBe(money(eur.total, 'EUR', 'en'))
    expect(inside(html, 'data-figure="fees-EUR"')).toBe(money(eur.fee, 'EUR', 'en'))
    expect(figure(html, 'sales')).toBe(2)
    // The chart is an image with a title, and its numbers are a table: the sale sits on its day.
    const chart = html.slice(html.indexOf('data-chart="money-PLN"'), html.indexOf('</figure>', html.indexOf('data-chart="money-PLN"')))
    expect(chart).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="[^"]+"/)
    expect(chart).toContain('<title')
    expect(chart).toContain('<caption')
    const days = chart.split('data-chart-day=').slice(1)
    const withSales = days.filter((row) => inside(row, 'data-series="sales"') !== '0')
    expect(withSales).toHaveLength(1)
    const day = withSales[0]!
    expect(inside(day, 'scope="row"')).toBe(formatDay(now - 2 * DAY, 'en'))
    expect(inside(day, 'data-series="gmv"')).toBe(money(pln.total, 'PLN', 'en'))
    expect(inside(day, 'data-series="fees"')).toBe(money(pln.fee, 'PLN', 'en'))
    expect(inside(day, 'data-series="sales"')).toBe('1')

    // The failing domain, with its school and its problem.
    const domainRow = rowOf(html, `data-failing-domain="${hostname}"`)
    expect(domainRow).toContain('Dashboard Domain School')
    expect(domainRow).toContain('the records were not found within 24 hours.')
    expect(html).toContain('href="/operator/domains?status=failed"')

    // Queues: the queued e-mail waits; the dead letter is open and links to its list.
    expect(Number(inside(rowOf(html, 'data-queue="mail"'), 'data-backlog')) - queueBefore('mail', 'data-backlog')).toBe(1)
    expect(Number(inside(rowOf(html, 'data-queue="mail"'), 'data-dead-letters')) - queueBefore('mail', 'data-dead-letters')).toBe(1)
    expect(rowOf(html, 'data-queue="mail"')).toContain('href="/operator/dead-letters?queue=mail"')

    // Errors by kind: the failed payment, and the note on what cannot be counted.
    expect(Number(inside(rowOf(html, 'data-error-kind="payment_failed"'), 'data-errors-day')) - errorsBefore).toBe(1)
    expect(inside(html, 'data-logs-note')).toContain('Workers Logs')
  })

  it('speaks Polish', async () => {
    const { cookie } = await createTestOperator()
    const res = await appFetch(PLATFORM, '/operator', { cookie, headers: { 'Accept-Language': 'pl' } })
    expect(res.status).toBe(200)
    const html = await textOf(res)
    expect(html).toContain('<html lang="pl"')
    for (const text of ['Pulpit', 'Stan kolejek', 'Ostatnie błędy', 'Niedziałające domeny własne', 'Nowe szkoły dziennie', 'Pokaż liczby']) expect(html).toContain(text)
    expect(html).not.toContain('Queue health')
  })

  it('is for operators only, on the platform host only', async () => {
    const school = await createTestSchool()
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const student = await createTestStudent(school.tenantId)
    const studentCookie = await login(school.host, student.email, student.password)
    const { cookie: operator } = await createTestOperator()
    for (const path of ['/operator', '/operator/schools']) {
      const anonymous = await appFetch(PLATFORM, path)
      expect(anonymous.status, path).toBe(302)
      expect(anonymous.headers.get('Location'), path).toBe('/operator/login')
      const asOwner = await appFetch(PLATFORM, path, { cookie: owner })
      expect(asOwner.headers.get('Location'), path).toBe('/operator/login')
      for (const cookie of [owner, studentCookie, operator]) expect((await appFetch(school.host, path, { cookie })).status, path).toBe(404)
    }
  })
})

describe('the school list at /operator/schools', () => {
  it('searches and filters; old /operator list addresses lead there', async () => {
    const { cookie } = await createTestOperator()
    const name = `Listed ${Date.now().toString(36)}`
    const school = await createTestSchool({ name })
    const list = await textOf(appFetch(PLATFORM, `/operator/schools?q=${encodeURIComponent(name)}`, { cookie }))
    expect(list).toContain(`data-school="${school.slug}"`)
    expect(await textOf(appFetch(PLATFORM, `/operator/schools?status=suspended&q=${encodeURIComponent(name)}`, { cookie }))).not.toContain(`data-school="${school.slug}"`)

    const old = await appFetch(PLATFORM, `/operator?q=${school.slug}&changed=x&to=active`, { cookie })
    expect(old.status).toBe(302)
    expect(old.headers.get('Location')).toBe(`/operator/schools?q=${school.slug}&changed=x&to=active`)
  })

  it('shows suspend buttons only to roles that may suspend', async () => {
    const name = `Buttons ${Date.now().toString(36)}`
    const school = await createTestSchool({ name })
    const path = `/operator/schools?q=${encodeURIComponent(name)}`
    const admin = await createTestOperator({ role: 'admin' })
    const support = await createTestOperator({ role: 'support' })
    const adminRow = rowOf(await textOf(appFetch(PLATFORM, path, { cookie: admin.cookie })), `data-school="${school.slug}"`)
    expect(adminRow).toContain('name="intent" value="suspend"')
    const supportPage = await textOf(appFetch(PLATFORM, path, { cookie: support.cookie }))
    expect(rowOf(supportPage, `data-school="${school.slug}"`)).toContain(name)
    expect(supportPage).not.toContain('name="intent" value="suspend"')
  })
})
