// Issue 25's PayPal memberships in Chromium (one club, a school on its subdomain with a monthly
// membership and PayPal connected, shared by this file's students; each test is a new student): the
// student approves on PayPal's page, which vaults the PayPal account; changes it on PayPal's page;
// the scheduled renewal (the development trigger POST /dev/memberships/renew, as
// membership-billing.e2e.ts) charges the vaulted account; a renewal PayPal declines (the sandbox's
// declined-funding buyer) puts the membership at risk with the seed's text in the panel (seed 001 §8
// "last charge not successful (check balance and card validity)") and the reason in the e-mail, and
// after the student approves another account the retry a day later renews it.
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { connectProvider } from './provider-support.ts'
import { browserTest, expectText, expectUrl, newSchool, platformUrl, publishPaidCourse, signUp, subdomain, unique, url, visit } from './support.ts'

const DAY = 86_400_000
/** The peer's sandbox buyers (workers/dev-peers/src/paypal.ts): every charge of the declined one's money is INSTRUMENT_DECLINED. */
const BUYER = 'sb-buyer@personal.example.com'
const DECLINED_BUYER = 'sb-declined@personal.example.com'

type Club = { host: string; slug: string }

/** A new English school in PLN with a course, a monthly membership granting it, and PayPal connected. */
async function newClub(page: Page): Promise<Club> {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'PLN')
  await expectUrl(page, host, '/home')
  const course = unique('Club course')
  await publishPaidCourse(page, host, course, '99')
  await visit(page, url(host, '/home/products/new?kind=membership'))
  await page.locator('form[data-step="1"] [name="title"]').fill(unique('PayPal club'))
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
  await connectProvider(page, host, 'paypal')
  return { host, slug }
}

// A school costs most of a test's time: the first test makes the club, the others reuse it.
let club: Promise<Club> | undefined
const theClub = (page: Page) => (club ??= newClub(page))

const billing = (page: Page, c: Club) => page.locator(`[data-panel-membership="${c.slug}"] [data-membership-billing]`)

/** A new student buys the club, approving with the sandbox buyer on PayPal's page; returns the panel page. */
async function join(context: BrowserContext, c: Club) {
  const student = await context.newPage()
  const email = `${unique('paypal-club')}@example.com`
  await visit(student, url(c.host, `/${c.slug}/checkout`))
  await student.locator('form [name="name"]').fill('Stała Członkini')
  await student.locator('form [name="email"]').fill(email)
  await student.locator('form [name="password"]').fill('member-pass-123')
  await student.locator('form [name="terms"]').check()
  const waiver = student.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await student.locator('[data-checkout-methods] input[data-provider="paypal"]').check()
  await student.locator('[data-checkout-submit]').click()
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname.startsWith('/paypal/hosted/'))
  await student.getByRole('button', { name: /^(Pay now|Agree and continue)$/ }).click()
  await student.waitForURL((u) => u.hostname === c.host && u.pathname.startsWith('/transaction/'), { timeout: 30_000 })
  await expectText(student.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
  await visit(student, url(c.host, '/panel'))
  await expectText(billing(student, c).locator('[data-membership-card]'), 'Paying with PayPal')
  const membershipId = await billing(student, c).getAttribute('data-membership-billing')
  assert.ok(membershipId, 'the panel names the membership')
  return { student, email, membershipId }
}

/** From the panel, the student approves `buyer`'s account on PayPal's page and is back on the panel. */
async function changeAccount(student: Page, c: Club, buyer: string) {
  await billing(student, c).getByRole('button', { name: 'Change the card at PayPal' }).click()
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname === '/paypal/hosted/agreements/approve')
  await student.getByLabel('Email', { exact: true }).fill(buyer)
  await student.getByRole('button', { name: 'Agree and continue' }).click()
  await student.waitForURL((u) => u.hostname === c.host && u.pathname === '/panel' && /membership_notice=card_updated/.test(u.search))
  await expectText(billing(student, c), 'Your card has been updated.')
}

type Outcome = { membershipId: string; result: string; reason?: string; failedCharges?: number; nextChargeAt?: number | null; emailed?: boolean }

/** The development trigger: renew this membership as if it were `now` (membership-billing.e2e.ts). */
async function renew(page: Page, membershipId: string, now: number) {
  const res = await page.request.post(platformUrl('/dev/memberships/renew'), { form: { now: String(now), membership_id: membershipId }, headers: { Origin: new URL(platformUrl()).origin } })
  assert.equal(res.status(), 200)
  return ((await res.json()) as { outcomes: Outcome[] }).outcomes
}

browserTest('PayPal: a membership approved on PayPal’s page; the payment method is changed on PayPal’s page', async ({ page, newContext }) => {
  const c = await theClub(page)
  const { student } = await join(await newContext(), c)
  await changeAccount(student, c, BUYER)
})

browserTest('PayPal: the scheduled renewal a month later is charged to the PayPal account kept in the vault, once', async ({ page, newContext }) => {
  const c = await theClub(page)
  const { student, membershipId } = await join(await newContext(), c)
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

browserTest('PayPal: a renewal PayPal declines shows the decline text; after approving another account the retry renews', async ({ page, newContext }) => {
  const c = await theClub(page)
  const { student, email, membershipId } = await join(await newContext(), c)
  // An account PayPal vaults, but whose every charge it declines.
  await changeAccount(student, c, DECLINED_BUYER)
  const t1 = Date.now() + 32 * DAY
  const [declined] = await renew(student, membershipId, t1)
  assert.deepEqual([declined?.result, declined?.reason, declined?.failedCharges, declined?.emailed], ['failed', 'card_declined', 1, true], `the renewal's outcome: ${JSON.stringify(declined)}`)
  assert.equal(declined?.nextChargeAt, t1 + DAY, 'retried a day later')

  await visit(student, url(c.host, '/panel'))
  assert.equal(await billing(student, c).getAttribute('data-membership-status'), 'at_risk')
  await expectText(billing(student, c).locator('[data-subscription-status]'), 'At risk')
  await expectText(billing(student, c).locator('[data-membership-payment-problem]'), 'Payment problem: the last charge was not successful. Check your card balance and validity, or update your card.')
  // … and why, in the seed's words (seed 001 §8), as the e-mail says.
  await expectText(billing(student, c).locator('[data-membership-decline-reason]'), 'Your bank’s answer: Sale error.')

  // One e-mail about it, naming the reason in the seed's words (PayPal's INSTRUMENT_DECLINED: "Sale error").
  const mail = await (await newContext()).newPage()
  await visit(mail, platformUrl('/dev/mail'))
  const rows = mail.locator('tbody tr', { hasText: email }).filter({ hasText: 'Payment problem' })
  await expectText(rows.first(), 'Payment problem: your membership')
  assert.equal(await rows.count(), 1)
  await rows.first().getByRole('link').first().click()
  await expectText(mail.getByTestId('mail-text'), 'The card issuer gave this reason: Sale error. Check your card details or use another card.')

  // The sandbox buyer's account approved instead; the retry a day later is charged to it.
  await changeAccount(student, c, BUYER)
  const [renewed] = await renew(student, membershipId, t1 + DAY)
  assert.deepEqual([renewed?.result, renewed?.failedCharges], ['renewed', 0], `the retry's outcome: ${JSON.stringify(renewed)}`)
  await visit(student, url(c.host, '/panel'))
  assert.equal(await billing(student, c).getAttribute('data-membership-status'), 'active')
  assert.equal(await billing(student, c).locator('[data-membership-payment-problem]').count(), 0, 'no payment problem any more')
})
