// Issue 25 in Chromium, the transfer providers on a school's own domain: Przelewy24 (transfer and
// BLIK level 0) and Tpay. One school per file (a custom domain costs up to a minute of polling),
// made by the first test that needs it: its domain made active through the DNS peer, a paid course,
// and both providers connected side by side with the dev peers' credentials. Every test then has a
// stranger of its own buy on that domain: checkout → the provider's page played by the peer →
// notification → the app confirms through the provider's API → access; the owner refunds the sale
// in the school's panel (through the provider's API: the money sits in the school's own account)
// and the buyer's access is gone.
import assert from 'node:assert/strict'
import { expectAccess, onPeer, payOnPeer, refundAndRevoke, shopOnce, startPurchase } from './provider-support.ts'
import { browserTest, expectText, fieldError, url, visit } from './support.ts'

const theShop = shopOnce('transfer course', ['p24', 'tpay'])

browserTest('Przelewy24 on the school’s own domain: a stranger pays by transfer on P24’s page and gets the course; the owner refunds it and the access is gone', async ({ page, newContext }) => {
  const shop = await theShop(newContext)
  const { buyer, email } = await startPurchase(await newContext(), shop, 'p24')
  await payOnPeer(buyer, 'p24', 'Pay by transfer')
  await expectAccess(buyer, shop)
  await refundAndRevoke(page, buyer, shop, email)
})

browserTest('Przelewy24 BLIK level 0 on the school’s own domain: a code typed in our checkout, approved in the “banking app”, gives access', async ({ newContext }) => {
  const shop = await theShop(newContext)
  const { buyer } = await startPurchase(await newContext(), shop, 'p24')
  await buyer.locator('form [name="blik_code"]').fill('777123')
  await buyer.locator('[data-checkout-submit]').click()
  await buyer.waitForURL(onPeer('p24'))
  await expectText(buyer.locator('h2'), 'Confirm in your banking app')
  await buyer.getByRole('button', { name: 'Approve in the app' }).click()
  await expectAccess(buyer, shop)
})

browserTest('Przelewy24 BLIK level 0: a refused code is a field error on our checkout, nothing is paid', async ({ newContext }) => {
  const shop = await theShop(newContext)
  const { buyer } = await startPurchase(await newContext(), shop, 'p24')
  await buyer.locator('form [name="blik_code"]').fill('777000')
  await buyer.locator('[data-checkout-submit]').click()
  await expectText(fieldError(buyer, 'blik_code'), 'This BLIK code was not accepted. Generate a new code in your bank’s app and try again.')
  assert.equal(new URL(buyer.url()).hostname, shop.host, 'still on our checkout')
  assert.match(new URL(buyer.url()).pathname, new RegExp(`^/${shop.slug}/checkout`))
  await visit(buyer, url(shop.host, '/panel'))
  assert.equal(await buyer.locator('main', { hasText: shop.title }).count(), 0, 'no access')
})

browserTest('Tpay on the school’s own domain: a stranger pays by card on Tpay’s page and gets the course; the owner refunds it and the access is gone', async ({ page, newContext }) => {
  const shop = await theShop(newContext)
  const { buyer, email } = await startPurchase(await newContext(), shop, 'tpay')
  await payOnPeer(buyer, 'tpay', 'Pay by card')
  await expectAccess(buyer, shop)
  await refundAndRevoke(page, buyer, shop, email)
})
