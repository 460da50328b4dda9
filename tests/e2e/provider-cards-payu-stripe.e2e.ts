// Issue 25's PayU and Stripe memberships in Chromium (each test a school of its own, on its
// subdomain). PayU: the first payment through PayU's Secure Form on the school's card page (the
// PayU peer's SDK; the order pays the one-time token with `recurring: FIRST`, PayU keeps a TOKC_),
// the scheduled renewal charged to that card (the development trigger POST /dev/memberships/renew,
// as membership-billing.e2e.ts), a new card through the same fields and the next renewal. Stripe: a
// membership paid on Stripe Checkout whose card is changed (once, then again) on Stripe Checkout in
// setup mode (the Stripe peer).
import assert from 'node:assert/strict'
import type { BrowserContext, Page } from 'playwright-core'
import { billing, cardUpdated, type Club, DAY, joinCheckout, membershipIdOf, newClub, renew } from './provider-cards-support.ts'
import { hostedFieldsReady, paymentSucceeded, peerJson } from './provider-support.ts'
import { browserTest, expectText, unique, url, visit } from './support.ts'

const PRICE = 29

type PayuOrder = { orderId: string; totalAmount: string | number; currencyCode: string; status: string; buyer?: { email?: string }; payMethod?: { type: string } }
type PayuCardToken = { token: string; kind: string; masked: string; status: string }

/** A Luhn-valid 16-digit test card starting with `prefix`, random otherwise: its masked form is this test's own. */
function uniqueCard(prefix: string) {
  const body = prefix + Array.from({ length: 15 - prefix.length }, () => Math.floor(Math.random() * 10)).join('')
  const sum = [...body].reverse().reduce((acc, ch, i) => {
    const d = Number(ch) * (i % 2 ? 1 : 2)
    return acc + (d > 9 ? d - 9 : d)
  }, 0)
  return `${body}${(10 - (sum % 10)) % 10}`
}
/** PayU's masked number (first six, last four). */
const maskedOf = (card: string) => `${card.slice(0, 6)}${'*'.repeat(card.length - 10)}${card.slice(-4)}`
/** The multi-use token (TOKC_) PayU keeps for `card`: exactly one. */
async function keptToken(card: string) {
  const kept = (await peerJson<{ tokens: PayuCardToken[] }>('/_peer/payu/card-tokens')).tokens.filter((t) => t.kind === 'TOKC' && t.masked === maskedOf(card))
  assert.equal(kept.length, 1, `PayU keeps ${maskedOf(card)} as one multi-use token`)
  return kept[0]!.token
}

/** The card typed into PayU's Secure Form inputs (drawn by PayU's script: no name, never posted to us). */
async function typeCard(page: Page, number: string) {
  const field = (type: string) => page.locator(`[data-payu-secure-form="${type}"]`)
  await field('number').fill(number)
  await field('date').fill('11/31')
  await field('cvv').fill('123')
  for (const type of ['number', 'date', 'cvv']) assert.equal(await field(type).getAttribute('name'), null, `the ${type} input has no name: it is never posted to the school`)
}

const ordersOf = async (email: string) => (await peerJson<{ orders: PayuOrder[] }>('/_peer/payu/orders')).orders.filter((o) => o.buyer?.email === email)

browserTest('PayU: a membership paid through the Secure Form renews with the kept card token; the card is changed through the Secure Form', async ({ page, newContext }) => {
  const club = await newClub(page, 'payu', String(PRICE))
  const email = `${unique('payu-club')}@example.com`
  const student = await joinCheckout(await newContext(), club, 'payu', email)
  const [firstCard, newCard] = [uniqueCard('4'), uniqueCard('55')]

  // No PayU page for a membership: the school's own card page with PayU's Secure Form.
  await student.waitForURL((u) => u.hostname === club.host && /^\/payments\/payu\/[^/]+\/card\/[^/]+$/.test(u.pathname))
  await hostedFieldsReady(student, 'payu', 'PayU’s Secure Form')
  await typeCard(student, firstCard)
  await student.getByRole('button', { name: `Pay PLN ${PRICE}.00` }).click()
  await paymentSucceeded(student, club.host)

  // One order at PayU, paid with the card token, for the membership's price.
  const [first, ...others] = await ordersOf(email)
  assert.equal(others.length, 0, 'one PayU order for the first payment')
  assert.deepEqual([first?.payMethod?.type, Number(first?.totalAmount), first?.currencyCode, first?.status], ['CARD_TOKEN', PRICE * 100, 'PLN', 'COMPLETED'])

  await visit(student, url(club.host, '/panel'))
  await expectText(billing(student, club).locator('[data-membership-card]'), `Card on file: Visa •••• ${firstCard.slice(-4)}, expires 11/2031`)
  const membershipId = await membershipIdOf(student, club)
  const firstToken = await keptToken(firstCard)

  // A month and a bit later the scheduled renewal charges the card PayU keeps: a second CARD_TOKEN
  // order, made without the student (the peer takes a TOKC_ only with recurring STANDARD).
  const [renewed] = await renew(student, membershipId, Date.now() + 32 * DAY)
  assert.deepEqual([renewed?.result, renewed?.reason], ['renewed', undefined], `the renewal's outcome: ${JSON.stringify(renewed)}`)
  const afterRenewal = await ordersOf(email)
  assert.equal(afterRenewal.length, 2, 'the renewal is one more PayU order')
  const renewal = afterRenewal.find((o) => o.orderId !== first!.orderId)
  assert.deepEqual([renewal?.payMethod?.type, Number(renewal?.totalAmount), renewal?.status], ['CARD_TOKEN', PRICE * 100, 'COMPLETED'])
  await visit(student, url(club.host, '/panel'))
  assert.equal(await billing(student, club).getAttribute('data-membership-status'), 'active')

  // A new card through the same Secure Form: PayU keeps it as a new TOKC_.
  await billing(student, club).getByRole('button', { name: 'Change the card at PayU' }).click()
  await student.waitForURL((u) => u.hostname === club.host && u.pathname === '/my/membership/card/fields')
  await hostedFieldsReady(student, 'payu', 'PayU’s Secure Form')
  await typeCard(student, newCard)
  await student.locator('[data-hosted-card-form="payu"]').getByRole('button', { name: 'Save the card' }).click()
  await cardUpdated(student, club)
  await expectText(billing(student, club).locator('[data-membership-card]'), `Card on file: Mastercard •••• ${newCard.slice(-4)}, expires 11/2031`)
  await keptToken(newCard)

  // The old card's issuer now declines it: the next month's renewal still goes through, charged to the new card.
  await peerJson(`/_peer/payu/card-tokens/${firstToken}/issuer-answer`, { code: 'S51' })
  const [next] = await renew(student, membershipId, Date.now() + 65 * DAY)
  assert.deepEqual([next?.result, next?.reason], ['renewed', undefined], `the renewal after the change: ${JSON.stringify(next)}`)
  const charged = (await ordersOf(email)).filter((o) => o.payMethod?.type === 'CARD_TOKEN' && Number(o.totalAmount) === PRICE * 100 && o.status === 'COMPLETED')
  assert.equal(charged.length, 3, 'the first payment and two renewals, each one PayU order')
})

/** A new student's Stripe membership of a new club, paid on Stripe Checkout (subscription mode). */
async function stripeMember(page: Page, context: BrowserContext) {
  const club = await newClub(page, 'stripe', String(PRICE))
  const student = await joinCheckout(context, club, 'stripe', `${unique('stripe-club')}@example.com`)
  await student.waitForURL((u) => u.hostname === 'pay.localhost' && /^\/stripe\/pay\/cs_/.test(u.pathname))
  await expectText(student.locator('[data-recurring]'), '(recurring)')
  await student.getByRole('button', { name: 'Pay', exact: true }).click()
  await paymentSucceeded(student, club.host)
  await visit(student, url(club.host, '/panel'))
  await billing(student, club).waitFor()
  assert.equal(await billing(student, club).getAttribute('data-membership-status'), 'active')
  return { club, student }
}

/** "Change the card at Stripe" → Stripe Checkout in setup mode (the peer) → back on the panel with the new card. */
async function changeStripeCard(student: Page, club: Club, number: string, brand: string) {
  await billing(student, club).getByRole('button', { name: 'Change the card at Stripe' }).click()
  // Either Stripe's page or, when the start is refused, straight back to the panel with the reason.
  await student.waitForURL(
    (u) => (u.hostname === 'pay.localhost' && u.pathname.startsWith('/stripe/pay/')) || (u.hostname === club.host && u.pathname === '/panel' && u.searchParams.has('membership_error')),
  )
  if (new URL(student.url()).hostname === club.host) {
    const said = await billing(student, club).innerText()
    assert.fail(`the panel refused to start the card change (${new URL(student.url()).search}): ${JSON.stringify(said)}`)
  }
  assert.match(new URL(student.url()).pathname, /^\/stripe\/pay\/cs_/)
  // Setup mode: nothing is charged, the card is kept for the subscription.
  await expectText(student.locator('[data-setup]'), 'Nothing is charged now.')
  await student.getByLabel('Card number').fill(number)
  await student.getByRole('button', { name: 'Save card' }).click()
  await cardUpdated(student, club)
  const last4 = number.replace(/\s/g, '').slice(-4)
  await expectText(billing(student, club).locator('[data-membership-card]'), new RegExp(`^Card on file: ${brand} •••• ${last4}, expires \\d{1,2}/\\d{4}$`))
}

browserTest('Stripe: a membership paid on Stripe Checkout; the card is changed on Stripe Checkout in setup mode', async ({ page, newContext }) => {
  const { club, student } = await stripeMember(page, await newContext())
  await changeStripeCard(student, club, '5555 5555 5555 4444', 'Mastercard')
})

browserTest('Stripe: the card of a membership is changed a second time', async ({ page, newContext }) => {
  const { club, student } = await stripeMember(page, await newContext())
  await changeStripeCard(student, club, '5555 5555 5555 4444', 'Mastercard')
  await changeStripeCard(student, club, '4000 0566 5566 5556', 'Visa')
})
