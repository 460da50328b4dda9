// The instructor panel's navigation (issue 23 item 1): every section reachable at desktop width
// (the old tab row hid 9 of 21 tabs off-screen), grouped, the current section marked with
// aria-current on nested pages too, a disclosure menu on phones that works without JavaScript.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, heading, logIn, screenshotSet, subdomain, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const HOST = subdomain(school.slug)
const owner = demoUser(school, 'owner')

const GROUPS = ['Overview', 'Content', 'Sell', 'Students', 'Money', 'Settings']

/** The visible navigation (desktop sidebar or the opened phone menu). */
const visibleNav = (page: Page) => page.getByRole('navigation', { name: 'Instructor panel' })

async function assertNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`)
}

browserTest('at 1280 px every panel section is on screen, grouped, and the current one is marked', async ({ page }) => {
  await logIn(page, HOST, owner.email, owner.password)
  await expectUrl(page, HOST, '/home')
  const nav = visibleNav(page)
  for (const group of GROUPS) await expectText(nav.getByText(group, { exact: true }), group)

  const links = nav.getByRole('link')
  const count = await links.count()
  assert.ok(count >= 22, `the sidebar lists every section (${count})`)
  const viewport = page.viewportSize()
  assert.ok(viewport)
  for (let i = 0; i < count; i++) {
    const box = await links.nth(i).boundingBox()
    const name = await links.nth(i).innerText()
    assert.ok(box, `${name} is rendered`)
    assert.ok(box.x >= 0 && box.x + box.width <= viewport.width, `${name} is horizontally on screen (x ${box.x}, width ${box.width})`)
  }
  assert.equal(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current'), 'page')

  // The sections the old tab row hid are one click away, and the clicked one becomes current.
  for (const name of ['Webhooks', 'Domain', 'Balance']) {
    await nav.getByRole('link', { name, exact: true }).click()
    await expectText(nav.locator('[aria-current="page"]'), name)
    assert.equal(await nav.locator('[aria-current="page"]').count(), 1, 'one current section')
  }

  // A nested page marks the section it belongs to.
  await visit(page, url(HOST, '/home/courses'))
  const course = page.locator('main a[href^="/home/courses/"]').first()
  await course.click()
  await page.waitForURL((u) => u.pathname.startsWith('/home/courses/'))
  await expectText(nav.locator('[aria-current="page"]'), 'Courses')
  await screenshotSet(page, 'navigation')
})

browserTest('at 390 px the sections sit in a menu that opens without JavaScript', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await logIn(page, HOST, owner.email, owner.password)
  await expectUrl(page, HOST, '/home')
  const menu = page.locator('[data-instructor-menu]')
  const summary = menu.locator('summary')
  await expectText(summary, /Panel menu · Dashboard/)
  // Closed, the links are not in the way of the page; the sidebar is not shown at all.
  assert.equal(await visibleNav(page).count(), 0, 'no navigation is exposed while the menu is closed')
  await summary.click()
  const nav = visibleNav(page)
  await nav.getByRole('link', { name: 'Promo codes' }).click()
  await expectUrl(page, HOST, '/home/promo-codes')
  await expectText(heading(page), /Promo codes/)
  await expectText(page.locator('[data-instructor-menu] summary'), /Promo codes/)
  await assertNoSidewaysScroll(page)
}, { javaScriptEnabled: false })
