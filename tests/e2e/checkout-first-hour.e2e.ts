// Issue 23 items 4, 9, 10 and 11 in Chromium: a new English/USD school's checkout shows no VAT line
// and follows the owner's Taxes card; the consent links to the school's /terms and /privacy, which
// the owner edits; the success page names product, amount and order number; the simplified
// checkout (only name, e-mail and consents) completes without JavaScript. Writes the checkout's
// screenshots (test-results/screenshots/checkout-{desktop,mobile}.png).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, choosePayment, expectText, expectUrl, heading, newSchool, screenshotSet, signUp, subdomain, unique, url, visit } from './support.ts'

/** The owner, signed in on `host`, creates a paid file product (a course would need a published lecture) and publishes it. */
async function publishPaidFile(page: Page, host: string, title: string, price: string) {
  await visit(page, url(host, '/home/products/new?kind=file'))
  await page.locator('form[data-step="1"] [name="title"]').fill(title)
  await page.locator('form[data-step="1"] button[type="submit"]').click()
  const step2 = page.locator('form[data-step="2"]')
  await step2.waitFor()
  await step2.locator('[name="price"]').fill(price)
  await step2.locator('button[type="submit"]').last().click()
  await page.waitForURL(/\/home\/products\/[a-z2-7]+$/)
  await page.locator('[data-done="created"]').waitFor()
  const slug = await page.locator('form [name="slug"]').inputValue()
  await page.locator('form:has(input[name="intent"][value="publish"]) button[type="submit"]').click()
  await page.locator('[data-done="published"]').waitFor()
  return slug
}

async function saveTax(page: Page, host: string, mode: 'vat' | 'none', rate = '23') {
  await visit(page, url(host, '/home/settings/payments'))
  const card = page.locator('[data-tax-settings]')
  await card.locator(`input[name="vatMode"][value="${mode}"]`).check()
  if (mode === 'vat') await card.locator('input[name="defaultVatRate"]').fill(rate)
  await card.getByRole('button', { name: 'Save tax settings' }).click()
  await expectText(page.locator('[data-done="tax"]'), 'Tax settings saved.')
}

browserTest('a USD school: no VAT line unless the owner charges VAT; legal pages linked and editable; the success page names the order', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  const title = `Cheat sheets ${unique('cs')}`
  const slug = await publishPaidFile(page, host, title, '49')

  const visitor = await (await newContext()).newPage()
  const checkout = url(host, `/${slug}/checkout`)
  // Item 4: an English/USD school starts without VAT: no "Including VAT" on a US sale.
  await visit(visitor, checkout)
  await expectText(visitor.locator('[data-total]'), '$49.00')
  assert.equal(await visitor.locator('[data-breakdown="vat"]').count(), 0)
  assert.equal(await visitor.getByText('Including VAT').count(), 0)

  // The owner charges VAT at 23 %: the line appears with the VAT contained in the price…
  await saveTax(page, host, 'vat', '23')
  await visit(visitor, checkout)
  await expectText(visitor.locator('[data-breakdown="vat"]'), 'Including VAT$9.16')
  // …and "No VAT" removes it again (the product still holds its 23 %).
  await saveTax(page, host, 'none')
  await visit(visitor, checkout)
  assert.equal(await visitor.locator('[data-breakdown="vat"]').count(), 0)

  // Item 9: the consent's "terms of sale" and "privacy policy" are links to the school's pages.
  const [terms] = await Promise.all([visitor.context().waitForEvent('page'), visitor.getByRole('link', { name: 'terms of sale', exact: true }).click()])
  await terms.waitForLoadState()
  assert.equal(new URL(terms.url()).pathname, '/terms')
  await expectText(terms.locator('main h1').first(), 'Terms of sale')
  await expectText(terms.locator('[data-legal-page="terms"]'), school.name)
  await terms.close()
  assert.equal(await visitor.getByRole('link', { name: 'privacy policy', exact: true }).getAttribute('href'), '/privacy')

  // The owner writes their own terms (the payments page links to the editor).
  await visit(page, url(host, '/home/settings/payments'))
  await page.getByRole('link', { name: 'Edit terms of sale and privacy policy' }).click()
  await expectUrl(page, host, '/home/settings/legal')
  await page.getByLabel('Terms of sale (Markdown)').fill('# Our terms\n\nRefunds within **30 days**.')
  await page.getByRole('button', { name: 'Save legal pages' }).click()
  await expectText(page.locator('[data-done="saved"]'), 'Legal pages saved.')
  await visit(visitor, url(host, '/terms'))
  await expectText(heading(visitor), 'Our terms')
  await expectText(visitor.locator('[data-legal-page="terms"] strong'), '30 days')

  // The checkout, filled in, at 1280 and 390 px; then the purchase.
  await visit(visitor, checkout)
  await visitor.locator('form [name="name"]').fill('Uma Buyer')
  await visitor.locator('form [name="email"]').fill(`${unique('uma')}@example.com`)
  await visitor.locator('form [name="password"]').fill('uma-pass-12')
  await visitor.locator('form [name="terms"]').check()
  await visitor.locator('form [name="waiver"]').check()
  await choosePayment(visitor, 'test')
  await screenshotSet(visitor, 'checkout')
  await visitor.locator('[data-checkout-submit]').click()
  await visitor.locator('[data-test-payment]').waitFor()
  await visitor.getByRole('button', { name: 'Pay', exact: true }).click()
  await expectText(visitor.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
  // Item 10: product, amount and order number; nothing to rate before any progress.
  assert.match(new URL(visitor.url()).pathname, /^\/transaction\/[a-z0-9]+\/success$/)
  const summary = visitor.locator('[data-order-summary]')
  await expectText(summary, 'Order number')
  await expectText(summary, title)
  await expectText(summary, '$49.00')
  assert.equal(await visitor.locator('[data-rate-course]').count(), 0)
})

browserTest('the simplified checkout asks only name, e-mail and consents, and completes without JavaScript (Polish school)', async ({ page, newContext }) => {
  const school = newSchool('pl')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  const title = `Szablony ${unique('sz')}`
  const slug = await publishPaidFile(page, host, title, '49')
  // The owner turns the simplified checkout on (page settings).
  await visit(page, url(host, '/home/settings/page'))
  const form = page.locator('form:has([name="simplifiedCheckout"])')
  await form.locator('[name="simplifiedCheckout"]').check()
  await form.locator('button[type="submit"]').last().click()
  await page.locator('[data-done]').first().waitFor()

  const visitor = await (await newContext({ javaScriptEnabled: false })).newPage()
  await visit(visitor, url(host, `/${slug}/checkout`))
  for (const field of ['invoice', 'companyName', 'vatNumber', 'address', 'postalCode', 'city', 'country']) assert.equal(await visitor.locator(`form [name="${field}"]`).count(), 0, field)
  // Refused without the consents, with the reason under them.
  await visitor.locator('form [name="name"]').fill('Ala Prosta')
  await visitor.locator('form [name="email"]').fill(`${unique('ala')}@example.com`)
  await visitor.locator('[data-checkout-submit]').click()
  await expectText(visitor.locator('[data-error="terms"]'), 'Ta zgoda jest wymagana')
  await visitor.locator('form [name="terms"]').check()
  await visitor.locator('form [name="waiver"]').check()
  await choosePayment(visitor, 'test')
  await visitor.locator('[data-checkout-submit]').click()
  await visitor.locator('[data-test-payment]').waitFor()
  await expectText(visitor.locator('[data-amount]'), '49,00')
  await visitor.getByRole('button', { name: 'Zapłać', exact: true }).click()
  await expectText(visitor.locator('[data-pending-result="success"]'), 'Płatność zakończona sukcesem', 30_000)
  const summary = visitor.locator('[data-order-summary]')
  await expectText(summary, 'Numer zamówienia')
  await expectText(summary, title)
})
