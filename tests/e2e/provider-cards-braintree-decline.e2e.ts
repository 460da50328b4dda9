// Issue 25: a Braintree membership renewal that the card's issuer declines, in Chromium. Braintree's
// sandbox (and its peer, workers/dev-peers/src/braintree.ts) declines a sale of 2000.00–2999.99 with
// the processor response of that amount, so the club costs 2002 zł a month (2002: "Limit Exceeded")
// and a promo code makes the first month 1 zł: the purchase is approved, the renewal at the full
// price is declined. The scheduled renewal (the development trigger POST /dev/memberships/renew, as
// membership-billing.e2e.ts) puts the membership at risk: the panel shows the seed's text (seed 001
// §8 "last charge not successful (check balance and card validity)") and the e-mail the issuer's
// reason in the seed's words ("Card usage limit exceeded").
import assert from 'node:assert/strict'
import { billing, expectDeclineMail, joinCheckout, membershipIdOf, newClub, payInFields, renewDeclined } from './provider-cards-support.ts'
import { browserTest, expectText, unique, url, visit } from './support.ts'

browserTest('Braintree: a renewal the card’s issuer declines puts the membership at risk and shows the decline text', async ({ page, newContext }) => {
  // The owner: a monthly club at 2002 zł, Braintree, and a code that takes 2001 zł off the first payment.
  const club = await newClub(page, 'braintree', '2002')
  const code = unique('FIRST').toUpperCase()
  await visit(page, url(club.host, '/home/promo-codes'))
  const create = page.locator('form[data-promo-create]')
  await create.locator('[name="code"]').fill(code)
  await create.locator('[name="kind"]').selectOption('fixed')
  await create.locator('[name="value"]').fill('2001')
  await create.locator('button[type="submit"]').click()
  await page.locator(`[data-promo-row="${code}"]`).waitFor()

  // The student: the first month with the code, paid in Braintree's fields.
  const email = `${unique('braintree-club')}@example.com`
  const student = await joinCheckout(await newContext(), club, 'braintree', email, code)
  await payInFields(student, club, 'braintree', '4111111111111111', /^Pay .*\b1\.00\b/)
  await visit(student, url(club.host, '/panel'))
  await expectText(billing(student, club).locator('[data-membership-card]'), /•••• 1111/)
  const membershipId = await membershipIdOf(student, club)

  // A month later the renewal at the full price is declined: at risk, retried a day later, one e-mail.
  await renewDeclined(student, club, membershipId, 'Card usage limit exceeded')
  // The card is still the one on file, and can be changed at Braintree from here.
  await expectText(billing(student, club).locator('[data-membership-card]'), /•••• 1111/)
  assert.equal(await billing(student, club).getByRole('button', { name: 'Change the card at Braintree' }).count(), 1)

  await expectDeclineMail(page, email, 'The card issuer gave this reason: Card usage limit exceeded.')
})
