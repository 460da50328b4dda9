// Issue 25: a Braintree membership renewal that the card's issuer declines, in Chromium. Braintree's
// sandbox (and its peer, workers/dev-peers/src/braintree.ts) declines a sale of 2000.00–2999.99 with
// the processor response of that amount, so the club costs 2002 zł a month (2002: "Limit Exceeded")
// and a promo code makes the first month 1 zł: the purchase is approved, the renewal at the full
// price is declined. The scheduled renewal (the development trigger POST /dev/memberships/renew, as
// membership-billing.e2e.ts) puts the membership at risk: the panel shows the seed's text (seed 001
// §8 "last charge not successful (check balance and card validity)") and the e-mail the issuer's
// reason in the seed's words ("Card usage limit exceeded").
import assert from 'node:assert/strict'
import { connectProvider } from './provider-support.ts'
import { browserTest, expectText, expectUrl, newSchool, platformUrl, publishPaidCourse, signUp, subdomain, unique, url, visit } from './support.ts'

const DAY = 86_400_000

type Outcome = { membershipId: string; result: string; reason?: string; failedCharges?: number; nextChargeAt?: number | null; emailed?: boolean }

browserTest('Braintree: a renewal the card’s issuer declines puts the membership at risk and shows the decline text', async ({ page, newContext }) => {
  // The owner: a monthly club at 2002 zł, Braintree, and a code that takes 2001 zł off the first payment.
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'PLN')
  await expectUrl(page, host, '/home')
  const course = unique('Club course')
  await publishPaidCourse(page, host, course, '99')
  await visit(page, url(host, '/home/products/new?kind=membership'))
  await page.locator('form[data-step="1"] [name="title"]').fill(unique('Braintree club'))
  await page.getByRole('button', { name: 'Continue' }).click()
  const step2 = page.locator('form[data-step="2"]')
  await step2.waitFor()
  await step2.locator('[name="price"]').fill('2002')
  await step2.locator('[name="membershipPeriod"]').selectOption('1')
  await step2.getByLabel(course).check()
  await step2.getByRole('button', { name: 'Create product' }).click()
  await page.waitForURL(/\/home\/products\/[a-z2-7]+$/)
  await page.locator('[data-done="created"]').waitFor()
  const slug = await page.locator('form [name="slug"]').inputValue()
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.locator('[data-done="published"]').waitFor()
  await connectProvider(page, host, 'braintree')
  const code = unique('FIRST').toUpperCase()
  await visit(page, url(host, '/home/promo-codes'))
  const create = page.locator('form[data-promo-create]')
  await create.locator('[name="code"]').fill(code)
  await create.locator('[name="kind"]').selectOption('fixed')
  await create.locator('[name="value"]').fill('2001')
  await create.locator('button[type="submit"]').click()
  await page.locator(`[data-promo-row="${code}"]`).waitFor()

  // The student: the first month with the code, paid in Braintree's fields.
  const student = await (await newContext()).newPage()
  const email = `${unique('braintree-club')}@example.com`
  await visit(student, url(host, `/${slug}/checkout`))
  await student.locator('form [name="promoCode"]').fill(code)
  await student.locator('form [name="promoCode"]').press('Enter')
  await expectText(student.locator('[data-promo-applied]'), `Code ${code} applied`)
  await student.locator('form [name="name"]').fill('Stała Członkini')
  await student.locator('form [name="email"]').fill(email)
  await student.locator('form [name="password"]').fill('member-pass-123')
  await student.locator('form [name="terms"]').check()
  const waiver = student.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await student.locator('[data-checkout-methods] input[data-provider="braintree"]').check()
  await student.locator('[data-checkout-submit]').click()
  await student.waitForURL((u) => u.hostname === host && u.pathname.startsWith('/payments/braintree/'))
  const fields = student.locator('[data-hosted-card-form="braintree"]')
  await fields.locator('xpath=self::*[@data-state="ready" or @data-state="failed"]').waitFor()
  assert.equal(await fields.getAttribute('data-state'), 'ready', `Braintree's card fields loaded on ${student.url()}`)
  await student.frameLocator('#hf-number iframe').locator('#f').fill('4111111111111111')
  await student.frameLocator('#hf-expiry iframe').locator('#f').fill('11/31')
  await student.frameLocator('#hf-cvv iframe').locator('#f').fill('123')
  await student.getByRole('button', { name: /^Pay .*\b1\.00\b/ }).click()
  await student.waitForURL((u) => u.hostname === host && u.pathname.startsWith('/transaction/'), { timeout: 30_000 })
  await expectText(student.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
  await visit(student, url(host, '/panel'))
  const billing = student.locator(`[data-panel-membership="${slug}"] [data-membership-billing]`)
  await expectText(billing.locator('[data-membership-card]'), /•••• 1111/)
  const membershipId = await billing.getAttribute('data-membership-billing')
  assert.ok(membershipId, 'the panel names the membership')

  // A month later the renewal at the full price is declined: at risk, retried a day later, one e-mail.
  const t1 = Date.now() + 32 * DAY
  const res = await student.request.post(platformUrl('/dev/memberships/renew'), { form: { now: String(t1), membership_id: membershipId }, headers: { Origin: new URL(platformUrl()).origin } })
  assert.equal(res.status(), 200)
  const [declined] = ((await res.json()) as { outcomes: Outcome[] }).outcomes
  assert.deepEqual([declined?.result, declined?.reason, declined?.failedCharges, declined?.emailed], ['failed', 'card_declined', 1, true], `the renewal's outcome: ${JSON.stringify(declined)}`)
  assert.equal(declined?.nextChargeAt, t1 + DAY, 'retried a day later')

  await visit(student, url(host, '/panel'))
  assert.equal(await billing.getAttribute('data-membership-status'), 'at_risk')
  await expectText(billing.locator('[data-subscription-status]'), 'At risk')
  await expectText(billing.locator('[data-membership-payment-problem]'), 'Payment problem: the last charge was not successful. Check your card balance and validity, or update your card.')
  // … and why, in the seed's words (seed 001 §8), as the e-mail says.
  await expectText(billing.locator('[data-membership-decline-reason]'), 'Your bank’s answer: Card usage limit exceeded.')
  // The card is still the one on file, and can be changed at Braintree from here.
  await expectText(billing.locator('[data-membership-card]'), /•••• 1111/)
  assert.equal(await billing.getByRole('button', { name: 'Change the card at Braintree' }).count(), 1)

  await visit(page, platformUrl('/dev/mail'))
  const rows = page.locator('tbody tr', { hasText: email }).filter({ hasText: 'Payment problem' })
  await expectText(rows.first(), 'Payment problem: your membership')
  assert.equal(await rows.count(), 1)
  await rows.first().getByRole('link').first().click()
  await expectText(page.getByTestId('mail-text'), 'The card issuer gave this reason: Card usage limit exceeded.')
})
