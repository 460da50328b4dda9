// Issue 24 item 3: /home/stats equals the seeded month — per local day in Europe/Warsaw (around
// midnight and across the end of summer time), per product, promo code and affiliate partner, per
// currency, refunds apart — the CSV export writes the chart table's rows, once a minute; the
// statements read indexes; bad dates answer field errors.
import { env } from 'cloudflare:workers'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { affiliatePartners, lectureProgress, leads, pageViews, productAccess, promoCodes, schoolSettings, transactions, users } from '#app/db/schema.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { statsStatements } from '#app/models/stats.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { resolveRange } from '#app/stats/range.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

const Z = (iso: string) => Date.parse(iso)
let n = 0

async function sale(tenantId: string, o: { total: number; currency: string; at: number; productId: string; title: string; refunded?: boolean; promoCodeId?: string; partnerId?: string }) {
  const tx = await createTransaction(
    db(),
    tenantId,
    {
      collector: 'school',
      productId: o.productId,
      productKind: 'course',
      productTitle: o.title,
      currency: o.currency,
      unitAmount: o.total,
      totalAmount: o.total,
      termsAcceptedAt: o.at,
      checkoutPath: '/x/checkout',
      promoCodeId: o.promoCodeId ?? null,
    },
    o.at - 60_000,
  )
  if (o.partnerId) await db().update(transactions).set({ affiliatePartnerId: o.partnerId }).where(eq(transactions.id, tx.id))
  const step = (status: 'completed' | 'refunded', at: number) =>
    settleTransaction(db(), tenantId, tx.id, { event: { provider: 'test', eventKey: `stats-${Date.now()}-${++n}`, providerStatus: status, status }, status }, at)
  await step('completed', o.at)
  if (o.refunded) await step('refunded', o.at + 3_600_000)
  return tx
}

/** The rows of a chart's table (`data-chart-table`), as text cells. */
function tableRows(html: string, name: string) {
  const start = html.indexOf(`data-chart-table="${name}"`)
  expect(start, name).toBeGreaterThan(-1)
  const body = html.slice(html.indexOf('<tbody', start), html.indexOf('</tbody>', start))
  return body
    .split('<tr')
    .slice(1)
    .map((tr) => [...tr.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((m) => decode(m[1].replace(/<[^>]+>/g, ''))))
}
const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")

/** RFC 4180 CSV (what app/utils/csv.ts writes) back into rows; the neutralising apostrophe stays. */
function parseCsv(text: string) {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  const body = text.replace(/^\uFEFF/, '')
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') (cell += '"'), i++
      else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"') quoted = true
    else if (c === ',') row.push(cell), (cell = '')
    else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += c
  }
  return rows
}

const figure = (html: string, currency: string, name: string) => {
  const start = html.indexOf(`data-currency-report="${currency}"`)
  const at = html.indexOf(`data-figure="${name}"`, start)
  return decode(
    /<dd[^>]*>([\s\S]*?)<\/dd>/
      .exec(html.slice(at))![1]
      .replace(/<[^>]+>/g, '')
      .replace(/<!-- -->/g, ''),
  )
}

let school: TestSchool
let owner: string
const OCTOBER = '/home/stats?range=custom&from=2026-10-01&to=2026-10-31'
let bread: { id: string; slug: string }
let cake: { id: string }
let code: string
let partner: string

beforeAll(async () => {
  // A Polish school: '' time zone = Europe/Warsaw. October 2026: summer time (UTC+2) ends on the 25th.
  school = await createTestSchool({ language: 'pl' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  const t = school.tenantId
  const now = Date.now()
  bread = await createProduct(db(), t, { kind: 'course', title: 'Chleb', published: true })
  cake = await createProduct(db(), t, { kind: 'course', title: 'Ciasto', published: true })
  code = newId()
  await db().insert(promoCodes).values({ id: code, tenantId: t, code: 'JESIEN', kind: 'percent', value: 10, createdAt: now, updatedAt: now })
  partner = newId()
  await db()
    .insert(affiliatePartners)
    .values({ id: partner, tenantId: t, name: 'Anna Polecająca', email: 'anna@example.com', code: 'ANNA', commissionKind: 'percent', commissionValue: 10, createdAt: now, updatedAt: now })

  // 00:30 on 2 Oct in Warsaw (22:30 UTC the day before) and 23:59 on 1 Oct: two local days.
  await sale(t, { total: 10_000, currency: 'USD', at: Z('2026-10-01T22:30:00Z'), productId: bread.id, title: 'Chleb' })
  await sale(t, { total: 5_000, currency: 'USD', at: Z('2026-10-01T21:59:00Z'), productId: bread.id, title: 'Chleb', promoCodeId: code })
  // Refunded since: a refund of 10 Oct, not revenue.
  await sale(t, { total: 7_000, currency: 'PLN', at: Z('2026-10-10T10:00:00Z'), productId: cake.id, title: 'Ciasto', refunded: true })
  // After summer time: 23:30 UTC on the 25th is 00:30 on the 26th (UTC+1).
  await sale(t, { total: 20_000, currency: 'PLN', at: Z('2026-10-25T23:30:00Z'), productId: cake.id, title: 'Ciasto', promoCodeId: code })
  // 23:59 on 31 Oct in Warsaw is in the month; 00:00 on 1 Nov and 23:59 on 30 Sep are not.
  await sale(t, { total: 3_000, currency: 'USD', at: Z('2026-10-31T22:59:00Z'), productId: cake.id, title: 'Ciasto', partnerId: partner })
  await sale(t, { total: 9_999, currency: 'USD', at: Z('2026-10-31T23:00:00Z'), productId: bread.id, title: 'Chleb' })
  await sale(t, { total: 8_888, currency: 'USD', at: Z('2026-09-30T21:59:00Z'), productId: bread.id, title: 'Chleb' })
  // Another school's sale in the same month never counts here.
  const other = await createTestSchool()
  const foreign = await createProduct(db(), other.tenantId, { kind: 'course', title: 'Foreign', published: true })
  await sale(other.tenantId, { total: 77_700, currency: 'USD', at: Z('2026-10-05T10:00:00Z'), productId: foreign.id, title: 'Foreign' })

  // Two students who joined in October (one on 2 Oct local, 1 Oct UTC), one in September; two leads.
  for (const at of [Z('2026-10-01T22:10:00Z'), Z('2026-10-15T12:00:00Z'), Z('2026-09-15T12:00:00Z')]) {
    const s = await createTestStudent(t)
    await db().update(users).set({ createdAt: at }).where(eq(users.id, s.id))
  }
  await db()
    .insert(leads)
    .values([
      { id: newId(), tenantId: t, email: `lead-a-${now}@example.com`, createdAt: Z('2026-10-26T10:00:00Z') },
      { id: newId(), tenantId: t, email: `lead-b-${now}@example.com`, createdAt: Z('2026-11-02T10:00:00Z') },
    ])
})

describe('/home/stats: a seeded month in Europe/Warsaw', () => {
  it('shows the figures of the transactions per currency, per local day, product, code and partner', async () => {
    const res = await appFetch(school.host, `${OCTOBER}&group=day`, { cookie: owner })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('data-stats-zone="Europe/Warsaw"')
    // USD: 100 + 50 + 30 = 180 from 3 sales; PLN: 200 from 1 sale, 70 refunded.
    expect(figure(html, 'USD', 'revenue')).toBe('180,00\u00a0USD')
    expect(figure(html, 'USD', 'sales')).toBe('3')
    expect(figure(html, 'USD', 'average')).toBe('60,00\u00a0USD')
    expect(figure(html, 'PLN', 'revenue')).toBe('200,00\u00a0zł')
    expect(figure(html, 'PLN', 'refunds')).toBe('1 · 70,00\u00a0zł')

    const usd = tableRows(html, 'revenue-USD')
    expect(usd).toHaveLength(31)
    const byDay = (rows: string[][], day: string) => rows.find((r) => r[0] === day)
    expect(byDay(usd, '2026-10-01')).toEqual(['2026-10-01', '1', '50,00\u00a0USD', '0', '0,00\u00a0USD'])
    expect(byDay(usd, '2026-10-02')).toEqual(['2026-10-02', '1', '100,00\u00a0USD', '0', '0,00\u00a0USD'])
    expect(byDay(usd, '2026-10-31')).toEqual(['2026-10-31', '1', '30,00\u00a0USD', '0', '0,00\u00a0USD'])
    const pln = tableRows(html, 'revenue-PLN')
    expect(byDay(pln, '2026-10-10')).toEqual(['2026-10-10', '0', '0,00\u00a0zł', '1', '70,00\u00a0zł'])
    expect(byDay(pln, '2026-10-25')?.[1]).toBe('0')
    expect(byDay(pln, '2026-10-26')).toEqual(['2026-10-26', '1', '200,00\u00a0zł', '0', '0,00\u00a0zł'])
    // Every other day is empty: the table's sums are the figures.
    expect(usd.reduce((sum, r) => sum + Number(r[1]), 0)).toBe(3)

    // New students and leads per local day (audience table).
    const audience = tableRows(html, 'audience')
    expect(byDay(audience, '2026-10-02')?.[1]).toBe('1')
    expect(byDay(audience, '2026-10-15')?.[1]).toBe('1')
    expect(byDay(audience, '2026-10-26')?.[2]).toBe('1')
    expect(audience.reduce((sum, r) => sum + Number(r[1]), 0)).toBe(2)
    expect(audience.reduce((sum, r) => sum + Number(r[2]), 0)).toBe(1)

    // By product / code / partner.
    const row = (name: string, key: string, currency: string) => {
      const at = html.indexOf(`data-key="${key}" data-currency="${currency}"`, html.indexOf(`data-breakdown="${name}"`))
      expect(at, `${name} ${key} ${currency}`).toBeGreaterThan(-1)
      const tr = html.slice(at, html.indexOf('</tr>', at))
      return Object.fromEntries([...tr.matchAll(/data-cell="(\w+)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => [m[1], decode(m[2].replace(/<[^>]+>/g, ''))]))
    }
    expect(row('products', bread.id, 'USD')).toEqual({ sales: '2', revenue: '150,00\u00a0USD', refunds: '0', refunded: '0,00\u00a0USD' })
    expect(row('products', cake.id, 'USD')).toEqual({ sales: '1', revenue: '30,00\u00a0USD', refunds: '0', refunded: '0,00\u00a0USD' })
    expect(row('products', cake.id, 'PLN')).toEqual({ sales: '1', revenue: '200,00\u00a0zł', refunds: '1', refunded: '70,00\u00a0zł' })
    expect(row('codes', code, 'USD')).toEqual({ sales: '1', revenue: '50,00\u00a0USD', refunds: '0', refunded: '0,00\u00a0USD' })
    expect(row('codes', code, 'PLN')).toEqual({ sales: '1', revenue: '200,00\u00a0zł', refunds: '0', refunded: '0,00\u00a0zł' })
    expect(html).toContain('JESIEN')
    expect(row('partners', partner, 'USD')).toEqual({ sales: '1', revenue: '30,00\u00a0USD', refunds: '0', refunded: '0,00\u00a0USD' })
    expect(html).toContain('Anna Polecająca')
    expect(html).not.toContain('777,00')
  })

  it('groups by Monday weeks and by month, clipped to the range', async () => {
    const weeks = tableRows(await (await appFetch(school.host, `${OCTOBER}&group=week`, { cookie: owner })).text(), 'revenue-USD')
    expect(weeks.map((r) => r[0])).toEqual(['2026-10-01 – 2026-10-04', '2026-10-05 – 2026-10-11', '2026-10-12 – 2026-10-18', '2026-10-19 – 2026-10-25', '2026-10-26 – 2026-10-31'])
    expect(weeks[0].slice(1, 3)).toEqual(['2', '150,00\u00a0USD'])
    expect(weeks[4].slice(1, 3)).toEqual(['1', '30,00\u00a0USD'])
    const months = tableRows(await (await appFetch(school.host, '/home/stats?range=custom&from=2026-09-15&to=2026-11-10&group=month', { cookie: owner })).text(), 'revenue-USD')
    expect(months).toEqual([
      ['2026-09', '1', '88,88\u00a0USD', '0', '0,00\u00a0USD'],
      ['2026-10', '3', '180,00\u00a0USD', '0', '0,00\u00a0USD'],
      ['2026-11', '1', '99,99\u00a0USD', '0', '0,00\u00a0USD'],
    ])
  })

  it('follows the school’s time zone setting', async () => {
    await db().update(schoolSettings).set({ timeZone: 'UTC' }).where(eq(schoolSettings.tenantId, school.tenantId))
    try {
      const html = await (await appFetch(school.host, `${OCTOBER}&group=day`, { cookie: owner })).text()
      expect(html).toContain('data-stats-zone="UTC"')
      const usd = tableRows(html, 'revenue-USD')
      // In UTC both early-October sales are on the 1st, and 23:00 UTC on 31 Oct is still October.
      expect(usd.find((r) => r[0] === '2026-10-01')?.slice(1, 3)).toEqual(['2', '150,00\u00a0USD'])
      expect(usd.find((r) => r[0] === '2026-10-31')?.slice(1, 3)).toEqual(['2', '129,99\u00a0USD'])
    } finally {
      await db().update(schoolSettings).set({ timeZone: '' }).where(eq(schoolSettings.tenantId, school.tenantId))
    }
  })

  it('exports the chart tables’ rows as CSV, once a minute', async () => {
    const html = await (await appFetch(school.host, `${OCTOBER}&group=week`, { cookie: owner })).text()
    const res = await appFetch(school.host, '/home/stats/export', { cookie: owner, form: { table: 'revenue', range: 'custom', from: '2026-10-01', to: '2026-10-31', group: 'week' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toContain('text/csv')
    const csv = parseCsv(await res.text())
    expect(csv[0]).toEqual(['Waluta', 'Okres', 'Sprzedaż', 'Przychód', 'Zwroty', 'Kwota zwrotów'])
    // Largest revenue first (PLN 200 > USD 180): each currency's rows are its table's rows.
    expect(csv.slice(1)).toEqual([...tableRows(html, 'revenue-PLN').map((r) => ['PLN', ...r]), ...tableRows(html, 'revenue-USD').map((r) => ['USD', ...r])])
    // A second export within the minute goes back to the page with the message.
    const again = await appFetch(school.host, '/home/stats/export', { cookie: owner, form: { table: 'audience', range: 'custom', from: '2026-10-01', to: '2026-10-31', group: 'week' } })
    expect(again.status).toBe(303)
    expect(again.headers.get('Location')).toContain('error=export_limit')
    const limited = await (await appFetch(school.host, again.headers.get('Location')!, { cookie: owner })).text()
    expect(limited).toContain('Eksport można wykonać raz na minutę.')
  })

  it('exports the audience table for another user’s turn', async () => {
    const admin = await createTestStudent(school.tenantId)
    await db().update(users).set({ role: 'admin' }).where(eq(users.id, admin.id))
    const cookie = await login(school.host, admin.email, admin.password)
    const html = await (await appFetch(school.host, `${OCTOBER}&group=day`, { cookie })).text()
    const res = await appFetch(school.host, '/home/stats/export', { cookie, form: { table: 'audience', range: 'custom', from: '2026-10-01', to: '2026-10-31', group: 'day' } })
    expect(res.status).toBe(200)
    const csv = parseCsv(await res.text())
    expect(csv.slice(1)).toEqual(tableRows(html, 'audience'))
  })

  it('answers bad dates with field errors in the page’s language (400) and the last 30 days', async () => {
    const res = await appFetch(school.host, '/home/stats?range=custom&from=2026-10-31&to=2026-10-01', { cookie: owner })
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('Data końcowa nie może być wcześniejsza niż początkowa.')
    const bad = await appFetch(school.host, '/home/stats?range=custom&from=2026-02-30&to=yesterday', { cookie: owner })
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('Wpisz datę w formacie RRRR-MM-DD.')
    expect((await appFetch(school.host, '/home/stats?range=custom&from=2020-01-01&to=2026-01-01', { cookie: owner })).status).toBe(400)
    // An unknown preset is a field error too, never a 500.
    expect((await appFetch(school.host, '/home/stats?range=forever', { cookie: owner })).status).toBe(400)
    // Students and visitors: not the page.
    const student = await createTestStudent(school.tenantId)
    expect((await appFetch(school.host, '/home/stats', { cookie: await login(school.host, student.email, student.password) })).status).toBe(404)
    expect((await appFetch(school.host, '/home/stats/export', { form: { table: 'revenue' } })).status).toBeGreaterThanOrEqual(300)
    expect((await appFetch(school.host, '/home/stats/export', { cookie: owner, form: { table: 'everything' } })).status).toBe(400)
  })

  it('counts the completion funnel of each course among students with access', async () => {
    const t = school.tenantId
    const now = Date.now()
    const course = await createProduct(db(), t, { kind: 'course', title: 'Funnel course', published: true })
    const section = await createSection(db(), t, course.id, 'S')
    const ids: string[] = []
    for (const [i, published] of [true, true, true, true, false].entries()) {
      const made = await createLecture(db(), t, course.id, section!.id, { title: `L${i}`, kind: 'text', body: 'x', published })
      if (!made || !('lecture' in made)) throw new Error('lecture')
      ids.push(made.lecture.id)
    }
    // Five enrolled (one more revoked): none, started (0 done), 2 of 4 done, 4 of 4, and 1 of 4 + the unpublished one.
    const done = [null, 0, 2, 4, 1]
    for (const [i, d] of done.entries()) {
      const s = await createTestStudent(t)
      await db()
        .insert(productAccess)
        .values({ id: newId(), tenantId: t, productId: course.id, userId: s.id, source: 'manual', startsAt: now - 1000, createdAt: now, updatedAt: now })
      if (d === null) continue
      const rows = ids
        .slice(0, 4)
        .map((lectureId, k) => ({ id: newId(), tenantId: t, userId: s.id, productId: course.id, lectureId, completedAt: k < d ? now : null, lastViewedAt: now, createdAt: now, updatedAt: now }))
      if (i === 4) rows.push({ id: newId(), tenantId: t, userId: s.id, productId: course.id, lectureId: ids[4], completedAt: now, lastViewedAt: now, createdAt: now, updatedAt: now })
      await db()
        .insert(lectureProgress)
        .values(d === 0 ? rows.slice(0, 1) : rows)
    }
    const revoked = await createTestStudent(t)
    await db()
      .insert(productAccess)
      .values({ id: newId(), tenantId: t, productId: course.id, userId: revoked.id, source: 'manual', startsAt: now - 1000, revokedAt: now - 10, createdAt: now, updatedAt: now })
    await db()
      .insert(lectureProgress)
      .values({ id: newId(), tenantId: t, userId: revoked.id, productId: course.id, lectureId: ids[0], completedAt: now, lastViewedAt: now, createdAt: now, updatedAt: now })

    const html = await (await appFetch(school.host, '/home/stats', { cookie: owner })).text()
    const at = html.indexOf(`data-course="${course.id}"`)
    expect(at).toBeGreaterThan(-1)
    const tr = html.slice(at, html.indexOf('</tr>', at))
    const cells = Object.fromEntries([...tr.matchAll(/data-cell="(\w+)"[^>]*>([\s\S]*?)<\/td>/g)].map((m) => [m[1], m[2].replace(/<!-- -->/g, '')]))
    expect(cells).toEqual({ enrolled: '5', started: '4 (80%)', half: '2 (40%)', completed: '1 (20%)' })
  })

  it('shows the top 50 rows of a long list, and all of them on request', async () => {
    const other = await createTestSchool()
    const cookie = await login(other.host, other.owner.email, other.owner.password)
    const hour = Math.floor(Date.now() / 3_600_000)
    // D1 binds at most 100 values per statement: 15 rows at a time.
    const rows = Array.from({ length: 55 }, (_, i) => ({ tenantId: other.tenantId, productId: `gone-${i}`, kind: 'sales_page' as const, hour, views: i + 1 }))
    for (let i = 0; i < rows.length; i += 15)
      await db()
        .insert(pageViews)
        .values(rows.slice(i, i + 15))
    const rowsOf = (html: string) => html.match(/data-product="gone-\d+"/g) ?? []
    const top = await (await appFetch(other.host, '/home/stats?range=7d', { cookie })).text()
    expect(rowsOf(top)).toHaveLength(50)
    // Most viewed first; a deleted product keeps its row, named as such.
    expect(rowsOf(top)[0]).toBe('data-product="gone-54"')
    expect(top).toContain('The top 50 of 55.')
    expect(top).toContain('Deleted product')
    const all = await (await appFetch(other.host, '/home/stats?range=7d&all=1', { cookie })).text()
    expect(rowsOf(all)).toHaveLength(55)
    expect(all).not.toContain('data-more-rows')
  })

  it('reads indexes, never a table scan of transactions, users, leads or page views', async () => {
    const zone = 'Europe/Warsaw'
    const { range } = resolveRange(new URLSearchParams('range=custom&from=2026-10-01&to=2026-10-31'), zone)
    const d1 = (env as unknown as { DB_SHARD_0: D1Database }).DB_SHARD_0
    const plans: string[] = []
    for (const statement of statsStatements(db(), school.tenantId, range)) {
      const q = statement.toSQL()
      const { results } = await d1
        .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>()
      plans.push(results.map((r) => r.detail).join(' | '))
    }
    const all = plans.join('\n')
    expect(all).toContain('transactions USING INDEX transactions_tenant_completed_idx')
    expect(all).toMatch(/leads USING (COVERING )?INDEX leads_tenant_created_idx/)
    expect(all).toMatch(/page_views USING (COVERING )?INDEX page_views_unique/)
    for (const table of ['transactions', 'users', 'leads', 'page_views', 'product_access', 'lecture_progress', 'lectures', 'products'])
      expect(all, table).not.toMatch(new RegExp(`SCAN ${table}(?! USING)`))
  })
})
