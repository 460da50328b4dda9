// Stats in /home (issue 24 item 3) in Chromium, on the demo schools: the owner opens Stats, sees the
// revenue chart (server-drawn SVG, role="img") and its table, changes the range and the grouping
// (a GET form: works without JavaScript too, as the Polish school shows), and axe checks each page.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, checkA11y, demoSchool, demoUser, expectText, heading, logIn, snap, subdomain, url, visit } from './support.ts'

const rows = (page: Page, chart: string) => page.locator(`[data-chart-table="${chart}"] tbody tr`)

browserTest('the owner opens Stats, sees the revenue chart and its table, and changes the range and grouping', async ({ page }) => {
  const school = demoSchool('code-academy')
  const host = subdomain(school.slug)
  const owner = demoUser(school, 'owner')
  await logIn(page, host, owner.email, owner.password)
  await page.waitForURL(/\/home/)
  // From the panel's navigation.
  await page.locator('a[href="/home/stats"]:visible').first().click()
  await page.waitForURL(/\/home\/stats$/)
  await checkA11y(page)
  await expectText(heading(page), 'Stats')

  // The demo school sold in USD within the last 30 days: a chart with a title and a summary.
  const chart = page.locator('[data-chart="revenue-USD"]')
  await chart.waitFor()
  const svg = chart.locator('svg[role="img"]')
  assert.equal(await svg.count(), 1)
  const labelledBy = (await svg.getAttribute('aria-labelledby'))!.split(' ')
  assert.equal(await page.locator(`[id="${labelledBy[0]}"]`).textContent(), 'Revenue in USD')
  assert.match((await page.locator(`[id="${labelledBy[1]}"]`).textContent()) ?? '', /^\$[\d,.]+ from \d+ sales\. Best period: 2026-/)
  assert.ok(Number(await page.locator('[data-currency-report="USD"] [data-figure="sales"] dd').innerText()) >= 3)
  // The numbers behind it: one row per day of the last 30.
  await chart.locator('summary').click()
  await rows(page, 'revenue-USD').first().waitFor()
  assert.equal(await rows(page, 'revenue-USD').count(), 30)
  await snap(page, 'stats-30-days')

  // Last 90 days by month: three or four months, in a table and a chart again.
  await page.locator('form[data-stats-range] [name="range"]').selectOption('90d')
  await page.locator('form[data-stats-range] [name="group"]').selectOption('month')
  await page.locator('form[data-stats-range] button[type="submit"]').click()
  await page.waitForURL(/range=90d/)
  assert.match(page.url(), /group=month/)
  await checkA11y(page)
  await page.locator('[data-chart="revenue-USD"] summary').click()
  const months = await rows(page, 'revenue-USD').count()
  assert.ok(months >= 3 && months <= 4, `months: ${months}`)
  await expectText(page.locator('[data-chart="audience"] h3'), 'New students, leads and sales page views')
  assert.equal(await page.locator('[data-chart="audience"] svg[role="img"]').count(), 1)
})

browserTest(
  'Polish owner: custom dates by week, without JavaScript',
  async ({ page }) => {
    const school = demoSchool('akademia-kasi')
    const host = subdomain(school.slug)
    const owner = demoUser(school, 'owner')
    await logIn(page, host, owner.email, owner.password)
    await page.waitForURL(/\/home/)
    await visit(page, url(host, '/home/stats'))
    await expectText(heading(page), 'Statystyki')
    await expectText(page.locator('[data-stats-zone]'), /Europe\/Warsaw/)
    const form = page.locator('form[data-stats-range]')
    await form.locator('[name="range"]').selectOption('custom')
    await form.locator('[name="from"]').fill('2026-10-01')
    await form.locator('[name="to"]').fill('2026-10-31')
    await form.locator('[name="group"]').selectOption('week')
    await form.locator('button[type="submit"]').click()
    await page.waitForURL(/range=custom/)
    await checkA11y(page)
    await expectText(page.locator('[data-stats-zone]'), 'Od 2026-10-01 do 2026-10-31')
    // Five Monday weeks, the first and last clipped to the month; the table opens without JS (<details>).
    await page.locator('[data-chart="audience"] summary').click()
    const audience = rows(page, 'audience')
    assert.equal(await audience.count(), 5)
    await expectText(audience.first().locator('th'), '2026-10-01 – 2026-10-04')
    await expectText(audience.last().locator('th'), '2026-10-26 – 2026-10-31')
    assert.equal(await page.locator('[data-chart="audience"] svg[role="img"] title').count(), 1)
  },
  { javaScriptEnabled: false },
)
