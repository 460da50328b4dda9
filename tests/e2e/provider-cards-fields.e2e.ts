// Issue 25's memberships paid through a provider's hosted fields on our page (Braintree, Paylane) in
// Chromium: one club per provider (a school on its subdomain with a monthly membership and the
// provider connected), shared by this file's students; each test is a new student. The student pays
// in the fields, /panel shows the card, the student changes it through the fields; the scheduled
// renewal (the development trigger POST /dev/memberships/renew, as membership-billing.e2e.ts)
// charges the card the provider keeps (Braintree's vault, Paylane's resale of the first sale).
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { billing, cardUpdated, type Club, clubPerProvider, expectRenewedOnce, joinCheckout, membershipIdOf, payInFields } from './provider-cards-support.ts'
import { hostedFieldsReady, PROVIDER_NAME as NAME, typeCard } from './provider-support.ts'
import { browserTest, expectText, unique, url, visit } from './support.ts'

type Provider = 'braintree' | 'paylane'

const theClub = clubPerProvider()

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
  const student = await joinCheckout(context, c, provider, `${unique(`${provider}-club`)}@example.com`)
  await payInFields(student, c, provider, '4111111111111111', /^Pay /)
  await visit(student, url(c.host, '/panel'))
  await expectCard(student, c, provider, /•••• 1111/)
  return { student, membershipId: await membershipIdOf(student, c) }
}

for (const provider of ['braintree', 'paylane'] as const) {
  browserTest(`${provider}: a membership paid through the hosted fields shows its card; the card is changed through the fields`, async ({ page, newContext }) => {
    const c = await theClub(page, provider)
    const { student } = await join(await newContext(), c, provider)
    await billing(student, c)
      .getByRole('button', { name: `Change the card at ${NAME[provider]}` })
      .click()
    await student.waitForURL((u) => u.pathname === '/my/membership/card/fields')
    await hostedFieldsReady(student, provider)
    await typeCard(student, provider, '5555555555554444')
    await student.locator(`[data-hosted-card-form="${provider}"] button[type="submit"]`).click()
    await cardUpdated(student, c)
    await expectCard(student, c, provider, /•••• 4444/)
  })

  browserTest(`${provider}: the scheduled renewal a month later is charged to the card ${NAME[provider]} keeps, once`, async ({ page, newContext }) => {
    const c = await theClub(page, provider)
    const { student, membershipId } = await join(await newContext(), c, provider)
    await expectRenewedOnce(student, c, membershipId)
  })
}
