// Keyboard only (issue 23, accessibility): a visitor buys a course and a student completes a lecture
// without touching the mouse — Tab, Shift+Tab, Space, arrows and Enter — and every control that takes
// focus on the way shows it (an outline or a ring).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, buyAsNewVisitor, demoSchool, expectText, subdomain, unique, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const HOST = subdomain(school.slug)
const COURSE = 'javascript-foundations'

/** Press Tab until the focused element matches `selector`; asserts each focus stop is visible. */
async function tabTo(page: Page, selector: string, max = 60) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    const stop = await page.evaluate((sel) => {
      const el = document.activeElement as HTMLElement | null
      if (!el || el === document.body) return { matches: false, visible: true, what: 'body' }
      const style = getComputedStyle(el)
      const visible = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none'
      return { matches: el.matches(sel), visible, what: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}[name=${el.getAttribute('name') ?? ''}] ${el.textContent?.trim().slice(0, 40) ?? ''}` }
    }, selector)
    assert.ok(stop.visible, `the focused element shows no focus indicator: ${stop.what}`)
    if (stop.matches) return
  }
  assert.fail(`${selector} was not reached with ${max} presses of Tab`)
}

browserTest('a visitor buys a course with the keyboard alone', async ({ page }) => {
  const email = `${unique('keys')}@example.com`
  await visit(page, url(HOST, `/${COURSE}`))
  await tabTo(page, '[data-main-action="checkout"]')
  await page.keyboard.press('Enter')
  await page.waitForURL((u) => u.pathname === `/${COURSE}/checkout`)

  await tabTo(page, 'form [name="name"]')
  await page.keyboard.type('Kim Keys')
  await tabTo(page, 'form [name="email"]')
  await page.keyboard.type(email)
  await tabTo(page, 'form [name="password"]')
  await page.keyboard.type('keys-pass-123')
  await tabTo(page, 'form [name="terms"]')
  await page.keyboard.press('Space')
  assert.ok(await page.locator('form [name="terms"]').isChecked(), 'Space ticks the terms')
  if (await page.locator('form [name="waiver"]').count()) {
    await tabTo(page, 'form [name="waiver"]')
    await page.keyboard.press('Space')
  }
  // The payment methods are one radio group: Tab enters it, arrows choose.
  const methods = page.locator('[data-checkout-methods] input[type="radio"]')
  if ((await methods.count()) > 1) {
    await tabTo(page, '[data-checkout-methods] input[type="radio"]')
    for (let i = 0; i < 5 && !(await page.locator('[data-checkout-methods] input[data-provider="test"]').isChecked()); i++) await page.keyboard.press('ArrowDown')
    assert.ok(await page.locator('[data-checkout-methods] input[data-provider="test"]').isChecked(), 'arrows reach the test provider')
  }
  await tabTo(page, '[data-checkout-submit]')
  await page.keyboard.press('Enter')

  await page.locator('[data-test-payment]').waitFor()
  await tabTo(page, 'button[name="outcome"][value="succeeded"]')
  await page.keyboard.press('Enter')
  await expectText(page.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
})

browserTest('a student completes a lecture with the keyboard alone', async ({ page }) => {
  await buyAsNewVisitor(page, HOST, COURSE, { name: 'Lee Lecture', email: `${unique('lecture-keys')}@example.com`, password: 'keys-pass-123' }, 'en')
  await visit(page, url(HOST, `/${COURSE}/watch`))
  await page.waitForURL((u) => u.pathname.startsWith(`/${COURSE}/watch/`))
  await tabTo(page, '[data-complete-toggle="open"]', 120)
  await page.keyboard.press('Enter')
  await page.locator('[data-complete-toggle="completed"]').waitFor()
  await expectText(page.locator('[data-course-progress-text]'), /^1 of \d+ lectures completed/)
  // Shift+Tab goes back through the same controls, and Space undoes it on the focused toggle.
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')
  await page.keyboard.press('Space')
  await page.locator('[data-complete-toggle="open"]').waitFor()
})
