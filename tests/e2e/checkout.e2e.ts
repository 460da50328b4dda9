// The money path in Chromium (issue 8): a visitor buys a course with the built-in test provider,
// registering in the checkout itself, waits on the pending page and watches; the same checkout
// without JavaScript; a declined payment offers the way back.
import assert from 'node:assert/strict'
import { browserTest, demoSchool, expectText, expectUrl, snap, subdomain, unique, url, visit } from './support.ts'

const academy = demoSchool('code-academy')
const HOST = subdomain(academy.slug)
const kasi = demoSchool('akademia-kasi')
const KASI = subdomain(kasi.slug)

browserTest('a visitor buys a course with the test provider (slow confirmation), sees the pending page turn to success, and watches', async ({ page }) => {
  await visit(page, url(HOST, '/javascript-foundations'))
  await page.locator('[data-main-action="checkout"]').first().click()
  await expectUrl(page, HOST, '/javascript-foundations/checkout')
  // Refused first: no consents.
  await page.locator('form [name="name"]').fill('Nina Newbuyer')
  await page.locator('form [name="email"]').fill(`${unique('nina')}@example.com`)
  await page.locator('form [name="password"]').fill('nina-pass-1')
  await page.getByRole('button', { name: 'Pay $49.00' }).click()
  await expectText(page.locator('[data-error="terms"]'), 'This consent is required')
  await expectText(page.locator('[data-error="waiver"]'), 'This consent is required')
  await page.locator('form [name="password"]').fill('nina-pass-1')
  await page.locator('form [name="terms"]').check()
  await page.locator('form [name="waiver"]').check()
  await expectText(page.locator('[data-total]'), '$49.00')
  await snap(page, 'checkout')
  await page.getByRole('button', { name: 'Pay $49.00' }).click()

  await page.locator('[data-test-payment]').waitFor()
  await expectText(page.locator('[data-amount]'), '$49.00')
  await page.getByRole('button', { name: 'Pay (slow confirmation)' }).click()
  await page.locator('[data-pending="PENDING"]').waitFor()
  await expectText(page.getByRole('status'), 'Transaction processing...')
  // The confirmation arrives seconds later; the page polls every 5 s and turns to success.
  await expectText(page.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
  await snap(page, 'pending-success')
  await page.getByRole('link', { name: 'Start' }).click()
  await page.waitForURL(/\/javascript-foundations\/watch\//)
  await page.locator('[data-player-controls]').waitFor()
  assert.equal(await page.locator('[data-no-access]').count(), 0)
})

browserTest(
  'without JavaScript the checkout completes with the test provider (Polish school)',
  async ({ page }) => {
    await visit(page, url(KASI, '/budzet-domowy-od-zera/checkout'))
    await expectText(page.locator('[data-lowest-price]'), 'Najniższa cena z ostatnich 30 dni')
    await page.locator('form [name="name"]').fill('Ola Bez Skryptu')
    await page.locator('form [name="email"]').fill(`${unique('ola')}@example.com`)
    await page.locator('form [name="password"]').fill('ola-pass-12')
    await page.locator('form [name="terms"]').check()
    await page.locator('form [name="waiver"]').check()
    await page.locator('main form button[type="submit"]').click()
    await page.locator('[data-test-payment]').waitFor()
    await page.getByRole('button', { name: 'Zapłać', exact: true }).click()
    await expectText(page.locator('[data-pending-result="success"]'), 'Płatność zakończona sukcesem')
    await page.getByRole('link', { name: 'Zaczynamy' }).click()
    await page.waitForURL(/\/budzet-domowy-od-zera\/watch\//)
    assert.equal(await page.locator('[data-no-access]').count(), 0)
  },
  { javaScriptEnabled: false },
)

browserTest('a declined payment says so and leads back to the checkout', async ({ page }) => {
  await visit(page, url(HOST, '/starter-bundle/checkout'))
  await page.locator('form [name="name"]').fill('Dan Declined')
  await page.locator('form [name="email"]').fill(`${unique('dan')}@example.com`)
  await page.locator('form [name="password"]').fill('dan-pass-12')
  await page.locator('form [name="terms"]').check()
  await page.locator('form [name="waiver"]').check()
  await page.locator('main form button[type="submit"]').click()
  await page.getByRole('button', { name: 'Fail 3-D Secure' }).click()
  await expectText(page.locator('[data-pending-result="failure"]'), 'Your payment did not go through')
  await page.getByRole('link', { name: 'Go back' }).click()
  await expectUrl(page, HOST, '/starter-bundle/checkout')
})
