// Issue 25's Tpay memberships in Chromium (one club, a school on its subdomain with a monthly
// membership and Tpay connected, shared by this file's students; each test is a new student): the
// student pays by card on Tpay's page, which keeps the card; changes it on Tpay's page; the
// scheduled renewal (the development trigger POST /dev/memberships/renew, as
// membership-billing.e2e.ts) charges the kept card; a renewal declined by the card's issuer puts the
// membership at risk with the seed's text in the panel (seed 001 §8 "last charge not successful
// (check balance and card validity)") and the issuer's reason in the e-mail, and after a card change
// the retry a day later renews it.
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { billing, cardUpdated, type Club, clubPerProvider, expectDeclineMail, expectRenewedOnce, expectRetryRenews, joinCheckout, membershipIdOf, renewDeclined } from './provider-cards-support.ts'
import { paymentSucceeded } from './provider-support.ts'
import { browserTest, expectText, unique, url, visit } from './support.ts'

/** The peer's cards (workers/dev-peers/src/tpay.ts): 0341 is saved on the card page, but every charge with it is declined (51, insufficient funds). */
const GOOD_CARD = '5500 0000 0000 0004'
const CHARGES_DECLINED = '4000 0000 0000 0341'

const theClub = clubPerProvider()

/** A new student buys the club, paying by card on Tpay's page (which keeps the card); returns the panel page. */
async function join(context: BrowserContext, c: Club) {
  const email = `${unique('tpay-club')}@example.com`
  const student = await joinCheckout(context, c, 'tpay', email)
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname.startsWith('/tpay/hosted/pay/'))
  // A membership keeps the card: the page offers no bank transfer.
  assert.equal(await student.getByRole('button', { name: 'Pay by bank transfer' }).count(), 0)
  await student.getByRole('button', { name: 'Pay by card' }).click()
  await paymentSucceeded(student, c.host)
  await visit(student, url(c.host, '/panel'))
  await expectText(billing(student, c).locator('[data-membership-card]'), /•••• 1111/)
  return { student, email, membershipId: await membershipIdOf(student, c) }
}

/** From the panel, the student saves `number` on Tpay's card page and is back on the panel. */
async function changeCard(student: Page, c: Club, number: string) {
  await billing(student, c).getByRole('button', { name: 'Change the card at Tpay' }).click()
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname.startsWith('/tpay/hosted/card/'))
  await student.getByLabel('Card number').fill(number)
  await student.getByRole('button', { name: 'Save card' }).click()
  await cardUpdated(student, c)
  await expectText(billing(student, c).locator('[data-membership-card]'), `•••• ${number.slice(-4)}`)
}

browserTest('Tpay: a membership paid by card on Tpay’s page shows the card; the card is changed on Tpay’s page', async ({ page, newContext }) => {
  const c = await theClub(page, 'tpay')
  const { student } = await join(await newContext(), c)
  await changeCard(student, c, GOOD_CARD)
})

browserTest('Tpay: the scheduled renewal a month later is charged to the card Tpay keeps, once', async ({ page, newContext }) => {
  const c = await theClub(page, 'tpay')
  const { student, membershipId } = await join(await newContext(), c)
  await expectRenewedOnce(student, c, membershipId)
})

browserTest('Tpay: a renewal declined by the card’s issuer shows the decline text; after a card change the retry renews', async ({ page, newContext }) => {
  const c = await theClub(page, 'tpay')
  const { student, email, membershipId } = await join(await newContext(), c)
  // A card Tpay saves, but whose every charge its issuer declines.
  await changeCard(student, c, CHARGES_DECLINED)
  const retryAt = await renewDeclined(student, c, membershipId, 'Insufficient funds')

  // One e-mail about it, naming the issuer's reason in the seed's words.
  await expectDeclineMail(await (await newContext()).newPage(), email, 'The card issuer gave this reason: Insufficient funds. Top up your account or use another card.')

  // A good card on Tpay's page; the retry a day later is charged to it.
  await changeCard(student, c, GOOD_CARD)
  await expectRetryRenews(student, c, membershipId, retryAt)
})
