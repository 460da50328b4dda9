// The balance page of a school with both kinds of sales (issue 18 §1 acceptance), in a school of
// its own (the demo schools' figures move while other files run): a new school in PLN connects its
// own PayU account (the PayU peer), sells one course through the built-in test provider (money held
// by Coursefront, on hold for 7 days) and one through its PayU (collected by the school, its fee
// owed). The balance page shows each figure with its explanation and the fee debt, offers no
// withdrawal and says why; the same page in Polish once the school switches language.
// Not reachable from a browser here (lower tiers cover them): a sale past its 7-day hold and a
// sale split at the provider (tests/integration/fee-statements.test.ts).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { DEFAULT_FEE_BASIS_POINTS, DEFAULT_FEE_FIXED, platformFee } from '#app/payments/pricing.ts'
import { browserTest, choosePayment, expectText, expectUrl, heading, newSchool, signUp, snap, subdomain, unique, url, visit, publishPaidCourse } from './support.ts'

const PRICE = 10_000
const FEE = platformFee(PRICE, { basisPoints: DEFAULT_FEE_BASIS_POINTS, fixed: DEFAULT_FEE_FIXED.PLN! })
/** 12345 → "PLN 123.45" (en-US formatting of PLN, as the page writes it). */
const pln = (minor: number) => `PLN ${(minor / 100).toFixed(2)}`
const plPln = (minor: number) => `${(minor / 100).toFixed(2).replace('.', ',')} zł`

async function buy(page: Page, host: string, slug: string, provider: 'test' | 'payu') {
  await visit(page, url(host, `/${slug}/checkout`))
  await page.locator('form [name="name"]').fill('Bartek Buyer')
  await page.locator('form [name="email"]').fill(`${unique('buyer')}@example.com`)
  await page.locator('form [name="password"]').fill('buyer-pass-123')
  await page.locator('form [name="terms"]').check()
  const waiver = page.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await choosePayment(page, provider)
  await page.locator('[data-checkout-submit]').click()
  if (provider === 'test') {
    await page.locator('[data-test-payment]').waitFor()
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
  } else {
    await page.waitForURL(/\/payu\/pay\/[A-Z0-9]+$/)
    await page.getByRole('button', { name: 'Pay', exact: true }).click()
  }
  await expectText(page.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
}

browserTest('a school with a sale held by Coursefront and one it collected itself sees the right figures and explanations', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'PLN')
  await expectUrl(page, host, '/home')

  // Page settings first (seed 001 §5), then the school's own PayU account in PLN.
  await visit(page, url(host, '/home/settings/page'))
  await page.locator('form [name="authorName"]').fill('Ewa Testowa')
  await page.locator('form [name="contactEmail"]').fill(school.owner.email)
  await page.locator('form[data-page-settings]').getByRole('button', { name: 'Save changes' }).click()
  await expectUrl(page, host, '/home/settings/page')
  await page.locator('[data-done="saved"]').waitFor()
  await visit(page, url(host, '/home/settings/payments'))
  const payu = page.locator('[data-payment-form="payu"]')
  await payu.locator('[name="posId"]').fill('300746')
  await payu.locator('[name="clientId"]').fill('300746')
  await payu.locator('[name="clientSecret"]').fill('coursefront_dev_payu_client_secret_000')
  await payu.locator('[name="secondKey"]').fill('coursefront_dev_payu_second_key_0000')
  await payu.locator('[name="currency"]').selectOption('PLN')
  await payu.getByRole('button', { name: 'Connect' }).click()
  await page.locator('[data-done="created"]').waitFor()

  // A paid course, published.
  const title = unique('Budgeting course')
  const slug = await publishPaidCourse(page, host, title, String(PRICE / 100))

  // Two buyers: one through the test provider (Coursefront's account), one through the school's PayU.
  const buyer = await (await newContext()).newPage()
  await buy(buyer, host, slug, 'test')
  const second = await (await newContext()).newPage()
  await buy(second, host, slug, 'payu')

  await visit(page, url(host, '/home/balance'))
  await expectText(heading(page), 'Balance')
  const card = page.locator('[data-balance="PLN"]')
  const figure = (name: string) => card.locator(`[data-figure="${name}"]`)
  await expectText(figure('collected-by-school'), pln(PRICE))
  await expectText(card, 'Collected by you (1 sale)')
  await expectText(card, 'Paid straight into your own payment accounts (PayU, Stripe). This money is already yours: Coursefront never pays it out.')
  await expectText(card, 'Held by Coursefront')
  await expectText(figure('sales'), pln(PRICE))
  await expectText(figure('fees'), `− ${pln(FEE)}`)
  await expectText(figure('on-hold'), `− ${pln(PRICE - FEE)}`)
  await expectText(card, /The next part becomes available on \w+ \d{1,2}, \d{4}\./)
  await expectText(figure('fees-owed'), `− ${pln(FEE)}`)
  await expectText(card, "Coursefront's fee on sales paid into your own accounts, taken from the money Coursefront holds for you.")
  await expectText(figure('available'), pln(0))
  await expectText(card, 'This is what a withdrawal pays to your bank account.')
  // The held sale is still on hold, so nothing covers the fee owed yet: a debt, explained.
  await expectText(figure('debt'), `You owe Coursefront ${pln(FEE)} in fees.`)
  // No withdrawal while the net is below zero, and the card says why.
  assert.equal(await card.locator('[data-withdraw]').count(), 0, 'no withdrawal button')
  await expectText(card.locator('[data-withdraw-unavailable]'), `No withdrawal is possible while you owe Coursefront ${pln(FEE)} in fees on the sales you collected.`)
  assert.equal(await card.locator('[data-figure="paid-out-by-provider"]').count(), 0, 'no split sales, no split rows')
  await expectText(page.locator('[data-fee-statements-empty]'), 'No fee statements yet.')
  await snap(page, 'balance-both-kinds')

  // The owner's transaction list shows both sales completed.
  await visit(page, url(host, '/home/transactions?status=completed'))
  assert.equal(await page.locator('[data-transactions] [data-status="completed"]').count(), 2)

  // In Polish: the school switches language; the same figures, in Polish words.
  await visit(page, url(host, '/home/settings/page'))
  await page.locator('form [name="language"]').selectOption('pl')
  await page.locator('form[data-page-settings]').locator('button[type="submit"]').click()
  await expectUrl(page, host, '/home/settings/page')
  await page.locator('[data-done="saved"]').waitFor()
  await visit(page, url(host, '/home/balance'))
  await expectText(heading(page), 'Saldo')
  await expectText(card, 'Zebrane przez Ciebie (1 sprzedaż)')
  await expectText(figure('collected-by-school'), plPln(PRICE))
  await expectText(figure('debt'), `Zalegasz Coursefront ${plPln(FEE)} z tytułu prowizji.`)
  await expectText(card, 'Pieniądze przechowywane przez Coursefront, których wstrzymanie się skończyło')
})
