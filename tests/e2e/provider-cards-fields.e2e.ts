// Issue 25's memberships paid through a provider's hosted fields on our page (Braintree, Paylane) in
// Chromium: one club per provider (a school on its subdomain with a monthly membership and the
// provider connected), shared by this file's students; each test is a new student. The student pays
// in the fields, /panel shows the card, the student changes it through the fields; the scheduled
// renewal (the development trigger POST /dev/memberships/renew, as membership-billing.e2e.ts)
// charges the card the provider keeps (Braintree's vault, Paylane's resale of the first sale).
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { connectProvider } from './provider-support.ts'
import { browserTest, expectText, expectUrl, newSchool, platformUrl, publishPaidCourse, signUp, subdomain, unique, url, visit } from './support.ts'

type Provider = 'braintree' | 'paylane'
const NAME: Record<Provider, string> = { braintree: 'Braintree', paylane: 'Paylane' }
const DAY = 86_400_000

type Club = { host: string; slug: string }

/** A new English school in PLN with a course, a monthly membership granting it, and `provider` connected. */
async function newClub(page: Page, provider: Provider): Promise<Club> {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'PLN')
  await expectUrl(page, host, '/home')
  const course = unique('Club course')
  await publishPaidCourse(page, host, course, '99')
  await visit(page, url(host, '/home/products/new?kind=membership'))
  await page.locator('form[data-step="1"] [name="title"]').fill(unique(`${NAME[provider]} club`))
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
  await connectProvider(page, host, provider)
  return { host, slug }
}

// A school costs most of a test's time: the first test of a provider makes its club, the next reuses it.
const clubs = new Map<Provider, Promise<Club>>()
function theClub(page: Page, provider: Provider) {
  let club = clubs.get(provider)
  if (!club) clubs.set(provider, (club = newClub(page, provider)))
  return club
}

const billing = (page: Page, c: Club) => page.locator(`[data-panel-membership="${c.slug}"] [data-membership-billing]`)

/** The provider's hosted fields on our page loaded (not the "could not be loaded" state). */
async function fieldsReady(page: Page, provider: Provider) {
  const form = page.locator(`[data-hosted-card-form="${provider}"]`)
  await form.locator('xpath=self::*[@data-state="ready" or @data-state="failed"]').waitFor()
  assert.equal(await form.getAttribute('data-state'), 'ready', `${provider}'s card fields loaded on ${page.url()}`)
}

async function typeCard(page: Page, provider: Provider, number: string) {
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
async function expectCard(page: Page, c: Club, provider: Provider, digits: RegExp) {
  const card = billing(page, c).locator('[data-membership-card]')
  if (provider === 'braintree') return expectText(card, digits)
  await card.waitFor()
  assert.notEqual((await card.innerText()).trim(), 'No card on file', 'the panel says the card kept at PayLane is on file')
}

/** A new student buys the club, typing a card into the provider's fields; returns the panel page. */
async function join(context: BrowserContext, c: Club, provider: Provider) {
  const student = await context.newPage()
  await visit(student, url(c.host, `/${c.slug}/checkout`))
  await student.locator('form [name="name"]').fill('Stała Członkini')
  await student.locator('form [name="email"]').fill(`${unique(`${provider}-club`)}@example.com`)
  await student.locator('form [name="password"]').fill('member-pass-123')
  await student.locator('form [name="terms"]').check()
  const waiver = student.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await student.locator(`[data-checkout-methods] input[data-provider="${provider}"]`).check()
  await student.locator('[data-checkout-submit]').click()
  await student.waitForURL((u) => u.hostname === c.host && u.pathname.startsWith(`/payments/${provider}/`))
  await fieldsReady(student, provider)
  await typeCard(student, provider, '4111111111111111')
  await student.getByRole('button', { name: /^Pay / }).click()
  await student.waitForURL((u) => u.hostname === c.host && u.pathname.startsWith('/transaction/'), { timeout: 30_000 })
  await expectText(student.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
  await visit(student, url(c.host, '/panel'))
  await expectCard(student, c, provider, /•••• 1111/)
  const membershipId = await billing(student, c).getAttribute('data-membership-billing')
  assert.ok(membershipId, 'the panel names the membership')
  return { student, membershipId }
}

type Outcome = { membershipId: string; result: string; reason?: string; failedCharges?: number }

/** The development trigger: renew this membership as if it were `now` (membership-billing.e2e.ts). */
async function renew(page: Page, membershipId: string, now: number) {
  const res = await page.request.post(platformUrl('/dev/memberships/renew'), { form: { now: String(now), membership_id: membershipId }, headers: { Origin: new URL(platformUrl()).origin } })
  assert.equal(res.status(), 200)
  return ((await res.json()) as { outcomes: Outcome[] }).outcomes
}

for (const provider of ['braintree', 'paylane'] as const) {
  browserTest(`${provider}: a membership paid through the hosted fields shows its card; the card is changed through the fields`, async ({ page, newContext }) => {
    const c = await theClub(page, provider)
    const { student } = await join(await newContext(), c, provider)
    await billing(student, c)
      .getByRole('button', { name: `Change the card at ${NAME[provider]}` })
      .click()
    await student.waitForURL((u) => u.pathname === '/my/membership/card/fields')
    await fieldsReady(student, provider)
    await typeCard(student, provider, '5555555555554444')
    await student.locator(`[data-hosted-card-form="${provider}"] button[type="submit"]`).click()
    await student.waitForURL(/membership_notice=card_updated/)
    await expectText(billing(student, c), 'Your card has been updated.')
    await expectCard(student, c, provider, /•••• 4444/)
  })

  browserTest(`${provider}: the scheduled renewal a month later is charged to the card ${NAME[provider]} keeps, once`, async ({ page, newContext }) => {
    const c = await theClub(page, provider)
    const { student, membershipId } = await join(await newContext(), c, provider)
    const renewsOn = await billing(student, c).locator('[data-membership-renews]').innerText()
    const at = Date.now() + 32 * DAY
    const [renewed] = await renew(student, membershipId, at)
    assert.deepEqual([renewed?.result, renewed?.reason, renewed?.failedCharges], ['renewed', undefined, 0], `the renewal's outcome: ${JSON.stringify(renewed)}`)
    // The same run again finds nothing due: the period is paid once.
    assert.deepEqual(await renew(student, membershipId, at), [])
    await visit(student, url(c.host, '/panel'))
    assert.equal(await billing(student, c).getAttribute('data-membership-status'), 'active')
    const renewsNext = await billing(student, c).locator('[data-membership-renews]').innerText()
    assert.notEqual(renewsNext, renewsOn, 'the next renewal moved a period on')
  })
}
