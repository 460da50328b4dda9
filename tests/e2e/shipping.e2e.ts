// Shipping states of a physical order in Chromium (issue 24 item 4), on the demo school: the owner
// creates and publishes a physical product, a visitor buys it to a parcel locker through the test
// provider; the owner finds it in "Orders to ship", marks it shipped (a bad tracking link refused
// first) and then delivered on the transaction page; the buyer follows each state in /panel, and
// both e-mails are in /dev/mail.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, checkA11y, choosePayment, demoSchool, demoUser, expectText, expectUrl, fieldError, logIn, platformUrl, snap, subdomain, unique, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const owner = demoUser(school, 'owner')

async function createPhysicalProduct(page: Page, title: string) {
  await visit(page, url(host, '/home/products/new?kind=physical'))
  await page.locator('form[data-step="1"] [name="title"]').fill(title)
  await page.getByRole('button', { name: 'Continue' }).click()
  const step2 = page.locator('form[data-step="2"]')
  await step2.waitFor()
  await step2.locator('[name="price"]').fill('25')
  await step2.locator('[name="shippingCourierPrice"]').fill('15')
  await step2.locator('[name="shippingLockerPrice"]').fill('9.99')
  await step2.getByRole('button', { name: 'Create product' }).click()
  await page.waitForURL(/\/home\/products\/[a-z2-7]+$/)
  await page.locator('[data-done="created"]').waitFor()
  const slug = await page.locator('form [name="slug"]').inputValue()
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.locator('[data-done="published"]').waitFor()
  return slug
}

browserTest('a physical order moves ready → shipped → delivered; the buyer sees each state and gets one e-mail per move', async ({ page, newContext }) => {
  await logIn(page, host, owner.email, owner.password)
  await expectUrl(page, host, '/home')
  const title = unique('Enamel mug')
  const slug = await createPhysicalProduct(page, title)

  // A visitor buys it to a parcel locker, registering at the checkout, and pays with the test provider.
  const buyerContext = await newContext()
  const buyer = await buyerContext.newPage()
  const email = `${unique('parcel')}@example.com`
  await visit(buyer, url(host, `/${slug}/checkout`))
  await buyer.locator('form [name="name"]').fill('Paula Parcel')
  await buyer.locator('form [name="email"]').fill(email)
  await buyer.locator('form [name="password"]').fill('paula-pass-1')
  await buyer.locator('form [name="shipmentType"][value="parcel_locker"]').check()
  await buyer.locator('form [name="parcelLockerCode"]').fill('WAW22A')
  await buyer.locator('form [name="terms"]').check()
  const waiver = buyer.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await choosePayment(buyer, 'test')
  await buyer.locator('[data-checkout-submit]').click()
  await buyer.locator('[data-test-payment]').waitFor()
  await buyer.getByRole('button', { name: 'Pay', exact: true }).click()
  await expectText(buyer.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)

  await visit(buyer, url(host, '/panel'))
  const shipment = buyer.locator('[data-panel-physical] [data-shipment-state]').first()
  await expectText(shipment, 'Ready for shipping')
  await expectText(shipment.locator('[data-locker-code]'), 'WAW22A')

  // The owner: Orders to ship → the order's page.
  await visit(page, url(host, '/home/shipping'))
  await expectText(page.locator('main h1').first(), 'Orders to ship')
  const orderRow = page.locator('[data-order]', { hasText: title })
  await expectText(orderRow, 'Parcel locker WAW22A')
  await snap(page, 'orders-to-ship')
  await orderRow.getByRole('link').first().click()
  await page.waitForURL(/\/home\/transactions\/[a-z0-9]+$/)
  await checkA11y(page)
  const card = page.locator('[data-transaction-shipping]')
  await expectText(card.locator('[data-shipping-state]'), 'Ready for shipping')
  await expectText(card.locator('[data-locker-code]'), 'WAW22A')

  // A link that is not a web address is refused with a field error; nothing moves.
  const form = page.locator('[data-ship-form]')
  await form.locator('[name="carrier"]').fill('InPost')
  await form.locator('[name="trackingNumber"]').fill('6300999888777')
  await form.locator('[name="trackingUrl"]').fill('ftp://inpost.example/6300999888777')
  await form.getByRole('button', { name: 'Mark as shipped' }).click()
  await expectText(fieldError(page, 'trackingUrl'), 'Enter a link that starts with http:// or https://')
  await checkA11y(page, true)
  await expectText(card.locator('[data-shipping-state]'), 'Ready for shipping')
  await form.locator('[name="trackingUrl"]').fill('https://inpost.pl/sledzenie-przesylek?number=6300999888777')
  await form.getByRole('button', { name: 'Mark as shipped' }).click()
  await page.locator('[data-done="shipped"]').waitFor()
  await expectText(card.locator('[data-shipping-state]'), 'Shipped')
  await expectText(card.locator('[data-shipping-carrier]'), 'InPost')
  await checkA11y(page, true)
  await snap(page, 'transaction-shipped')

  await visit(buyer, url(host, '/panel'))
  await expectText(shipment, 'Shipped with InPost')
  await expectText(shipment.locator('[data-tracking-number]'), '6300999888777')
  assert.equal(await shipment.locator('[data-tracking-url]').getAttribute('href'), 'https://inpost.pl/sledzenie-przesylek?number=6300999888777')

  await page.locator('[data-deliver-form]').getByRole('button', { name: 'Mark as delivered' }).click()
  await page.locator('[data-done="delivered"]').waitFor()
  await expectText(card.locator('[data-shipping-state]'), 'Delivered')
  assert.equal(await page.locator('[data-ship-form], [data-deliver-form]').count(), 0)

  await visit(buyer, url(host, '/panel'))
  await expectText(shipment, 'Delivered on')
  await expectText(shipment.locator('[data-locker-code]'), 'WAW22A')
  await snap(buyer, 'panel-delivered')

  // One e-mail per move, to the buyer.
  await visit(page, platformUrl('/dev/mail'))
  const rows = page.locator('tbody tr', { hasText: email })
  await expectText(rows, `Your order has shipped: ${title}`)
  await expectText(rows, `Your order was delivered: ${title}`)
  assert.equal(await rows.filter({ hasText: 'Your order has shipped' }).count(), 1)
  assert.equal(await rows.filter({ hasText: 'Your order was delivered' }).count(), 1)
  await rows.filter({ hasText: 'Your order has shipped' }).first().getByRole('link').click()
  const text = (await page.getByTestId('mail-text').textContent()) ?? ''
  assert.match(text, /has shipped with InPost/)
  assert.match(text, /Tracking number: 6300999888777/)
  assert.match(text, /WAW22A/)
})
