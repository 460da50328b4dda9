// Payment provider settings (issue 8 item 3) in Chromium against the Stripe dev peer: the owner of
// Code Academy connects Stripe in EUR (the key is checked by creating the webhook endpoint), is
// refused a duplicate, disables and deletes it; without JavaScript a refused key shows its field
// error and the test provider is added and deleted. Everything added is taken back (e2e runs share
// one database; other tests buy at Code Academy in USD, so only EUR is touched here).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, fieldError, heading, logIn, snap, subdomain, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const owner = demoUser(school, 'owner')
const STRIPE_KEY = 'sk_test_coursefront_dev_0000000000000000'

const row = (page: Page, key: string) => page.locator(`[data-payment-integration="${key}"]`)
const form = (page: Page, provider: string) => page.locator(`[data-payment-form="${provider}"]`)

async function openSettings(page: Page) {
  await logIn(page, host, owner.email, owner.password)
  await page.waitForURL((u) => u.pathname !== '/login')
  await visit(page, url(host, '/home/settings/payments'))
  await expectText(heading(page), 'Payments')
}

async function deleteRow(page: Page, key: string) {
  const target = row(page, key)
  await target.locator('[data-delete-integration] [name="confirm"]').fill('DELETE')
  await target.locator('[data-delete-integration]').getByRole('button', { name: 'Delete' }).click()
  await expectText(page.locator('[data-done="deleted"]'), 'Integration deleted')
  assert.equal(await row(page, key).count(), 0, `${key} is gone`)
}

browserTest('the owner connects Stripe in EUR, is refused a duplicate, disables and deletes it', async ({ page }) => {
  await openSettings(page)
  // The demo school's own Stripe USD integration is listed; its secrets are not.
  await row(page, 'stripe-USD').waitFor()
  assert.equal(await row(page, 'stripe-EUR').count(), 0, 'no EUR integration before the test')

  const stripe = form(page, 'stripe')
  await stripe.locator('[name="secretKey"]').fill(STRIPE_KEY)
  await stripe.locator('[name="currency"]').selectOption('EUR')
  await stripe.getByRole('button', { name: 'Connect' }).click()
  await expectText(page.locator('[data-done="created"]'), 'Integration created')
  const added = row(page, 'stripe-EUR')
  await expectText(added, '…0000')
  await expectText(added.locator('[data-integration-status]'), 'Enabled')
  assert.equal((await page.content()).includes(STRIPE_KEY), false, 'the secret key is never shown back')
  await snap(page, 'payment settings')

  // The same provider and currency again.
  await form(page, 'stripe').locator('[name="secretKey"]').fill(STRIPE_KEY)
  await form(page, 'stripe').locator('[name="currency"]').selectOption('EUR')
  await form(page, 'stripe').getByRole('button', { name: 'Connect' }).click()
  await expectText(fieldError(page, 'currency'), 'A duplicate integration is rejected: Stripe in EUR is already connected.')
  assert.equal(await page.locator('[data-payment-integration="stripe-EUR"]').count(), 1, 'still one Stripe EUR')

  await row(page, 'stripe-EUR').getByRole('button', { name: 'Disable' }).click()
  await page.locator('[data-done="disabled"]').waitFor()
  await expectText(row(page, 'stripe-EUR').locator('[data-integration-status]'), 'Disabled')

  // Delete needs DELETE typed.
  await row(page, 'stripe-EUR').getByRole('button', { name: 'Delete' }).click()
  await page.waitForURL(/error=/)
  await expectText(page.getByRole('alert'), 'Type DELETE to delete the integration.')
  await deleteRow(page, 'stripe-EUR')
  await row(page, 'stripe-USD').waitFor()
})

browserTest(
  'without JavaScript: a refused key shows its field error, and the test provider is added and deleted',
  async ({ page }) => {
    await openSettings(page)
    const stripe = form(page, 'stripe')
    await stripe.locator('[name="secretKey"]').fill('sk_test_not_the_peer_key_0000000')
    await stripe.locator('[name="currency"]').selectOption('EUR')
    await stripe.getByRole('button', { name: 'Connect' }).click()
    await expectText(fieldError(page, 'secretKey'), 'Stripe refused this secret key.')
    assert.equal(await row(page, 'stripe-EUR').count(), 0, 'nothing saved')

    const test = form(page, 'test')
    await test.locator('[name="currency"]').selectOption('EUR')
    await test.getByRole('button', { name: 'Connect' }).click()
    await page.locator('[data-done="created"]').waitFor()
    await expectText(row(page, 'test-EUR'), 'Test provider')
    await deleteRow(page, 'test-EUR')
  },
  { javaScriptEnabled: false },
)
