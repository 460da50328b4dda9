// Membership billing lifecycle (issue 8 item 6), in workerd with the real D1 and dev peers: the
// purchase starts exactly one membership (replays too), scheduled renewals charge the stored card
// once (also with overlapping runs), declines put it at risk with one email, three failures end
// it, canceled memberships end after their period, PayU gets a pay link, and Stripe's signed
// subscription events renew / put at risk / end it through the notify route (forged ones refused).
import { env, exports } from 'cloudflare:workers'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { appEvents, emailOutbox, memberships, paymentEvents, productAccess, transactions } from '#app/db/schema.server.ts'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, setProviderRef, settleTransaction } from '#app/models/transaction.server.ts'
import { addPeriod, renewalRef, runMembershipRenewals, STALE_CLAIM_MS } from '#app/membership/membership-billing.server.ts'
import { feeSettingsFor, platformFee } from '#app/payments/pricing.ts'
import { STRIPE_EVENTS } from '#app/payments/stripe-adapter.server.ts'
import { stripeClient } from '#app/payments/stripe.server.ts'
import { providerModule } from '#app/payments/providers/index.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import { testNotification } from '#app/payments/test-provider.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

const DAY = 86_400_000
const testEnv = env as unknown as Env & { INTEGRATIONS_KEY: string; TEST_PAYMENTS_SECRET: string; DEV_PEERS: Fetcher }
const PEER = 'http://dev-peers.internal'
// Must match PEER_STRIPE_SECRET_KEY in workers/dev-peers/wrangler.toml.
const STRIPE_KEY = 'sk_test_coursefront_dev_0000000000000000'
const peerFetch = (input: RequestInfo | URL, init?: RequestInit) => testEnv.DEV_PEERS.fetch(input as RequestInfo, init as RequestInit<CfProperties>)

/** A provider's server: no cookies, no Origin, no Fetch Metadata. */
const notify = (host: string, path: string, body: string, headers: Record<string, string>) =>
  (exports as unknown as { default: Fetcher }).default.fetch(`http://${host}${path}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json', ...headers } })

let school: TestSchool
let polish: TestSchool
let clubId: string
let klubId: string
let lifetimeId: string

beforeAll(async () => {
  school = await createTestSchool({ name: 'Club School' })
  polish = await createTestSchool({ name: 'Szkoła Klubowa', language: 'pl' })
  clubId = (await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Coding Club', published: true, membershipPeriod: 1, vatRate: 23 })).id
  klubId = (await createProduct(db(), polish.tenantId, { kind: 'membership', title: 'Klub', published: true, membershipPeriod: 3 })).id
  lifetimeId = (await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Lifetime Club', published: true, membershipPeriod: -1 })).id
})

async function order(s: TestSchool, productId: string, provider: 'test' | 'payu' | 'stripe', ref: string, integrationId: string) {
  const student = await createTestStudent(s.tenantId)
  const tx = await createTransaction(db(), s.tenantId, {
    userId: student.id,
    productId,
    productKind: 'membership',
    productTitle: 'Club',
    quantity: 1,
    currency: 'PLN',
    unitAmount: 4_900,
    discountAmount: 1_000,
    totalAmount: 3_900,
    vatAmount: 729,
    feeAmount: 295,
    buyer: JSON.stringify({ name: 'Club Buyer', email: student.email }),
    termsAcceptedAt: Date.now(),
    checkoutPath: '/club/checkout',
  })
  await setProviderRef(db(), s.tenantId, tx.id, { provider, integrationId, providerRef: ref })
  return { student, tx }
}

/** Bought and paid through the built-in test provider's signed notification. */
async function bought(s: TestSchool, productId = clubId) {
  const ref = `tp_${newId()}`
  const made = await order(s, productId, 'test', ref, 'test')
  const n = await testNotification(testEnv.TEST_PAYMENTS_SECRET, ref, 'succeeded')
  expect((await notify(s.host, '/payments/test/test/notify', n.body, { 'X-Test-Payments-Signature': n.signature })).status).toBe(200)
  return { ...made, ref, membership: (await membershipsOf(s, made.tx.id))[0]! }
}

const membershipsOf = (s: TestSchool, transactionId: string) => db().select().from(memberships).where(and(eq(memberships.tenantId, s.tenantId), eq(memberships.transactionId, transactionId)))
const membershipRow = async (s: TestSchool, id: string) => (await db().select().from(memberships).where(and(eq(memberships.tenantId, s.tenantId), eq(memberships.id, id))))[0]!
const renewals = (s: TestSchool, membershipId: string) => db().select().from(transactions).where(and(eq(transactions.tenantId, s.tenantId), eq(transactions.membershipId, membershipId)))
const accessOf = async (s: TestSchool, productId: string, userId: string) =>
  (await db().select().from(productAccess).where(and(eq(productAccess.tenantId, s.tenantId), eq(productAccess.productId, productId), eq(productAccess.userId, userId))))[0]!
const mails = (s: TestSchool, to: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.tenantId, s.tenantId), eq(emailOutbox.toAddress, to)))
const setCard = (s: TestSchool, id: string, token: string) => db().update(memberships).set({ cardToken: token, cardBrand: 'visa', cardLast4: token.slice(9, 13) }).where(and(eq(memberships.tenantId, s.tenantId), eq(memberships.id, id)))
const run = (s: TestSchool, now: number) => runMembershipRenewals(testEnv, now, { tenantId: s.tenantId })
/** What one run did to one membership (others of the school may come due at the same time). */
const outcomesOf = async (s: TestSchool, membershipId: string, now: number) => (await run(s, now)).outcomes.filter((o) => o.membershipId === membershipId)

describe('start: a completed membership purchase', () => {
  it('creates exactly one active membership, also when the notification is replayed concurrently', async () => {
    const ref = `tp_${newId()}`
    const { student, tx } = await order(school, clubId, 'test', ref, 'test')
    const n = await testNotification(testEnv.TEST_PAYMENTS_SECRET, ref, 'succeeded')
    const other = await testNotification(testEnv.TEST_PAYMENTS_SECRET, ref, 'succeeded')
    const answers = await Promise.all([...Array.from({ length: 10 }, () => n), other].map((x) => notify(school.host, '/payments/test/test/notify', x.body, { 'X-Test-Payments-Signature': x.signature })))
    expect(answers.map((a) => a.status)).toEqual(Array(11).fill(200))
    const rows = await membershipsOf(school, tx.id)
    expect(rows).toHaveLength(1)
    const m = rows[0]!
    const access = await accessOf(school, clubId, student.id)
    expect(m).toMatchObject({ status: 'active', userId: student.id, productId: clubId, periodMonths: 1, amount: 4_900, currency: 'PLN', provider: 'test', integrationId: 'test', providerSubscriptionId: null, failedCharges: 0 })
    expect(m.currentPeriodEnd).toBe(access.expiresAt)
    expect(m.nextChargeAt).toBe(m.currentPeriodEnd)
    expect((await db().select().from(memberships).where(eq(memberships.tenantId, school.tenantId))).filter((r) => r.userId === student.id)).toHaveLength(1)
  })

  it('a lifetime membership has no period end and nothing to charge', async () => {
    const { membership } = await bought(school, lifetimeId)
    expect(membership).toMatchObject({ status: 'active', periodMonths: -1, currentPeriodEnd: null, nextChargeAt: null })
    expect(await outcomesOf(school, membership.id, Date.now() + 400 * DAY)).toEqual([])
  })
})

describe('scheduled renewals (test provider, stored card)', () => {
  it('a successful renewal: one completed renewal transaction, access extended one period, student.paid', async () => {
    const { student, membership } = await bought(school)
    await setCard(school, membership.id, 'tok_test_4242_ok_abcdef')
    const periodEnd = membership.currentPeriodEnd!
    // Not due yet: nothing happens.
    expect(await outcomesOf(school, membership.id, periodEnd - 1)).toEqual([])

    expect(await outcomesOf(school, membership.id, periodEnd + 1_000)).toMatchObject([{ membershipId: membership.id, result: 'renewed' }])
    const newEnd = addPeriod(periodEnd, 1)
    const [renewal, ...more] = await renewals(school, membership.id)
    expect(more).toEqual([])
    expect(renewal).toMatchObject({
      status: 'completed',
      productKind: 'membership',
      productTitle: 'Coding Club',
      userId: student.id,
      totalAmount: 4_900,
      unitAmount: 4_900,
      vatAmount: 916,
      feeAmount: platformFee(4_900, feeSettingsFor('PLN', { feeBasisPoints: null, feeFixed: null })),
      provider: 'test',
      providerRef: `renewal:${membership.id}:${periodEnd}`,
    })
    expect(renewal!.accessGrantedAt).not.toBeNull()
    expect((await accessOf(school, clubId, student.id)).expiresAt).toBe(newEnd)
    expect(await membershipRow(school, membership.id)).toMatchObject({ status: 'active', currentPeriodEnd: newEnd, nextChargeAt: newEnd, failedCharges: 0 })
    const paid = await db().select().from(appEvents).where(and(eq(appEvents.tenantId, school.tenantId), eq(appEvents.subjectId, renewal!.id)))
    expect(paid).toHaveLength(1)
    expect(JSON.parse(paid[0]!.payload)).toMatchObject({ membershipId: membership.id, renewal: true, totalAmount: 4_900 })
    // The same moment again: nothing is due any more.
    expect(await outcomesOf(school, membership.id, periodEnd + 1_000)).toEqual([])
    expect(await renewals(school, membership.id)).toHaveLength(1)
  })

  it('five overlapping runs charge and extend once', async () => {
    const { student, membership } = await bought(school)
    await setCard(school, membership.id, 'tok_test_5555_ok_abcdef')
    const now = membership.currentPeriodEnd! + 1_000
    const reports = await Promise.all(Array.from({ length: 5 }, () => run(school, now)))
    const results = reports.flatMap((r) => r.outcomes.filter((o) => o.membershipId === membership.id).map((o) => o.result))
    expect(results.filter((r) => r === 'renewed')).toHaveLength(1)
    expect(results.every((r) => r === 'renewed' || r === 'skipped')).toBe(true)
    expect(await renewals(school, membership.id)).toHaveLength(1)
    expect((await accessOf(school, clubId, student.id)).expiresAt).toBe(addPeriod(membership.currentPeriodEnd!, 1))
    expect((await membershipRow(school, membership.id)).currentPeriodEnd).toBe(addPeriod(membership.currentPeriodEnd!, 1))
  })

  it('a claim left pending by a run that died is skipped, then taken over after 15 minutes (one renewal)', async () => {
    const { membership } = await bought(school)
    await setCard(school, membership.id, 'tok_test_4242_ok_stale')
    const periodEnd = membership.currentPeriodEnd!
    const dead = await createTransaction(
      db(),
      school.tenantId,
      { productKind: 'membership', productTitle: 'Coding Club', currency: 'PLN', unitAmount: 4_900, totalAmount: 4_900, termsAcceptedAt: periodEnd, checkoutPath: '/club/checkout', membershipId: membership.id, provider: 'test', providerRef: renewalRef(membership) },
      periodEnd,
    )
    expect(await outcomesOf(school, membership.id, periodEnd + 60_000)).toMatchObject([{ result: 'skipped', reason: 'claimed' }])
    expect(await outcomesOf(school, membership.id, periodEnd + STALE_CLAIM_MS + 1)).toMatchObject([{ result: 'renewed', transactionId: dead.id }])
    expect((await renewals(school, membership.id)).map((r) => r.status)).toEqual(['completed'])
    expect((await membershipRow(school, membership.id)).currentPeriodEnd).toBe(addPeriod(periodEnd, 1))
  })

  it('a declined card: at risk with one email, retries after 1 and 3 days, ended after the third failure', async () => {
    const { student, membership } = await bought(school)
    await setCard(school, membership.id, 'tok_test_0002_decline_abcdef')
    const periodEnd = membership.currentPeriodEnd!
    const t1 = periodEnd + 1_000
    expect(await outcomesOf(school, membership.id, t1)).toMatchObject([{ membershipId: membership.id, result: 'failed', reason: 'card_declined', failedCharges: 1, emailed: true }])
    expect(await membershipRow(school, membership.id)).toMatchObject({ status: 'at_risk', failedCharges: 1, nextChargeAt: t1 + DAY, currentPeriodEnd: periodEnd })
    const sent = await mails(school, student.email)
    expect(sent.filter((m) => m.template === 'membership_payment_problem')).toHaveLength(1)
    expect(sent.find((m) => m.template === 'membership_payment_problem')).toMatchObject({ subject: 'Payment problem: your membership Coding Club', status: 'queued' })
    expect(sent.find((m) => m.template === 'membership_payment_problem')!.textBody).toContain(`http://${school.host}/panel`)
    // The student's panel says it is at risk and why, in the seed's words (seed 001 §8).
    const panel = await (await appFetch(school.host, '/panel', { cookie: await login(school.host, student.email, student.password) })).text()
    expect(panel).toContain('data-membership-payment-problem')
    expect(panel).toContain('data-membership-decline-reason="sale_error"')
    expect(panel).toContain('Your bank’s answer: Sale error.')

    // Not yet due for the retry.
    expect(await outcomesOf(school, membership.id, t1 + DAY - 1)).toEqual([])
    const t2 = t1 + DAY
    expect(await outcomesOf(school, membership.id, t2)).toMatchObject([{ result: 'failed', failedCharges: 2, nextChargeAt: t2 + 3 * DAY }])
    const t3 = t2 + 3 * DAY
    expect(await outcomesOf(school, membership.id, t3)).toMatchObject([{ result: 'ended', reason: 'retries_exhausted', failedCharges: 3 }])
    expect(await membershipRow(school, membership.id)).toMatchObject({ status: 'ended', failedCharges: 3, nextChargeAt: null, endedAt: t3 })
    // Still one email; three failed attempts, no completed renewal; access ends when the paid period did.
    expect((await mails(school, student.email)).filter((m) => m.template === 'membership_payment_problem')).toHaveLength(1)
    // Each failed renewal says why (the card's decline, shown on the owner's transaction page).
    expect((await renewals(school, membership.id)).map((r) => `${r.status}:${r.statusReason}`)).toEqual(['failed:decline:sale_error', 'failed:decline:sale_error', 'failed:decline:sale_error'])
    expect((await accessOf(school, clubId, student.id)).expiresAt).toBe(periodEnd)
    expect(await outcomesOf(school, membership.id, t3 + 30 * DAY)).toEqual([])
  })

  it('a new card after a decline: the retry succeeds and the membership is active again', async () => {
    const { membership } = await bought(school)
    const periodEnd = membership.currentPeriodEnd!
    // No card on file at all is a failed charge too.
    expect(await outcomesOf(school, membership.id, periodEnd + 1)).toMatchObject([{ result: 'failed', reason: 'no_card' }])
    await setCard(school, membership.id, 'tok_test_4242_ok_newcard')
    expect(await outcomesOf(school, membership.id, periodEnd + 1 + DAY)).toMatchObject([{ result: 'renewed' }])
    // The billing anchor stays: the next period starts where the paid one ended.
    expect(await membershipRow(school, membership.id)).toMatchObject({ status: 'active', failedCharges: 0, currentPeriodEnd: addPeriod(periodEnd, 1) })
  })

  it('the payment problem email is in the school language (Polish)', async () => {
    const { student, membership } = await bought(polish, klubId)
    expect(membership.periodMonths).toBe(3)
    await setCard(polish, membership.id, 'tok_test_0002_decline_xyz')
    await run(polish, membership.currentPeriodEnd! + 1)
    const [mail] = (await mails(polish, student.email)).filter((m) => m.template === 'membership_payment_problem')
    expect(mail!.subject).toBe('Problem z płatnością: Twoje członkostwo Klub')
    expect(mail!.textBody).toContain('Nie udało się pobrać 49,00')
  })

  it('canceled memberships end when their paid period is over, and are never charged', async () => {
    const { membership } = await bought(school)
    await setCard(school, membership.id, 'tok_test_4242_ok_cancel')
    await db().update(memberships).set({ status: 'canceled', canceledAt: Date.now(), nextChargeAt: null }).where(eq(memberships.id, membership.id))
    expect(await outcomesOf(school, membership.id, membership.currentPeriodEnd! - 1)).toEqual([])
    expect((await membershipRow(school, membership.id)).status).toBe('canceled')
    const end = membership.currentPeriodEnd! + 1
    expect(await outcomesOf(school, membership.id, end)).toMatchObject([{ membershipId: membership.id, result: 'ended', reason: 'period_over' }])
    expect(await membershipRow(school, membership.id)).toMatchObject({ status: 'ended', endedAt: end })
    expect(await renewals(school, membership.id)).toEqual([])
  })
})

describe('PayU memberships', () => {
  it('get a renewal email with a pay link (no card-token charges): at risk, one email', async () => {
    const integration = await createIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, {
      provider: 'payu',
      currency: 'PLN',
      credentials: { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000', sandbox: 'true' },
    })
    const { student, tx } = await order(school, clubId, 'payu', `PAYU${newId(6).toUpperCase()}`, integration.id)
    // Settled as the notify route does for a verified COMPLETED (PayU's signature is tested in payment-notify).
    await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'payu', eventKey: `${tx.id}:COMPLETED`, providerStatus: 'COMPLETED', status: 'completed' }, status: 'completed' })
    const [m] = await membershipsOf(school, tx.id)
    expect(m).toMatchObject({ provider: 'payu', integrationId: integration.id, status: 'active' })
    expect(m!.nextChargeAt).toBe(m!.currentPeriodEnd)
    expect(await outcomesOf(school, m!.id, m!.currentPeriodEnd! + 1)).toMatchObject([{ membershipId: m!.id, result: 'failed', reason: 'pay_link', emailed: true }])
    const due = (await mails(school, student.email)).filter((x) => x.template === 'membership_renewal_due')
    expect(due).toHaveLength(1)
    expect(due[0]!.textBody).toMatch(new RegExp(`http://${school.host.replace('.', '\\.')}/[a-z0-9-]+/checkout`))
    expect((await membershipRow(school, m!.id)).status).toBe('at_risk')
  })
})

describe('Stripe subscriptions (signed webhooks)', () => {
  type Delivery = { url: string; payload: string; signature: string }
  const client = stripeClient({ secretKey: STRIPE_KEY, webhookSecret: '', apiBase: `${PEER}/stripe` }, peerFetch)
  let integrationId: string
  let endpointUrl: string

  beforeAll(async () => {
    // The endpoint the peer signs for; its secret verifies the school's webhooks.
    endpointUrl = `http://${school.host}/stripe-endpoint-${newId(6)}`
    const endpoint = await client.createWebhookEndpoint(endpointUrl, STRIPE_EVENTS)
    const integration = await createIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, { provider: 'stripe', currency: 'PLN', credentials: { secretKey: STRIPE_KEY, webhookSecret: endpoint.secret! } })
    integrationId = integration.id
  })

  const mine = (deliveries: Delivery[]) => deliveries.filter((d) => d.url === endpointUrl)
  const deliver = (d: Delivery, payload = d.payload) => notify(school.host, `/payments/stripe/${integrationId}/notify`, payload, { 'Stripe-Signature': d.signature })
  async function control<T>(path: string, body: unknown = {}) {
    const res = await peerFetch(`${PEER}/_peer/stripe${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    expect(res.status).toBe(200)
    return (await res.json()) as T
  }

  /** A subscription Checkout Session paid at the peer, its checkout.session.completed delivered to the school. */
  async function subscribed() {
    const session = await client.createCheckoutSession({
      mode: 'subscription',
      intervalMonths: 1,
      lines: [{ name: 'Coding Club', unitAmount: 3_900, quantity: 1 }],
      currency: 'PLN',
      successUrl: `http://${school.host}/done`,
      cancelUrl: `http://${school.host}/club`,
      customerEmail: 'club@example.com',
      reference: newId(),
      idempotencyKey: newId(),
    })
    const { student, tx } = await order(school, clubId, 'stripe', session.id, integrationId)
    const done = await control<{ session: Record<string, unknown> }>(`/sessions/${session.id}/complete`)
    const subscriptionId = done.session.subscription as string
    expect(subscriptionId).toMatch(/^sub_/)
    const completed = await control<{ deliveries: Delivery[] }>('/events', { type: 'checkout.session.completed', object: done.session })
    expect((await deliver(mine(completed.deliveries)[0]!)).status).toBe(200)
    const [m] = await membershipsOf(school, tx.id)
    return { student, tx, subscriptionId, membership: m! }
  }

  it('the purchase stores the subscription; Stripe renews (nothing scheduled here)', async () => {
    const { membership, subscriptionId } = await subscribed()
    expect(membership).toMatchObject({ status: 'active', provider: 'stripe', providerSubscriptionId: subscriptionId, nextChargeAt: null, integrationId })
    expect(await outcomesOf(school, membership.id, membership.currentPeriodEnd! + DAY)).toEqual([])
  })

  it('invoice.paid (subscription_cycle) renews once; a replay and a forged copy change nothing', async () => {
    const { student, membership, subscriptionId } = await subscribed()
    const cycle = await control<{ deliveries: Delivery[] }>(`/subscriptions/${subscriptionId}/cycle`, { paid: true })
    const [d] = mine(cycle.deliveries)
    // Forged: one byte altered → 400, nothing written.
    expect((await deliver(d!, d!.payload.replace('"paid": true', '"paid": trUe'))).status).toBe(400)
    expect((await deliver(d!, d!.payload.replace('subscription_cycle', 'subscription_cyclf'))).status).toBe(400)
    expect(await renewals(school, membership.id)).toEqual([])
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(d!)))
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200))
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as Array<{ duplicate: boolean }>
    expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1)
    const [renewal, ...more] = await renewals(school, membership.id)
    expect(more).toEqual([])
    expect(renewal).toMatchObject({ status: 'completed', provider: 'stripe', totalAmount: 3_900, membershipId: membership.id })
    expect(renewal!.providerRef).toMatch(/^in_/)
    const newEnd = addPeriod(membership.currentPeriodEnd!, 1)
    expect(await membershipRow(school, membership.id)).toMatchObject({ status: 'active', currentPeriodEnd: newEnd, nextChargeAt: null })
    expect((await accessOf(school, clubId, student.id)).expiresAt).toBe(newEnd)
    const events = await db().select().from(paymentEvents).where(and(eq(paymentEvents.tenantId, school.tenantId), eq(paymentEvents.transactionId, renewal!.id)))
    expect(events.map((e) => e.providerStatus)).toEqual(['invoice.paid'])
  })

  it('invoice.payment_failed → at risk with one email; customer.subscription.deleted → ended', async () => {
    const { student, membership, subscriptionId } = await subscribed()
    const failed = mine((await control<{ deliveries: Delivery[] }>(`/subscriptions/${subscriptionId}/cycle`, { paid: false, declineCode: 'insufficient_funds' })).deliveries)[0]!
    // Forged first: nothing changes.
    expect((await deliver(failed, failed.payload.replace('invoice.payment_failed', 'invoice.payment_faileD'))).status).toBe(400)
    expect((await membershipRow(school, membership.id)).status).toBe('active')
    expect((await deliver(failed)).status).toBe(200)
    expect((await deliver(failed)).status).toBe(200)
    expect(await membershipRow(school, membership.id)).toMatchObject({ status: 'at_risk', failedCharges: 1 })
    const sent = (await mails(school, student.email)).filter((m) => m.template === 'membership_payment_problem')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.textBody).toContain('will be retried automatically')
    // Why, as Stripe's PaymentIntent says (the invoice does not carry the decline).
    expect(sent[0]!.textBody).toContain('Insufficient funds')

    const ended = mine((await control<{ deliveries: Delivery[] }>(`/subscriptions/${subscriptionId}/end`)).deliveries)[0]!
    expect((await deliver(ended, ended.payload.replace('"status": "canceled"', '"status": "canceleD"'))).status).toBe(400)
    expect((await membershipRow(school, membership.id)).status).toBe('at_risk')
    const answers = await Promise.all([deliver(ended), deliver(ended)])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    const after = await membershipRow(school, membership.id)
    expect(after.status).toBe('ended')
    expect(after.endedAt).not.toBeNull()
    const recorded = await db().select().from(paymentEvents).where(and(eq(paymentEvents.tenantId, school.tenantId), eq(paymentEvents.transactionId, membership.transactionId)))
    expect(recorded.map((e) => e.providerStatus).sort()).toEqual(['checkout.session.completed', 'customer.subscription.deleted', 'invoice.payment_failed'])
  })

  it('a student who canceled keeps the paid period when Stripe deletes the subscription', async () => {
    const { membership, subscriptionId } = await subscribed()
    await db().update(memberships).set({ status: 'canceled', canceledAt: Date.now() }).where(eq(memberships.id, membership.id))
    const ended = mine((await control<{ deliveries: Delivery[] }>(`/subscriptions/${subscriptionId}/end`)).deliveries)[0]!
    expect((await deliver(ended)).status).toBe(200)
    expect((await membershipRow(school, membership.id)).status).toBe('canceled')
    expect(await outcomesOf(school, membership.id, membership.currentPeriodEnd! + 1)).toMatchObject([{ membershipId: membership.id, result: 'ended', reason: 'period_over' }])
  })
})

describe('POST /dev/memberships/renew (development trigger)', () => {
  it('runs the renewals as of `now` and answers what happened; bad input is 400; only on the platform host', async () => {
    const { membership } = await bought(school)
    await setCard(school, membership.id, 'tok_test_4242_ok_devtrigger')
    const post = (host: string, body: string, type = 'application/x-www-form-urlencoded') =>
      (exports as unknown as { default: Fetcher }).default.fetch(`http://${host}/dev/memberships/renew`, { method: 'POST', body, headers: { 'Content-Type': type, Origin: `http://${host}` } })
    expect((await post('localhost', 'now=yesterday')).status).toBe(400)
    expect(await (await post('localhost', 'membership_id=../x')).json()).toEqual({ errors: { membership_id: 'membership_id must be a membership id' } })
    // Another membership only: this one is left alone.
    const other = await bought(school)
    const narrowed = (await (await post('localhost', `now=${other.membership.currentPeriodEnd! + 1}&membership_id=${other.membership.id}`)).json()) as { outcomes: Array<{ membershipId: string }> }
    expect(narrowed.outcomes.map((o) => o.membershipId)).toEqual([other.membership.id])
    expect((await post(school.host, `now=${membership.currentPeriodEnd! + 1}`)).status).toBe(404)
    expect(await renewals(school, membership.id)).toEqual([])
    const res = await post('localhost', JSON.stringify({ now: membership.currentPeriodEnd! + 1 }), 'application/json')
    expect(res.status).toBe(200)
    const report = (await res.json()) as { outcomes: Array<{ membershipId: string; result: string }> }
    expect(report.outcomes.find((o) => o.membershipId === membership.id)).toMatchObject({ result: 'renewed' })
    expect(await renewals(school, membership.id)).toHaveLength(1)
  })
})

describe('the cron (server.ts scheduled)', () => {
  it('renews what is due as of the scheduled time and sends stranded domain events', async () => {
    const { membership } = await bought(school)
    await setCard(school, membership.id, 'tok_test_4242_ok_cron')
    await (exports as unknown as { default: { scheduled(options: { scheduledTime: Date; cron: string }): Promise<unknown> } }).default.scheduled({ scheduledTime: new Date(membership.currentPeriodEnd! + 1), cron: '*/5 * * * *' })
    const [renewal] = await renewals(school, membership.id)
    expect(renewal).toMatchObject({ status: 'completed' })
    expect((await membershipRow(school, membership.id)).currentPeriodEnd).toBe(addPeriod(membership.currentPeriodEnd!, 1))
    const unsent = await db().select().from(appEvents).where(and(eq(appEvents.tenantId, school.tenantId), eq(appEvents.subjectId, renewal!.id)))
    expect(unsent.map((e) => e.sentAt !== null)).toEqual([true])
  })
})

describe('a provider that cannot repeat a stored-card charge safely (PayLane: no idempotency key, no search)', () => {
  // PAYLANE_DEV in workers/dev-peers/src/paylane.ts
  const PAYLANE = { apiLogin: 'coursefront_dev', apiPassword: 'coursefront_dev_paylane_password_0000', publicApiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00', notificationToken: 'coursefront_dev_paylane_notify_token_00', sandbox: 'yes' }

  /** A membership whose card PayLane keeps: a real sale at the peer for the card, as the first payment leaves it. */
  async function onPaylane(integrationId: string, credentials: Record<string, string>) {
    const { membership } = await bought(school)
    const res = await peerFetch(`${PEER}/_peer/paylane/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ number: '4111111111111111', expiry: '12/39' }) })
    const { token } = (await res.json()) as { token: string }
    const first = await providerModule('paylane')!.hostedFields!.payWithToken(providerContext(testEnv, 'paylane'), credentials, {
      transaction: { id: newId(), hash: newId(), totalAmount: 3_900, currency: 'PLN', productTitle: 'Coding Club' } as never,
      token,
      buyer: { email: 'club@example.com', name: 'Club Buyer' },
      notifyUrl: `http://${school.host}/payments/paylane/${integrationId}/notify`,
      customerIp: '203.0.113.9',
      description: 'Coding Club',
      storeCard: true,
    })
    if (!first.ok || !('providerRef' in first)) throw new Error(`PayLane sale: ${JSON.stringify(first)}`)
    await db().update(memberships).set({ provider: 'paylane', integrationId, cardToken: first.providerRef }).where(and(eq(memberships.tenantId, school.tenantId), eq(memberships.id, membership.id)))
    return membership
  }

  it('charges a due renewal once; a claim left pending by a dead run is never charged again (it waits for a person)', async () => {
    const id = `intpl${Date.now().toString(36)}`
    const connected = await providerModule('paylane')!.connect(providerContext(testEnv, 'paylane'), { fields: PAYLANE, currency: 'PLN', integrationId: id, notifyUrl: `http://${school.host}/payments/paylane/${id}/notify`, origin: `http://${school.host}` })
    if (!connected.ok) throw new Error(JSON.stringify(connected.errors))
    await createIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, { id, provider: 'paylane', currency: 'PLN', credentials: connected.credentials, publicRef: connected.publicRef })
    const credentials = { ...connected.credentials, __integrationId: id }

    // Due, nothing claimed yet: PayLane charges the kept card.
    const fresh = await onPaylane(id, credentials)
    expect(await outcomesOf(school, fresh.id, fresh.currentPeriodEnd! + 1_000)).toMatchObject([{ result: 'renewed' }])
    expect((await renewals(school, fresh.id)).filter((r) => r.providerRef === renewalRef(fresh)).map((r) => r.status)).toEqual(['completed'])

    // A run died after claiming (it may or may not have reached PayLane): taken over after 15 minutes, not charged.
    const stranded = await onPaylane(id, credentials)
    const periodEnd = stranded.currentPeriodEnd!
    const dead = await createTransaction(
      db(),
      school.tenantId,
      { productKind: 'membership', productTitle: 'Coding Club', currency: 'PLN', unitAmount: 3_900, totalAmount: 3_900, termsAcceptedAt: periodEnd, checkoutPath: '/club/checkout', membershipId: stranded.id, provider: 'paylane', integrationId: id, providerRef: renewalRef(stranded) },
      periodEnd,
    )
    expect(await outcomesOf(school, stranded.id, periodEnd + STALE_CLAIM_MS + 1)).toMatchObject([{ result: 'skipped', reason: 'unavailable', transactionId: dead.id }])
    expect((await renewals(school, stranded.id)).filter((r) => r.providerRef === renewalRef(stranded)).map((r) => r.status)).toEqual(['pending'])
    expect((await membershipRow(school, stranded.id)).currentPeriodEnd).toBe(periodEnd)
  })
})
