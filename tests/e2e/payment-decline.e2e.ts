// What a buyer sees when a card is declined, and the school's conversion code (issue 18 §3
// acceptance), in a school of its own: a new school sets a conversion code and sells a course
// through the built-in test provider. A buyer pays with the insufficient-funds test card and lands
// on the failure page with the seed's decline text; another pays with a card that works, lands on
// the payment-success page where the conversion code runs — once: a reload goes straight into the
// course. The school switches to Polish and the next declined buyer reads the Polish text.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, choosePayment, expectText, expectUrl, newSchool, signUp, subdomain, unique, url, visit, publishPaidCourse } from './support.ts'

const INSUFFICIENT_FUNDS = '4000000000009995'
const PAYS = '4242424242424242'
// Counts its runs in the page and across loads of this browser context.
const CONVERSION = "<script>window.__conversions = (window.__conversions || 0) + 1; localStorage.setItem('conversions', String(Number(localStorage.getItem('conversions') || 0) + 1))</script>"

/** A new visitor checks out `slug` and pays on the test provider's page with `card`. */
async function payWithCard(page: Page, host: string, slug: string, card: string, language: 'en' | 'pl') {
  await visit(page, url(host, `/${slug}/checkout`))
  await page.locator('form [name="name"]').fill('Karol Kartowy')
  await page.locator('form [name="email"]').fill(`${unique('card')}@example.com`)
  await page.locator('form [name="password"]').fill('karol-pass-123')
  await page.locator('form [name="terms"]').check()
  const waiver = page.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await choosePayment(page, 'test')
  await page.locator('[data-checkout-submit]').click()
  const cards = page.locator('[data-test-cards]')
  await cards.waitFor()
  // The card list is a labelled select: reachable by its label, as a screen reader announces it.
  await page.getByLabel(language === 'pl' ? 'Karta testowa' : 'Test card').selectOption(card)
  await cards.getByRole('button', { name: language === 'pl' ? 'Zapłać tą kartą' : 'Pay with this card' }).click()
}

browserTest('a declined card shows the seed’s reason in the school’s language; the conversion code runs once on the success page', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')

  // The school's conversion code (seed 001 §3 page settings).
  await visit(page, url(host, '/home/settings/page'))
  await page.locator('form [name="conversionCode"]').fill(CONVERSION)
  await page.locator('form[data-page-settings]').getByRole('button', { name: 'Save changes' }).click()
  await expectUrl(page, host, '/home/settings/page')
  await page.locator('[data-done="saved"]').waitFor()

  // A paid course, published.
  const slug = await publishPaidCourse(page, host, unique('Decline course'), '39')

  // Insufficient funds: the failure page says so, with what to do, and the way back.
  const declined = await (await newContext()).newPage()
  await payWithCard(declined, host, slug, INSUFFICIENT_FUNDS, 'en')
  await expectText(declined.locator('[data-pending-result="failure"]'), 'Your payment did not go through', 30_000)
  await expectText(declined.locator('[data-decline="insufficient_funds"]'), 'Insufficient funds')
  await expectText(declined.locator('[data-decline="insufficient_funds"]'), 'Top up your account or use another card.')
  assert.equal(await declined.evaluate(() => (window as unknown as { __conversions?: number }).__conversions ?? 0), 0, 'no conversion on a failed payment')
  await declined.getByRole('link', { name: 'Go back' }).click()
  await expectUrl(declined, host, `/${slug}/checkout`)

  // A card that pays: the success page, where the conversion code runs once.
  const buyer = await (await newContext()).newPage()
  await payWithCard(buyer, host, slug, PAYS, 'en')
  await buyer.waitForURL((u) => u.pathname.endsWith('/success'))
  const success = buyer.url()
  await expectText(buyer.locator('[data-payment-success] [data-pending-result="success"]'), 'Payment successful')
  assert.equal(await buyer.evaluate(() => (window as unknown as { __conversions?: number }).__conversions), 1, 'the conversion code ran on the success page')
  assert.equal(await buyer.evaluate(() => localStorage.getItem('conversions')), '1')
  // Without a script the page still leads on: a visible link into the course.
  const start = buyer.getByRole('link', { name: 'Start' })
  assert.equal(await start.getAttribute('href'), `/${slug}/watch`)
  // Reloading the success page (or the provider's return URL) goes straight on to the course (its
  // player; this one has no lectures yet, so its page): no second conversion.
  const onCourse = (u: URL) => u.pathname === `/${slug}` || u.pathname.startsWith(`/${slug}/watch`)
  await buyer.goto(success)
  await buyer.waitForURL(onCourse)
  await buyer.goto(url(host, new URL(success).pathname.replace(/\/success$/, '/pending')))
  await buyer.waitForURL(onCourse)
  assert.equal(await buyer.evaluate(() => localStorage.getItem('conversions')), '1', 'the conversion ran once per sale')

  // The school switches to Polish: the next declined buyer reads the Polish text.
  await visit(page, url(host, '/home/settings/page'))
  await page.locator('form [name="language"]').selectOption('pl')
  await page.locator('form[data-page-settings]').locator('button[type="submit"]').click()
  await expectUrl(page, host, '/home/settings/page')
  await page.locator('[data-done="saved"]').waitFor()
  const polish = await (await newContext()).newPage()
  await payWithCard(polish, host, slug, INSUFFICIENT_FUNDS, 'pl')
  await expectText(polish.locator('[data-pending-result="failure"]'), 'Twoja płatność nie powiodła się', 30_000)
  await expectText(polish.locator('[data-decline="insufficient_funds"]'), 'Brak wystarczających środków')
  await expectText(polish.locator('[data-decline="insufficient_funds"]'), 'Zasil konto lub użyj innej karty.')

  // The owner's transaction page names the decline too.
  await visit(page, url(host, '/home/transactions?status=failed'))
  await page.locator('[data-transactions] [data-status="failed"]').first().waitFor()
  const failed = await page.locator('[data-transactions] a[href^="/home/transactions/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')))
  assert.ok(failed.length >= 2, `two failed sales listed: ${failed.join(', ')}`)
  await visit(page, url(host, failed[0]!))
  await expectText(page.locator('[data-status-reason]'), 'Brak wystarczających środków')
})
