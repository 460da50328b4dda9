// Shared by the provider-cards-*.e2e.ts files (issue 25's memberships per provider): the club (a
// school on its subdomain with a monthly membership and a provider connected), a new student's
// checkout, the membership's billing box in /panel, and the scheduled renewal through the
// development trigger POST /dev/memberships/renew (as membership-billing.e2e.ts) with what the panel
// and the e-mail say after it.
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { connectProvider, fillCheckout, hostedFieldsReady, paymentSucceeded, type Provider, PROVIDER_NAME, typeCard } from './provider-support.ts'
import { expectText, expectUrl, newSchool, platformUrl, publishPaidCourse, signUp, subdomain, unique, url, visit } from './support.ts'

export const DAY = 86_400_000

export type Club = { host: string; slug: string }

/** A new English school in PLN with a course, a monthly membership at `price` zł granting it, and `provider` connected. */
export async function newClub(page: Page, provider: Provider, price = '29'): Promise<Club> {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'PLN')
  await expectUrl(page, host, '/home')
  const course = unique('Club course')
  await publishPaidCourse(page, host, course, '99')
  await visit(page, url(host, '/home/products/new?kind=membership'))
  await page.locator('form[data-step="1"] [name="title"]').fill(unique(`${PROVIDER_NAME[provider]} club`))
  await page.getByRole('button', { name: 'Continue' }).click()
  const step2 = page.locator('form[data-step="2"]')
  await step2.waitFor()
  await step2.locator('[name="price"]').fill(price)
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

/** A school costs most of a test's time: a file's tests share one club per provider, made by the first test that asks. */
export function clubPerProvider() {
  const clubs = new Map<Provider, Promise<Club>>()
  return (page: Page, provider: Provider) => {
    let club = clubs.get(provider)
    if (!club) clubs.set(provider, (club = newClub(page, provider)))
    return club
  }
}

/** A new student's checkout of the club with `provider` (a promo code applied first when given), submitted; returns the student's page. */
export async function joinCheckout(context: BrowserContext, club: Club, provider: Provider, email: string, promoCode?: string) {
  const student = await context.newPage()
  await visit(student, url(club.host, `/${club.slug}/checkout`))
  if (promoCode) {
    await student.locator('form [name="promoCode"]').fill(promoCode)
    await student.locator('form [name="promoCode"]').press('Enter')
    await expectText(student.locator('[data-promo-applied]'), `Code ${promoCode} applied`)
  }
  await fillCheckout(student, { name: 'Stała Członkini', email, password: 'member-pass-123' }, provider)
  await student.locator('[data-checkout-submit]').click()
  return student
}

/** The submitted checkout went to the school's own card page: the student types `number` into the provider's hosted fields and pays with the button named `pay`. */
export async function payInFields(student: Page, club: Club, provider: 'braintree' | 'paylane', number: string, pay: RegExp) {
  await student.waitForURL((u) => u.hostname === club.host && u.pathname.startsWith(`/payments/${provider}/`))
  await hostedFieldsReady(student, provider)
  await typeCard(student, provider, number)
  await student.getByRole('button', { name: pay }).click()
  await paymentSucceeded(student, club.host)
}

/** The membership's billing box in /panel. */
export const billing = (page: Page, club: Club) => page.locator(`[data-panel-membership="${club.slug}"] [data-membership-billing]`)

/** The membership's id, as the panel names it. */
export async function membershipIdOf(page: Page, club: Club) {
  const membershipId = await billing(page, club).getAttribute('data-membership-billing')
  assert.ok(membershipId, 'the panel names the membership')
  return membershipId
}

/** After a card change, back on the panel with the notice. */
export async function cardUpdated(student: Page, club: Club) {
  await student.waitForURL((u) => u.hostname === club.host && u.pathname === '/panel' && /membership_notice=card_updated/.test(u.search))
  await expectText(billing(student, club), 'Your card has been updated.')
}

export type Outcome = { membershipId: string; result: string; reason?: string; failedCharges?: number; nextChargeAt?: number | null; emailed?: boolean }

/** The development trigger: renew this membership as if it were `now` (membership-billing.e2e.ts). */
export async function renew(page: Page, membershipId: string, now: number) {
  const res = await page.request.post(platformUrl('/dev/memberships/renew'), { form: { now: String(now), membership_id: membershipId }, headers: { Origin: new URL(platformUrl()).origin } })
  assert.equal(res.status(), 200)
  return ((await res.json()) as { outcomes: Outcome[] }).outcomes
}

/** The scheduled renewal a month later is charged once (the same run again finds nothing due) and the panel moves the next renewal a period on. */
export async function expectRenewedOnce(student: Page, club: Club, membershipId: string) {
  const renewsOn = await billing(student, club).locator('[data-membership-renews]').innerText()
  const at = Date.now() + 32 * DAY
  const [renewed] = await renew(student, membershipId, at)
  assert.deepEqual([renewed?.result, renewed?.reason, renewed?.failedCharges], ['renewed', undefined, 0], `the renewal's outcome: ${JSON.stringify(renewed)}`)
  // The same run again finds nothing due: the period is paid once.
  assert.deepEqual(await renew(student, membershipId, at), [])
  await visit(student, url(club.host, '/panel'))
  assert.equal(await billing(student, club).getAttribute('data-membership-status'), 'active')
  const renewsNext = await billing(student, club).locator('[data-membership-renews]').innerText()
  assert.notEqual(renewsNext, renewsOn, 'the next renewal moved a period on')
}

/**
 * A month later the renewal is declined: failed once, retried a day later, e-mailed; the panel shows
 * the membership at risk with the seed's text (seed 001 §8 "last charge not successful (check
 * balance and card validity)") and the bank's `answer`. Returns when the retry is due.
 */
export async function renewDeclined(student: Page, club: Club, membershipId: string, answer: string) {
  const t1 = Date.now() + 32 * DAY
  const [declined] = await renew(student, membershipId, t1)
  assert.deepEqual([declined?.result, declined?.reason, declined?.failedCharges, declined?.emailed], ['failed', 'card_declined', 1, true], `the renewal's outcome: ${JSON.stringify(declined)}`)
  assert.equal(declined?.nextChargeAt, t1 + DAY, 'retried a day later')

  await visit(student, url(club.host, '/panel'))
  assert.equal(await billing(student, club).getAttribute('data-membership-status'), 'at_risk')
  await expectText(billing(student, club).locator('[data-subscription-status]'), 'At risk')
  await expectText(
    billing(student, club).locator('[data-membership-payment-problem]'),
    'Payment problem: the last charge was not successful. Check your card balance and validity, or update your card.',
  )
  // … and why, in the seed's words (seed 001 §8), as the e-mail says.
  await expectText(billing(student, club).locator('[data-membership-decline-reason]'), `Your bank’s answer: ${answer}.`)
  return t1 + DAY
}

/** One "Payment problem" e-mail to `email` in /dev/mail (read on `mail`), saying `text`. */
export async function expectDeclineMail(mail: Page, email: string, text: string) {
  await visit(mail, platformUrl('/dev/mail'))
  const rows = mail.locator('tbody tr', { hasText: email }).filter({ hasText: 'Payment problem' })
  await expectText(rows.first(), 'Payment problem: your membership')
  assert.equal(await rows.count(), 1)
  await rows.first().getByRole('link').first().click()
  await expectText(mail.getByTestId('mail-text'), text)
}

/** The retry at `at`, after the payment method was changed, renews: the membership is active again, no payment problem shown. */
export async function expectRetryRenews(student: Page, club: Club, membershipId: string, at: number) {
  const [renewed] = await renew(student, membershipId, at)
  assert.deepEqual([renewed?.result, renewed?.failedCharges], ['renewed', 0], `the retry's outcome: ${JSON.stringify(renewed)}`)
  await visit(student, url(club.host, '/panel'))
  assert.equal(await billing(student, club).getAttribute('data-membership-status'), 'active')
  assert.equal(await billing(student, club).locator('[data-membership-payment-problem]').count(), 0, 'no payment problem any more')
}
