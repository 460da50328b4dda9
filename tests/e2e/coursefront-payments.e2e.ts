// Coursefront payments (issue 18 §1) in Chromium against the Stripe peer: a new school without an
// account of its own sets up payouts with Stripe Connect (the peer's hosted Express onboarding,
// its account.updated webhook on the platform host), a buyer pays by card through the platform's
// Stripe, the sale is split at Stripe, and the owner refunds it from the transaction's page.
import assert from 'node:assert/strict'
import { browserTest, choosePayment, expectText, expectUrl, newSchool, signUp, snap, subdomain, unique, url, visit, publishPaidCourse } from './support.ts'

browserTest('a school sets up Stripe payouts, sells through Coursefront payments split at Stripe, and refunds the sale', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'USD')
  await expectUrl(page, host, '/home')

  // Payouts not set up yet; the owner goes to Stripe's onboarding and comes back.
  await visit(page, url(host, '/home/settings/payments'))
  const stripe = page.locator('[data-marketplace-provider="stripe"]')
  await expectText(stripe, 'Payouts not set up')
  await stripe.getByRole('button', { name: 'Set up payouts with Stripe' }).click()
  await page.waitForURL(/\/stripe\/connect\/onboard\//)
  await page.getByLabel('Legal name').fill('Ewa Testowa')
  await page.getByRole('button', { name: 'Agree and submit' }).click()
  await page.waitForURL(/\/home\/settings\/payments$/)
  await expectText(page.locator('[data-done="stripe_enabled"]'), 'Stripe payouts are active')
  await expectText(page.locator('[data-marketplace-provider="stripe"]'), 'Payouts active')
  await snap(page, 'coursefront payments enabled')

  // A paid course, published.
  const title = unique('Card course')
  const slug = await publishPaidCourse(page, host, title, '49')

  // A buyer pays by card through Coursefront payments (the platform's Stripe).
  const buyer = await (await newContext()).newPage()
  await visit(buyer, url(host, `/${slug}/checkout`))
  await buyer.locator('form [name="name"]').fill('Cora Card')
  await buyer.locator('form [name="email"]').fill(`${unique('cora')}@example.com`)
  await buyer.locator('form [name="password"]').fill('buyer-pass-123')
  await buyer.locator('form [name="terms"]').check()
  await buyer.locator('form [name="waiver"]').check()
  await choosePayment(buyer, 'stripe')
  await buyer.locator('[data-checkout-submit]').click()
  await buyer.waitForURL(/\/stripe\/pay\/cs_/)
  await buyer.getByRole('button', { name: 'Pay', exact: true }).click()
  await expectText(buyer.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)

  // The owner sees the sale as split at Stripe and refunds it.
  await visit(page, url(host, '/home/transactions'))
  await page.getByRole('link', { name: title }).first().click()
  await page.waitForURL(/\/home\/transactions\/[a-z2-7]+$/)
  const refund = page.locator('[data-refund-panel]')
  await expectText(refund, 'The provider takes your share back from your payouts')
  await refund.getByLabel('I understand that the buyer loses access').check()
  await refund.getByRole('button', { name: 'Refund $49.00' }).click()
  await page.waitForURL(/\?refund=done$/)
  await expectText(page.locator('[data-refund-outcome="done"]'), 'The sale was refunded')
  assert.equal(await page.locator('[data-refund-panel] form').count(), 0, 'no second refund offered')
})
