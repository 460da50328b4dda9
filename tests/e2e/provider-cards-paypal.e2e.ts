// Issue 25's PayPal memberships in Chromium (one club, a school on its subdomain with a monthly
// membership and PayPal connected, shared by this file's students; each test is a new student): the
// student approves on PayPal's page, which vaults the PayPal account; changes it on PayPal's page;
// the scheduled renewal (the development trigger POST /dev/memberships/renew, as
// membership-billing.e2e.ts) charges the vaulted account; a renewal PayPal declines (the sandbox's
// declined-funding buyer) puts the membership at risk with the seed's text in the panel (seed 001 §8
// "last charge not successful (check balance and card validity)") and the reason in the e-mail, and
// after the student approves another account the retry a day later renews it.
import type { BrowserContext, Page } from 'playwright-core'
import { billing, cardUpdated, type Club, clubPerProvider, expectDeclineMail, expectRenewedOnce, expectRetryRenews, joinCheckout, membershipIdOf, renewDeclined } from './provider-cards-support.ts'
import { paymentSucceeded } from './provider-support.ts'
import { browserTest, expectText, unique, url, visit } from './support.ts'

/** The peer's sandbox buyers (workers/dev-peers/src/paypal.ts): every charge of the declined one's money is INSTRUMENT_DECLINED. */
const BUYER = 'sb-buyer@personal.example.com'
const DECLINED_BUYER = 'sb-declined@personal.example.com'

const theClub = clubPerProvider()

/** A new student buys the club, approving with the sandbox buyer on PayPal's page; returns the panel page. */
async function join(context: BrowserContext, c: Club) {
  const email = `${unique('paypal-club')}@example.com`
  const student = await joinCheckout(context, c, 'paypal', email)
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname.startsWith('/paypal/hosted/'))
  await student.getByRole('button', { name: /^(Pay now|Agree and continue)$/ }).click()
  await paymentSucceeded(student, c.host)
  await visit(student, url(c.host, '/panel'))
  await expectText(billing(student, c).locator('[data-membership-card]'), 'Paying with PayPal')
  return { student, email, membershipId: await membershipIdOf(student, c) }
}

/** From the panel, the student approves `buyer`'s account on PayPal's page and is back on the panel. */
async function changeAccount(student: Page, c: Club, buyer: string) {
  await billing(student, c).getByRole('button', { name: 'Change the card at PayPal' }).click()
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && u.pathname === '/paypal/hosted/agreements/approve')
  await student.getByLabel('Email', { exact: true }).fill(buyer)
  await student.getByRole('button', { name: 'Agree and continue' }).click()
  await cardUpdated(student, c)
}

browserTest('PayPal: a membership approved on PayPal’s page; the payment method is changed on PayPal’s page', async ({ page, newContext }) => {
  const c = await theClub(page, 'paypal')
  const { student } = await join(await newContext(), c)
  await changeAccount(student, c, BUYER)
})

browserTest('PayPal: the scheduled renewal a month later is charged to the PayPal account kept in the vault, once', async ({ page, newContext }) => {
  const c = await theClub(page, 'paypal')
  const { student, membershipId } = await join(await newContext(), c)
  await expectRenewedOnce(student, c, membershipId)
})

browserTest('PayPal: a renewal PayPal declines shows the decline text; after approving another account the retry renews', async ({ page, newContext }) => {
  const c = await theClub(page, 'paypal')
  const { student, email, membershipId } = await join(await newContext(), c)
  // An account PayPal vaults, but whose every charge it declines.
  await changeAccount(student, c, DECLINED_BUYER)
  const retryAt = await renewDeclined(student, c, membershipId, 'Sale error')

  // One e-mail about it, naming the reason in the seed's words (PayPal's INSTRUMENT_DECLINED: "Sale error").
  await expectDeclineMail(await (await newContext()).newPage(), email, 'The card issuer gave this reason: Sale error. Check your card details or use another card.')

  // The sandbox buyer's account approved instead; the retry a day later is charged to it.
  await changeAccount(student, c, BUYER)
  await expectRetryRenews(student, c, membershipId, retryAt)
})
