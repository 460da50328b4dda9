// Issue 25's card-kept-at-the-provider memberships in Chromium (each test a school of its own, on
// its subdomain): a student buys a monthly membership with a provider that keeps the card, /panel
// shows the card, the student changes it through the provider (its hosted fields on our page, or
// its own page) and the panel says the card is updated; a scheduled renewal (the development
// trigger POST /dev/memberships/renew, as membership-billing.e2e.ts) charges the stored card.
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { browserTest, expectText, expectUrl, newSchool, platformUrl, publishPaidCourse, signUp, subdomain, unique, url, visit } from './support.ts'

type Provider = 'tpay' | 'paypal' | 'braintree' | 'paylane'

/** The dev peers' development accounts (the exported constants of workers/dev-peers/src/<p>.ts). */
const CREDENTIALS: Record<Provider, Record<string, string>> = {
  tpay: { clientId: '1010-c0a5e7d1f2b34a59', clientSecret: 'coursefront_dev_tpay_secret_0000000000000000000000', merchantId: '1010' },
  paypal: { clientId: 'AcoursefrontDevPaypalClient0000000000000001', clientSecret: 'EcoursefrontDevPaypalSecret00000000000000001' },
  braintree: { merchantId: 'coursefrontdev', publicKey: 'cf_dev_braintree_public', privateKey: 'cf_dev_braintree_private_key_00000000', merchantAccountId: 'coursefront_pln' },
  paylane: {
    apiLogin: 'coursefront_dev',
    apiPassword: 'coursefront_dev_paylane_password_0000',
    publicApiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
    notificationToken: 'coursefront_dev_paylane_notify_token_00',
  },
}
const DAY = 86_400_000

type Club = { host: string; slug: string; title: string }

/** A new English school in PLN with a course, a monthly membership granting it, and `provider` connected. */
async function clubWith(page: Page, provider: Provider): Promise<Club> {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'PLN')
  await expectUrl(page, host, '/home')
  const course = unique('Club course')
  await publishPaidCourse(page, host, course, '99')
  const title = unique(`${provider} club`)
  await visit(page, url(host, '/home/products/new?kind=membership'))
  await page.locator('form[data-step="1"] [name="title"]').fill(title)
  await page.getByRole('button', { name: 'Continue' }).click()
  const step2 = page.locator('form[data-step="2"]')
  await step2.waitFor()
  await step2.locator('[name="price"]').fill('29')
  await step2.locator('[name="membershipPeriod"]').selectOption('1')
  await step2.getByLabel(course).check()
  await step2.getByRole('button', { name: 'Create product' }).click()
  await page.waitForURL(/\/home\/products\/[a-z2-7]+$/)
  await page.locator('[data-done="created"]').waitFor()
  const slug = await page.locator('form [name="slug"]').inputValue()
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.locator('[data-done="published"]').waitFor()

  await visit(page, url(host, '/home/settings/payments'))
  const form = page.locator(`[data-payment-form="${provider}"]`)
  for (const [name, value] of Object.entries(CREDENTIALS[provider])) await form.locator(`[name="${name}"]`).fill(value)
  await form.locator('[name="currency"]').selectOption('PLN')
  await form.locator('[name="sandbox"]').selectOption('yes')
  await form.getByRole('button', { name: 'Connect' }).click()
  await page.locator(`[data-payment-integration="${provider}-PLN"]`).waitFor()
  return { host, slug, title }
}

/** A new student's checkout of the club with `provider`, submitted. */
async function checkOut(context: BrowserContext, club: Club, provider: Provider) {
  const student = await context.newPage()
  await visit(student, url(club.host, `/${club.slug}/checkout`))
  await student.locator('form [name="name"]').fill('Stała Członkini')
  await student.locator('form [name="email"]').fill(`${unique(`${provider}-club`)}@example.com`)
  await student.locator('form [name="password"]').fill('member-pass-123')
  await student.locator('form [name="terms"]').check()
  const waiver = student.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await student.locator(`[data-checkout-methods] input[data-provider="${provider}"]`).check()
  await student.locator('[data-checkout-submit]').click()
  return student
}

async function paid(student: Page, club: Club) {
  await student.waitForURL((u) => u.hostname === club.host && u.pathname.startsWith('/transaction/'), { timeout: 30_000 })
  await expectText(student.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
}

const billing = (page: Page, club: Club) => page.locator(`[data-panel-membership="${club.slug}"] [data-membership-billing]`)

/** The provider's hosted fields on our page loaded (not the "could not be loaded" state). */
async function fieldsReady(page: Page, provider: Provider) {
  const form = page.locator(`[data-hosted-card-form="${provider}"]`)
  await form.locator('xpath=self::*[@data-state="ready" or @data-state="failed"]').waitFor()
  assert.equal(await form.getAttribute('data-state'), 'ready', `${provider}'s card fields loaded on ${page.url()}`)
}

async function typeCard(page: Page, provider: 'braintree' | 'paylane', number: string) {
  if (provider === 'braintree') {
    await page.frameLocator('#hf-number iframe').locator('#f').fill(number)
    await page.frameLocator('#hf-expiry iframe').locator('#f').fill('11/31')
    await page.frameLocator('#hf-cvv iframe').locator('#f').fill('123')
  } else {
    await page.locator('#hf-number input').fill(number)
    await page.locator('#hf-expiry input').fill('11/31')
    await page.locator('#hf-cvv input').fill('123')
  }
}

/**
 * The panel names the card the provider keeps: Braintree gives its digits; PayLane's sale does not
 * (the adapter stores no brand or last 4), so there the panel must at least not say "No card on file".
 */
async function expectCard(page: Page, club: Club, provider: 'braintree' | 'paylane', digits: RegExp) {
  const card = billing(page, club).locator('[data-membership-card]')
  if (provider === 'braintree') return expectText(card, digits)
  await card.waitFor()
  assert.notEqual((await card.innerText()).trim(), 'No card on file', 'the panel says the card kept at PayLane is on file')
}

/** The development trigger: renew this membership as if it were `now` (membership-billing.e2e.ts). */
async function renew(page: Page, membershipId: string, now: number) {
  const res = await page.request.post(platformUrl('/dev/memberships/renew'), { form: { now: String(now), membership_id: membershipId }, headers: { Origin: new URL(platformUrl()).origin } })
  assert.equal(res.status(), 200)
  return ((await res.json()) as { outcomes: Array<{ membershipId: string; result: string; reason?: string }> }).outcomes
}

for (const provider of ['braintree', 'paylane'] as const) {
  browserTest(`${provider}: a membership paid through the hosted fields shows its card; the card is changed through the fields`, async ({ page, newContext }) => {
    const club = await clubWith(page, provider)
    const student = await checkOut(await newContext(), club, provider)
    await student.waitForURL((u) => u.hostname === club.host && u.pathname.startsWith(`/payments/${provider}/`))
    await fieldsReady(student, provider)
    await typeCard(student, provider, '4111111111111111')
    await student.getByRole('button', { name: /^Pay / }).click()
    await paid(student, club)

    await visit(student, url(club.host, '/panel'))
    await expectCard(student, club, provider, /•••• 1111/)
    await billing(student, club)
      .getByRole('button', { name: `Change the card at ${provider === 'braintree' ? 'Braintree' : 'Paylane'}` })
      .click()
    await student.waitForURL((u) => u.pathname === '/my/membership/card/fields')
    await fieldsReady(student, provider)
    await typeCard(student, provider, '5555555555554444')
    await student.locator(`[data-hosted-card-form="${provider}"] button[type="submit"]`).click()
    await student.waitForURL(/membership_notice=card_updated/)
    await expectText(billing(student, club), 'Your card has been updated.')
    await expectCard(student, club, provider, /•••• 4444/)
  })
}

/** A new student buys the club with Tpay, paying by card on Tpay's page (which keeps the card). */
async function joinWithTpay(context: BrowserContext, club: Club) {
  const student = await checkOut(context, club, 'tpay')
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname.startsWith('/tpay/hosted/pay/'))
  // A membership keeps the card: the page offers no bank transfer.
  assert.equal(await student.getByRole('button', { name: 'Pay by bank transfer' }).count(), 0)
  await student.getByRole('button', { name: 'Pay by card' }).click()
  await paid(student, club)
  await visit(student, url(club.host, '/panel'))
  await expectText(billing(student, club).locator('[data-membership-card]'), /•••• 1111/)
  return student
}

browserTest('Tpay: a membership paid by card on Tpay’s page shows the card; the card is changed on Tpay’s page', async ({ page, newContext }) => {
  const club = await clubWith(page, 'tpay')
  const student = await joinWithTpay(await newContext(), club)
  await billing(student, club).getByRole('button', { name: 'Change the card at Tpay' }).click()
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname.startsWith('/tpay/hosted/card/'))
  await student.getByLabel('Card number').fill('5500 0000 0000 0004')
  await student.getByRole('button', { name: 'Save card' }).click()
  await student.waitForURL((u) => u.hostname === club.host && u.pathname === '/panel' && /membership_notice=card_updated/.test(u.search))
  await expectText(billing(student, club), 'Your card has been updated.')
  await expectText(billing(student, club).locator('[data-membership-card]'), /•••• 0004/)
})

browserTest('Tpay: the scheduled renewal a month later is charged to the card Tpay keeps', async ({ page, newContext }) => {
  const club = await clubWith(page, 'tpay')
  const student = await joinWithTpay(await newContext(), club)
  const membershipId = (await billing(student, club).getAttribute('data-membership-billing'))!
  const [renewed] = await renew(student, membershipId, Date.now() + 32 * DAY)
  assert.deepEqual([renewed?.result, renewed?.reason], ['renewed', undefined], `the renewal's outcome: ${JSON.stringify(renewed)}`)
  await visit(student, url(club.host, '/panel'))
  assert.equal(await billing(student, club).getAttribute('data-membership-status'), 'active')
})

browserTest('PayPal: a membership approved on PayPal’s page; the payment method is changed on PayPal’s page', async ({ page, newContext }) => {
  const club = await clubWith(page, 'paypal')
  const student = await checkOut(await newContext(), club, 'paypal')
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname.startsWith('/paypal/hosted/'))
  await student.getByRole('button', { name: /^(Pay now|Agree and continue)$/ }).click()
  await paid(student, club)
  await visit(student, url(club.host, '/panel'))
  await expectText(billing(student, club).locator('[data-membership-card]'), 'Paying with PayPal')
  await billing(student, club).getByRole('button', { name: 'Change the card at PayPal' }).click()
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname === '/paypal/hosted/agreements/approve')
  await student.getByRole('button', { name: 'Agree and continue' }).click()
  await student.waitForURL((u) => u.hostname === club.host && u.pathname === '/panel' && /membership_notice=card_updated/.test(u.search))
  await expectText(billing(student, club), 'Your card has been updated.')
})
