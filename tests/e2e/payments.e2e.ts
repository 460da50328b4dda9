// Real provider protocols in Chromium (issue 8 acceptance): a visitor buys on a school's custom
// domain with PayU — the local PayU peer takes the order (OAuth, order create, 302 redirectUri),
// the buyer pays on its hosted page, the peer sends the signed notifications (PENDING, then
// COMPLETED) to the school's notify URL, and the buyer lands on the pending page and watches.
import assert from 'node:assert/strict'
import { browserTest, choosePayment, demoSchool, expectText, unique, url, visit } from './support.ts'

const kasi = demoSchool('akademia-kasi')
const CUSTOM = 'akademia-kasi.test'

browserTest('a visitor buys a course on the school’s own domain with PayU, sees success on the pending page and watches', async ({ page }) => {
  assert.ok(kasi.customDomains.includes(CUSTOM), 'the demo school has its own domain')
  await visit(page, url(CUSTOM, '/budzet-domowy-od-zera/checkout'))
  await page.locator('form [name="name"]').fill('Piotr PayU')
  await page.locator('form [name="email"]').fill(`${unique('piotr')}@example.com`)
  await page.locator('form [name="password"]').fill('piotr-pass-12')
  await page.locator('form [name="terms"]').check()
  await page.locator('form [name="waiver"]').check()
  // PayU is the school's default for PLN; the test provider is offered next to it in development.
  assert.equal(await page.locator('[data-checkout-methods] input[data-provider="payu"]').isChecked(), true)
  await choosePayment(page, 'payu')
  const total = (await page.locator('[data-total]').innerText()).trim()
  await page.locator('[data-checkout-submit]').click()

  // PayU's hosted page (the peer), reached through the order's redirectUri.
  await page.waitForURL(/\/payu\/pay\/[A-Z0-9]+$/)
  await expectText(page.locator('[data-status]'), 'NEW')
  const amount = (await page.locator('[data-total]').innerText()).trim()
  assert.match(amount, / PLN$/)
  assert.equal(amount.replace(' PLN', '').replace('.', ','), total.replace(/\s|zł/g, ''), `PayU charges the checkout's total (${total})`)
  await page.getByRole('button', { name: 'Pay', exact: true }).click()

  // Back on the school's own domain: the signed COMPLETED notification is already in.
  await page.waitForURL((u) => u.hostname === CUSTOM && u.pathname.startsWith('/transaction/'))
  await expectText(page.locator('[data-pending-result="success"]'), 'Płatność zakończona sukcesem', 30_000)
  await page.getByRole('link', { name: 'Zaczynamy' }).click()
  await page.waitForURL((u) => u.hostname === CUSTOM && /\/budzet-domowy-od-zera\/watch\//.test(u.pathname))
  assert.equal(await page.locator('[data-no-access]').count(), 0)
})

browserTest('a PayU payment cancelled on the hosted page ends as a failure with the way back', async ({ page }) => {
  await visit(page, url(CUSTOM, '/budzet-domowy-od-zera/checkout'))
  await page.locator('form [name="name"]').fill('Anna Anuluje')
  await page.locator('form [name="email"]').fill(`${unique('anna')}@example.com`)
  await page.locator('form [name="password"]').fill('anna-pass-12')
  await page.locator('form [name="terms"]').check()
  await page.locator('form [name="waiver"]').check()
  await choosePayment(page, 'payu')
  await page.locator('[data-checkout-submit]').click()
  await page.waitForURL(/\/payu\/pay\/[A-Z0-9]+$/)
  await page.getByRole('button', { name: 'Cancel payment' }).click()
  await expectText(page.locator('[data-pending-result="failure"]'), 'Twoja płatność nie powiodła się', 30_000)
  await page.getByRole('link', { name: 'Wróć' }).click()
  await page.waitForURL((u) => u.hostname === CUSTOM && u.pathname === '/budzet-domowy-od-zera/checkout')
})
