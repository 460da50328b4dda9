// Issue 25 in Chromium, the wallet and card providers on a school's own domain: PayPal (approved on
// PayPal's page), Braintree and Paylane (the card typed into the provider's hosted fields on the
// school's own card page). One school per file (a custom domain costs up to a minute of polling),
// made by the first test that needs it: its domain made active through the DNS peer, a paid course,
// and both providers connected side by side with the dev peers' credentials. Every test then has a
// stranger of its own buy on that domain: checkout → the provider's page played by the peer →
// notification → the app confirms through the provider's API → access; the owner refunds the sale
// in the school's panel (through the provider's API: the money sits in the school's own account)
// and the buyer's access is gone.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { expectAccess, hostedFieldsReady, payOnPeer, type Provider, refundAndRevoke, type Shop, shopOnce, startPurchase, typeCard } from './provider-support.ts'
import { browserTest, expectText } from './support.ts'

const theShop = shopOnce('card course', ['paypal', 'braintree', 'paylane'])

/** The school's own card page for `provider`'s hosted fields, ready to type into. */
async function cardPage(buyer: Page, shop: Shop, provider: Provider) {
  await buyer.waitForURL((u) => u.hostname === shop.host && new RegExp(`^/payments/${provider}/[^/]+/card/[^/]+$`).test(u.pathname))
  await expectText(buyer.locator('main h1'), 'Pay by card')
  await hostedFieldsReady(buyer, provider)
}

browserTest(
  'PayPal on the school’s own domain: a stranger approves on PayPal’s page, the order is captured and the course is theirs; the owner refunds it and the access is gone',
  async ({ page, newContext }) => {
    const shop = await theShop(newContext)
    const { buyer, email } = await startPurchase(await newContext(), shop, 'paypal')
    await payOnPeer(buyer, 'paypal', 'Pay now')
    await expectAccess(buyer, shop)
    await refundAndRevoke(page, buyer, shop, email)
  },
)

browserTest(
  'Braintree on the school’s own domain: a stranger types the card into Braintree’s hosted fields and gets the course; the owner refunds it and the access is gone',
  async ({ page, newContext }) => {
    const shop = await theShop(newContext)
    const { buyer, email } = await startPurchase(await newContext(), shop, 'braintree')
    await buyer.locator('[data-checkout-submit]').click()
    await cardPage(buyer, shop, 'braintree')
    // The fields are the provider's frames (pay.localhost), not inputs of our page.
    assert.equal(await buyer.locator('#hf-number input').count(), 0, 'no card input in our own DOM')
    await typeCard(buyer, 'braintree', '4111111111111111', '12/30')
    await buyer.getByRole('button', { name: /^Pay / }).click()
    await expectAccess(buyer, shop)
    await refundAndRevoke(page, buyer, shop, email)
  },
)

browserTest('Paylane on the school’s own domain: a stranger types the card into PayLane.js’s fields and gets the course; the owner refunds it and the access is gone', async ({ page, newContext }) => {
  const shop = await theShop(newContext)
  const { buyer, email } = await startPurchase(await newContext(), shop, 'paylane')
  await buyer.locator('[data-checkout-submit]').click()
  await cardPage(buyer, shop, 'paylane')
  // PayLane.js's rule: the card inputs have no name, so the card never posts to our server.
  assert.equal(await buyer.locator('[data-hosted-card-form] input[name]:not([type="hidden"])').count(), 0)
  await typeCard(buyer, 'paylane', '4111111111111111', '12/30')
  await buyer.getByRole('button', { name: /^Pay / }).click()
  await expectAccess(buyer, shop)
  await refundAndRevoke(page, buyer, shop, email)
})
