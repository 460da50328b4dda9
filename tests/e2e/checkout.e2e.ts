// The money path in Chromium (issue 8): a visitor buys a course with the built-in test provider,
// registering in the checkout itself, waits on the pending page and watches; the same checkout
// without JavaScript; an owner's order bump bought with the course; a declined payment offers the
// way back.
import assert from 'node:assert/strict'
import { browserTest, choosePayment, demoSchool, demoUser, expectText, expectUrl, logIn, register, snap, subdomain, unique, url, visit } from './support.ts'

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
  await choosePayment(page, 'test')
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
    // A bad VAT number first: the plain form answers the field error and keeps the rest.
    await page.locator('form [name="invoice"][value="company"]').check()
    await page.locator('form [name="companyName"]').fill('Firma Bez Skryptu')
    await page.locator('form [name="vatNumber"]').fill('PL 12-34')
    await page.locator('form [name="address"]').fill('Polna 1')
    await page.locator('form [name="postalCode"]').fill('12345')
    await page.locator('form [name="city"]').fill('Kraków')
    await page.locator('[data-checkout-submit]').click()
    await expectText(page.locator('[data-field-error="vatNumber"]'), 'Nieprawidłowy format numeru VAT')
    await expectText(page.locator('[data-field-error="postalCode"]'), 'Użyj formatu 12-345')
    await page.locator('form [name="vatNumber"]').fill('PL1234567890')
    await page.locator('form [name="postalCode"]').fill('12-345')
    await page.locator('form [name="password"]').fill('ola-pass-12')
    await choosePayment(page, 'test')
    await page.locator('[data-checkout-submit]').click()
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
  await choosePayment(page, 'test')
  await page.locator('[data-checkout-submit]').click()
  await page.getByRole('button', { name: 'Fail 3-D Secure' }).click()
  await expectText(page.locator('[data-pending-result="failure"]'), 'Your payment did not go through')
  await page.getByRole('link', { name: 'Go back' }).click()
  await expectUrl(page, HOST, '/starter-bundle/checkout')
})

browserTest('the owner offers an order bump and a promo code; a student logs in inside the checkout and pays for the course and the bump with Stripe', async ({ page, newContext }) => {
  const owner = demoUser(academy, 'owner')
  await logIn(page, HOST, owner.email, owner.password)
  await expectUrl(page, HOST, '/home')
  await visit(page, url(HOST, '/home/courses'))
  await page.getByRole('link', { name: 'JavaScript Foundations' }).click()
  await page.waitForURL(/\/home\/products\/[a-z0-9]+$/)
  const editor = page.url()
  const bump = page.locator('[data-product-section="bump"]')
  await bump.locator('[name="bumpProductId"]').selectOption({ label: 'Starter bundle' })
  await bump.locator('[name="bumpPrice"]').fill('19')
  await bump.locator('[name="bumpText"]').fill('Add Git in a Day and keep the whole starter path.')
  await bump.getByRole('button', { name: 'Save order bump' }).click()
  await expectText(page.getByRole('status').first(), 'Changes saved')
  // And a 10 % promo code for every product.
  const promo = unique('bump').toUpperCase()
  await visit(page, url(HOST, '/home/promo-codes'))
  const create = page.locator('form[data-promo-create]')
  await create.locator('[name="code"]').fill(promo)
  await create.locator('[name="kind"]').selectOption('percent')
  await create.locator('[name="value"]').fill('10')
  await create.locator('button[type="submit"]').click()
  await expectText(page.locator('main'), promo)

  try {
    // An account made earlier (its own browser), then logging in inside the checkout.
    const student = { name: 'Lena Login', email: `${unique('lena')}@example.com`, password: 'lena-pass-12' }
    await register(await (await newContext()).newPage(), HOST, student)
    const buyer = await (await newContext()).newPage()
    await visit(buyer, url(HOST, '/javascript-foundations/checkout'))
    await buyer.locator('form [name="mode"][value="login"]').check()
    await buyer.locator('form [name="email"]').fill(student.email)
    await buyer.locator('form [name="password"]').fill(student.password)
    await expectText(buyer.locator('[data-total]'), '$49.00')
    await buyer.locator('[data-order-bump] input[name="bump"]').check()
    // The breakdown follows at once (the same priceOrder() the server charges).
    await expectText(buyer.locator('[data-breakdown="bump"]'), '$19.00')
    await expectText(buyer.locator('[data-total]'), '$68.00')
    // A wrong code, then the owner's: the server re-prices (10 % off the course line only).
    await buyer.locator('form [name="promoCode"]').fill('NO-SUCH-CODE')
    await buyer.getByRole('button', { name: 'Apply' }).click()
    await expectText(buyer.locator('[data-field-error="promoCode"]'), 'Invalid coupon code')
    await buyer.locator('form [name="promoCode"]').fill(promo.toLowerCase())
    await buyer.locator('form [name="promoCode"]').press('Enter')
    await expectText(buyer.locator('[data-promo-applied]'), `Code ${promo} applied`)
    await expectText(buyer.locator('[data-breakdown="discount"]'), '−$4.90')
    await expectText(buyer.locator('[data-total]'), '$63.10')
    await buyer.locator('form [name="password"]').fill(student.password)
    await buyer.locator('form [name="terms"]').check()
    await buyer.locator('form [name="waiver"]').check()
    // Card through Stripe (the school's Stripe integration; its local peer plays Stripe Checkout).
    await choosePayment(buyer, 'stripe')
    await snap(buyer, 'checkout-bump')
    await buyer.getByRole('button', { name: 'Pay $63.10' }).click()
    await buyer.waitForURL(/\/stripe\/pay\/cs_/)
    await expectText(buyer.locator('[data-total]'), '63.10 USD')
    await buyer.getByRole('button', { name: 'Pay', exact: true }).click()
    // The signed checkout.session.completed webhook is in before Stripe sends the buyer back.
    await expectText(buyer.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
    // The bump's bundle is in the student's products.
    await visit(buyer, url(HOST, '/panel'))
    await expectText(buyer.locator('main'), 'Starter bundle')
  } finally {
    // Leave the demo course as it was for the other tests.
    await visit(page, editor)
    await page.locator('[data-product-section="bump"] [name="bumpProductId"]').selectOption('')
    await page.locator('[data-product-section="bump"]').getByRole('button', { name: 'Save order bump' }).click()
    await page.locator('[data-done="bump_saved"]').waitFor()
  }
})
