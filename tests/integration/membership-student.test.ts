// Memberships, the student's side (issue 8 item 6): cancel (idempotent, type CANCEL, STARTED,
// ended, Stripe subscriptions stopped at the Stripe peer first), the exit survey (each rule, once
// per membership), the card update through the encrypted cypher (good, declining test card, bad
// cypher, missing fields, another origin), and the panel card. Another student's or another
// school's membership answers 404; nothing is written on bad input.
import { env } from 'cloudflare:workers'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { cancellationSurveys, memberships, productAccess, type MembershipStatus } from '#app/db/schema.server.ts'
import { grantProductAccess } from '#app/models/access.server.ts'
import { cancelMembership } from '#app/models/membership.server.ts'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction } from '#app/models/transaction.server.ts'
import { encryptCard } from '#app/payments/card.ts'
import { stripeClient } from '#app/payments/stripe.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'

const DAY = 86_400_000
const testEnv = env as unknown as { INTEGRATIONS_KEY: string; DEV_PEERS: Fetcher }
const peers = devPeers(testEnv.DEV_PEERS)
const PEER = 'http://dev-peers.internal'
// Must match PEER_STRIPE_SECRET_KEY in workers/dev-peers/wrangler.toml.
const STRIPE_KEY = 'sk_test_coursefront_dev_0000000000000000'
const script = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' }

type Student = { id: string; cookie: string }
let school: TestSchool
let polish: TestSchool
let other: TestSchool
let ann: Student
let bob: Student
let ola: Student
let otherStudent: Student
let clubId: string
let polishClubId: string

async function student(s: TestSchool, email: string): Promise<Student> {
  const made = await createTestStudent(s.tenantId, { email, name: email.split('@')[0] })
  return { id: made.id, cookie: await login(s.host, made.email, made.password) }
}

/** A membership row as the billing side writes it after a completed purchase (+ the access row). */
async function membership(s: TestSchool, productId: string, userId: string, fields: Partial<typeof memberships.$inferInsert> = {}) {
  const now = Date.now()
  const tx = await createTransaction(db(), s.tenantId, {
    productId,
    productKind: 'membership',
    productTitle: 'Club',
    currency: 'USD',
    unitAmount: 2_900,
    totalAmount: 2_900,
    termsAcceptedAt: now,
    checkoutPath: '/club/checkout',
    userId,
  })
  const periodEnd = now + 30 * DAY
  const id = newId()
  await db()
    .insert(memberships)
    .values({
      id,
      tenantId: s.tenantId,
      userId,
      productId,
      transactionId: tx.id,
      status: 'active',
      periodMonths: 1,
      amount: 2_900,
      currency: 'USD',
      provider: 'test',
      integrationId: 'test',
      currentPeriodEnd: periodEnd,
      nextChargeAt: periodEnd,
      cardBrand: 'visa',
      cardLast4: '4242',
      cardExpMonth: 12,
      cardExpYear: 2030,
      cardToken: 'tok_test_4242_ok_original',
      createdAt: now,
      updatedAt: now,
      ...fields,
    })
  await grantProductAccess(db(), s.tenantId, { productId, userId, source: 'manual', startsAt: now - DAY, expiresAt: periodEnd })
  return id
}

const row = async (s: TestSchool, id: string) => (await db().select().from(memberships).where(and(eq(memberships.tenantId, s.tenantId), eq(memberships.id, id))))[0]!
const surveys = async (s: TestSchool, membershipId: string) => db().select().from(cancellationSurveys).where(and(eq(cancellationSurveys.tenantId, s.tenantId), eq(cancellationSurveys.membershipId, membershipId)))

const cancel = (s: TestSchool, who: Student, form: Record<string, string>, headers: Record<string, string> = script) => appFetch(s.host, '/my/membership/cancel', { cookie: who.cookie, form, headers })
const survey = (s: TestSchool, who: Student, form: Record<string, string>, headers: Record<string, string> = script) => appFetch(s.host, '/my/membership/cancel-survey', { cookie: who.cookie, form, headers })
const card = (s: TestSchool, who: Student, form: Record<string, string>, headers: Record<string, string> = script) => appFetch(s.host, '/my/membership/card', { cookie: who.cookie, form, headers })

async function publicKey(s: TestSchool, who: Student) {
  const res = await appFetch(s.host, '/my/membership/card', { cookie: who.cookie, headers: script })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { publicKey: JsonWebKey }
  expect(body.publicKey.kty).toBe('RSA')
  expect(body.publicKey.d).toBeUndefined()
  return body.publicKey
}

const nextYear = String(new Date().getUTCFullYear() + 1)
const goodCard = { cardNumber: '4111 1111 1111 1111', cardMonth: '05', cardYear: nextYear, cardCvv: '123' }

beforeAll(async () => {
  school = await createTestSchool({ name: 'Club School' })
  polish = await createTestSchool({ name: 'Szkoła', language: 'pl' })
  other = await createTestSchool({ name: 'Other School' })
  ann = await student(school, 'ann@example.com')
  bob = await student(school, 'bob@example.com')
  ola = await student(polish, 'ola@example.com')
  otherStudent = await student(other, 'ann@example.com')
  clubId = (await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Coding Club', published: true, membershipPeriod: 1 })).id
  polishClubId = (await createProduct(db(), polish.tenantId, { kind: 'membership', title: 'Klub', published: true, membershipPeriod: 1 })).id
})

describe('cancel', () => {
  it('stops further charges, keeps access to the period end, and is idempotent', async () => {
    const id = await membership(school, clubId, ann.id)
    const before = await row(school, id)
    const res = await cancel(school, ann, { membership_id: id, confirm: 'CANCEL' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'CANCELED', membership_id: id, survey: true })
    const after = await row(school, id)
    expect(after).toMatchObject({ status: 'canceled', nextChargeAt: null, currentPeriodEnd: before.currentPeriodEnd })
    expect(after.canceledAt).toBeGreaterThan(0)
    const [access] = await db().select().from(productAccess).where(and(eq(productAccess.tenantId, school.tenantId), eq(productAccess.userId, ann.id), eq(productAccess.productId, clubId)))
    expect(access!.expiresAt).toBe(before.currentPeriodEnd)
    expect(access!.revokedAt).toBeNull()

    // Again (a double click, a replay): same answer, nothing rewritten.
    const again = await cancel(school, ann, { membership_id: id, confirm: 'CANCEL' })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ status: 'CANCELED', membership_id: id, survey: true })
    expect((await row(school, id)).canceledAt).toBe(after.canceledAt)
  })

  it('five cancels at once: all answered CANCELED, one write', async () => {
    const id = await membership(school, clubId, bob.id)
    const answers = await Promise.all(Array.from({ length: 5 }, () => cancel(school, bob, { membership_id: id, confirm: 'CANCEL' })))
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as Array<{ status: string }>
    expect(new Set(bodies.map((b) => b.status))).toEqual(new Set(['CANCELED']))
    const outcome = await cancelMembership(db(), school.tenantId, bob.id, id)
    expect(outcome.result).toBe('already')
  })

  it("a provider's 'subscription deleted' event that ends the row while Stripe cancels still counts as the student's cancel", async () => {
    const id = await membership(school, clubId, bob.id, { provider: 'stripe', providerSubscriptionId: `sub_race_${newId()}`, nextChargeAt: null })
    const outcome = await cancelMembership(db(), school.tenantId, bob.id, id, {
      // What the webhook handler does meanwhile; the provider answered that the subscription is canceled.
      stopAtProvider: async () => {
        await db().update(memberships).set({ status: 'ended', endedAt: Date.now() }).where(eq(memberships.id, id))
        return true
      },
    })
    expect(outcome.result).toBe('canceled')
    // Refused by the provider: nothing changes.
    const other = await membership(school, clubId, bob.id, { provider: 'stripe', providerSubscriptionId: `sub_race_${newId()}`, nextChargeAt: null })
    expect((await cancelMembership(db(), school.tenantId, bob.id, other, { stopAtProvider: async () => false })).result).toBe('provider_refused')
    expect((await row(school, other)).status).toBe('active')
  })

  it('needs CANCEL typed; writes nothing otherwise', async () => {
    const id = await membership(school, clubId, ann.id)
    for (const confirm of [undefined, '', 'cancel', 'CANCE', 'DELETE']) {
      const res = await cancel(school, ann, confirm === undefined ? { membership_id: id } : { membership_id: id, confirm })
      expect(res.status).toBe(422)
      expect(await res.json()).toEqual({ errors: { confirm: ['Type CANCEL to confirm.'] } })
    }
    expect((await row(school, id)).status).toBe('active')
    // Plain form: back to the panel with the error.
    const form = await cancel(school, ann, { membership_id: id, confirm: 'no' }, {})
    expect(form.status).toBe(303)
    expect(form.headers.get('Location')).toBe(`/panel?membership_error=confirm&membership=${id}#membership-${id}`)
    expect((await row(school, id)).status).toBe('active')
  })

  it('answers STARTED for a membership whose first payment was not settled (no survey)', async () => {
    const id = await membership(school, clubId, bob.id, { status: 'started' })
    const res = await cancel(school, bob, { membership_id: id, confirm: 'CANCEL' })
    expect(await res.json()).toEqual({ status: 'STARTED', membership_id: id, survey: false })
    expect((await row(school, id)).status).toBe('canceled')
  })

  it('refuses an ended membership with 409', async () => {
    const id = await membership(school, clubId, bob.id, { status: 'ended', endedAt: Date.now() - DAY, nextChargeAt: null })
    const res = await cancel(school, bob, { membership_id: id, confirm: 'CANCEL' })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ errors: { membership: ['This membership has already ended.'] } })
    expect((await row(school, id)).status).toBe('ended')
  })

  it('a plain form (no JavaScript) goes back to /panel with the survey open', async () => {
    const id = await membership(school, clubId, bob.id)
    const res = await cancel(school, bob, { membership_id: id, confirm: 'CANCEL' }, {})
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/panel?cancel_survey=${id}#membership-${id}`)
    const html = await (await appFetch(school.host, `/panel?cancel_survey=${id}`, { cookie: bob.cookie })).text()
    expect(html).toContain('data-cancel-survey')
    expect(html).toContain('action="/my/membership/cancel-survey"')
  })

  it("another student's or another school's membership is 404 and stays untouched", async () => {
    const id = await membership(school, clubId, ann.id)
    expect((await cancel(school, bob, { membership_id: id, confirm: 'CANCEL' })).status).toBe(404)
    expect((await cancel(other, otherStudent, { membership_id: id, confirm: 'CANCEL' })).status).toBe(404)
    expect((await cancel(school, ann, { membership_id: 'nope', confirm: 'CANCEL' })).status).toBe(404)
    expect((await row(school, id)).status).toBe('active')
    // Visitors: script calls 419, pages to /login.
    expect((await appFetch(school.host, '/my/membership/cancel', { form: { membership_id: id, confirm: 'CANCEL' }, headers: script })).status).toBe(419)
  })

  it('a Stripe subscription is cancelled at Stripe first; when Stripe refuses nothing changes (502)', async () => {
    const integration = await createIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, { provider: 'stripe', currency: 'USD', credentials: { secretKey: STRIPE_KEY, webhookSecret: 'whsec_unused' } })
    const client = stripeClient({ secretKey: STRIPE_KEY, webhookSecret: '', apiBase: `${PEER}/stripe` }, peers.fetch)
    const session = await client.createCheckoutSession({
      mode: 'subscription',
      intervalMonths: 1,
      lines: [{ name: 'Coding Club', unitAmount: 2_900, quantity: 1 }],
      currency: 'USD',
      successUrl: `http://${school.host}/done`,
      cancelUrl: `http://${school.host}/club`,
      customerEmail: 'ann@example.com',
      reference: newId(),
      idempotencyKey: newId(),
    })
    const done = await peers.fetch(`${PEER}/_peer/stripe/sessions/${session.id}/complete`, { method: 'POST' })
    expect(done.status).toBe(200)
    const subscriptionId = String((await client.retrieveSession(session.id)).subscription)
    expect(subscriptionId).toMatch(/^sub_/)
    const id = await membership(school, clubId, ann.id, { provider: 'stripe', integrationId: integration.id, providerSubscriptionId: subscriptionId, nextChargeAt: null, cardToken: null })

    // Stripe refuses (a key it does not know): 502, the membership stays active.
    const broken = await createIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, { provider: 'stripe', currency: 'EUR', credentials: { secretKey: 'sk_test_wrong_key_00000000000000000000', webhookSecret: 'whsec_unused' } })
    const refusedId = await membership(school, clubId, ann.id, { provider: 'stripe', integrationId: broken.id, providerSubscriptionId: subscriptionId + 'x', nextChargeAt: null })
    const refused = await cancel(school, ann, { membership_id: refusedId, confirm: 'CANCEL' })
    expect(refused.status).toBe(502)
    expect(((await refused.json()) as { errors: { membership: string[] } }).errors.membership[0]).toContain('did not cancel')
    expect((await row(school, refusedId)).status).toBe('active')

    const res = await cancel(school, ann, { membership_id: id, confirm: 'CANCEL' })
    expect(res.status).toBe(200)
    // Stripe keeps it to the end of the paid period and then ends it, as ours does (cancel_at_period_end).
    expect(await client.stripe.subscriptions.retrieve(subscriptionId)).toMatchObject({ status: 'active', cancel_at_period_end: true })
    expect((await row(school, id)).status).toBe('canceled')
    // The card of a Stripe subscription is Stripe's: not changed here.
    const cypher = await encryptCard(await publicKey(school, ann), { ...goodCard, origin: `http://${school.host}` })
    const cardRes = await card(school, ann, { membership_id: refusedId, cypher })
    expect(cardRes.status).toBe(409)
    expect(await cardRes.json()).toEqual({ errors: { membership: ['The card of this membership is managed by the payment provider.'] } })
  })
})

describe('exit survey', () => {
  it('checks each rule with 422 field errors and writes nothing; then saves once (409 after)', async () => {
    const id = await membership(school, clubId, ann.id)
    // Not cancelled yet: refused.
    const early = await survey(school, ann, { membership_id: id, reason: 'no_time', return_intent: 'maybe_return' })
    expect(early.status).toBe(409)
    expect(await early.json()).toEqual({ errors: { membership_id: ['This membership is not canceled.'] } })
    expect((await cancel(school, ann, { membership_id: id, confirm: 'CANCEL' })).status).toBe(200)

    const cases: Array<[Record<string, string>, Record<string, string[]>]> = [
      [{ return_intent: 'maybe_return' }, { reason: ['Choose a reason.'] }],
      [{ reason: 'bored', return_intent: 'maybe_return' }, { reason: ['Choose a reason.'] }],
      [{ reason: 'no_time' }, { return_intent: ['Choose an answer.'] }],
      [{ reason: 'no_time', return_intent: 'someday' }, { return_intent: ['Choose an answer.'] }],
      [{ reason: 'other', return_intent: 'never_return' }, { other_reason: ['Please explain in at least 4 characters.'] }],
      [{ reason: 'other', return_intent: 'never_return', other_reason: '  abc  ' }, { other_reason: ['Please explain in at least 4 characters.'] }],
      [{ reason: 'technical', return_intent: 'never_return', other_reason: 'ok' }, { other_reason: ['Please explain in at least 4 characters.'] }],
      [{ reason: 'technical', return_intent: 'never_return', other_reason: 'x'.repeat(2001) }, { other_reason: ['Please explain in at least 4 characters.'] }],
      [{}, { reason: ['Choose a reason.'], return_intent: ['Choose an answer.'] }],
    ]
    for (const [fields, errors] of cases) {
      const res = await survey(school, ann, { membership_id: id, ...fields })
      expect(res.status, JSON.stringify(fields)).toBe(422)
      expect(await res.json()).toEqual({ errors })
    }
    expect(await surveys(school, id)).toHaveLength(0)

    const ok = await survey(school, ann, { membership_id: id, reason: 'technical', return_intent: 'maybe_return', other_reason: 'The player froze' })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ ok: true })
    const second = await survey(school, ann, { membership_id: id, reason: 'no_time', return_intent: 'never_return' })
    expect(second.status).toBe(409)
    expect(await second.json()).toEqual({ errors: { membership_id: ['You have already answered this survey.'] } })
    const saved = await surveys(school, id)
    expect(saved).toHaveLength(1)
    expect(saved[0]).toMatchObject({ reason: 'technical', returnIntent: 'maybe_return', otherReason: 'The player froze', userId: ann.id })
    // The cancel answer now says there is no survey to open.
    expect(await (await cancel(school, ann, { membership_id: id, confirm: 'CANCEL' })).json()).toEqual({ status: 'CANCELED', membership_id: id, survey: false })
    // ... and the panel no longer opens it (the no-JavaScript path's /panel?cancel_survey=…).
    const panel = await (await appFetch(school.host, `/panel?cancel_survey=${id}`, { cookie: ann.cookie })).text()
    expect(panel).toContain(`id="membership-${id}"`)
    expect(panel).not.toContain('data-cancel-survey')
  })

  it('two surveys at once: exactly one row', async () => {
    const id = await membership(school, clubId, bob.id)
    await cancel(school, bob, { membership_id: id, confirm: 'CANCEL' })
    const answers = await Promise.all(Array.from({ length: 5 }, () => survey(school, bob, { membership_id: id, reason: 'expensive', return_intent: 'definitely_return' })))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409])
    expect(await surveys(school, id)).toHaveLength(1)
  })

  it('answers in the school language; plain forms go back to /panel; others get 404', async () => {
    const id = await membership(polish, polishClubId, ola.id)
    expect((await cancel(polish, ola, { membership_id: id, confirm: 'CANCEL' })).status).toBe(200)
    const res = await survey(polish, ola, { membership_id: id, reason: 'other', return_intent: 'maybe_return' })
    expect(await res.json()).toEqual({ errors: { other_reason: ['Wyjaśnij w co najmniej 4 znakach.'] } })
    const plainBad = await survey(polish, ola, { membership_id: id, reason: 'other' }, {})
    expect(plainBad.status).toBe(303)
    expect(plainBad.headers.get('Location')).toBe(`/panel?cancel_survey=${id}&survey_errors=return_intent%2Cother_reason#membership-${id}`)
    const html = await (await appFetch(polish.host, `/panel?cancel_survey=${id}&survey_errors=return_intent%2Cother_reason`, { cookie: ola.cookie })).text()
    expect(html).toContain('Wybierz odpowiedź.')
    expect(await surveys(polish, id)).toHaveLength(0)
    // Another school's student, with the same id: 404 and nothing written.
    expect((await survey(other, otherStudent, { membership_id: id, reason: 'no_time', return_intent: 'maybe_return' })).status).toBe(404)
    expect((await survey(polish, ola, { membership_id: 'unknown', reason: 'no_time', return_intent: 'maybe_return' })).status).toBe(404)
    const plain = await survey(polish, ola, { membership_id: id, reason: 'no_value', return_intent: 'probably_not_return' }, {})
    expect(plain.status).toBe(303)
    expect(plain.headers.get('Location')).toBe(`/panel?membership_notice=survey_thanks&membership=${id}#membership-${id}`)
    expect(await surveys(polish, id)).toHaveLength(1)
  })
})

describe('card update', () => {
  it('stores brand, last 4, expiry and a token — never the number or the code', async () => {
    const id = await membership(school, clubId, ann.id)
    const key = await publicKey(school, ann)
    const cypher = await encryptCard(key, { ...goodCard, origin: `http://${school.host}` })
    const res = await card(school, ann, { membership_id: id, cypher })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true, redirect: '/panel' })
    const after = await row(school, id)
    expect(after).toMatchObject({ cardBrand: 'visa', cardLast4: '1111', cardExpMonth: 5, cardExpYear: Number(nextYear), status: 'active' })
    expect(after.cardToken).toMatch(/^tok_test_1111_ok_[a-z0-9]+$/)
    expect(JSON.stringify(after)).not.toContain('4111111111111111')
    expect(JSON.stringify(after)).not.toContain('"123"')

    // The declining test card: stored with a declining token (billing's charges fail with it).
    const decline = await encryptCard(key, { cardNumber: '4000 0000 0000 0002', cardMonth: '01', cardYear: nextYear, cardCvv: '999', origin: `http://${school.host}` })
    const plain = await card(school, ann, { membership_id: id, cypher: decline }, {})
    expect(plain.status).toBe(303)
    expect(plain.headers.get('Location')).toBe(`/panel?membership_notice=card_updated&membership=${id}#membership-${id}`)
    expect((await row(school, id)).cardToken).toMatch(/^tok_test_0002_decline_/)

    // Shown on the panel card.
    const html = await (await appFetch(school.host, '/panel', { cookie: ann.cookie })).text()
    expect(html).toContain('Visa •••• 0002')
    expect(html).toContain('data-membership-update-card')
  })

  it('refuses a bad cypher, missing fields, another origin and an invalid card; nothing written', async () => {
    const id = await membership(school, clubId, ann.id)
    const before = await row(school, id)
    const key = await publicKey(school, ann)
    const origin = `http://${school.host}`
    const notValid = { errors: { cypher: ['Card data is not valid'] } }
    const checkDetails = { errors: { cypher: ['Please check your card details.'] } }
    const cases: Array<[Record<string, string>, unknown]> = [
      [{ membership_id: id, cypher: 'garbage' }, notValid],
      [{ membership_id: id, cypher: 'v1.AAAA.AAAAAAAAAAAAAAAA.AAAA' }, notValid],
      [{ membership_id: id, cypher: await encryptCard(key, { ...goodCard, origin: 'http://evil.example' }) }, notValid],
      [{ membership_id: id, cypher: await encryptCard(key, { ...goodCard, cardNumber: '5555 5555 5555 4445', origin }) }, notValid],
      [{ membership_id: id, cypher: await encryptCard(key, { ...goodCard, cardYear: String(new Date().getUTCFullYear() - 1), origin }) }, notValid],
      [{ membership_id: id, cypher: 'x'.repeat(5000) }, notValid],
      [{ membership_id: id }, checkDetails],
      [{ membership_id: id, cypher: '' }, checkDetails],
      [{ membership_id: id, cypher: await encryptCard(key, { ...goodCard, cardCvv: '', origin }) }, checkDetails],
      [{ membership_id: id, cypher: await encryptCard(key, { ...goodCard, cardMonth: '', origin }) }, checkDetails],
    ]
    for (const [form, body] of cases) {
      const res = await card(school, ann, form)
      expect(res.status, JSON.stringify(form).slice(0, 80)).toBe(422)
      expect(await res.json()).toEqual(body)
    }
    // A cypher made at another school cannot be replayed here.
    const foreign = await encryptCard(key, { ...goodCard, origin: `http://${other.host}` })
    expect(await (await card(school, ann, { membership_id: id, cypher: foreign })).json()).toEqual(notValid)
    expect(await row(school, id)).toEqual(before)
  })

  it("another student's or another school's membership is 404; a canceled one has no card to change", async () => {
    const id = await membership(school, clubId, ann.id)
    const before = await row(school, id)
    const key = await publicKey(school, ann)
    const cypher = await encryptCard(key, { ...goodCard, origin: `http://${school.host}` })
    expect((await card(school, bob, { membership_id: id, cypher })).status).toBe(404)
    const foreignCypher = await encryptCard(key, { ...goodCard, origin: `http://${other.host}` })
    expect((await card(other, otherStudent, { membership_id: id, cypher: foreignCypher })).status).toBe(404)
    expect(await row(school, id)).toEqual(before)

    await cancel(school, ann, { membership_id: id, confirm: 'CANCEL' })
    const res = await card(school, ann, { membership_id: id, cypher })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ errors: { membership: ['This membership has no further payments, so its card cannot be changed.'] } })
    expect((await row(school, id)).cardLast4).toBe('4242')
  })
})

describe('panel card', () => {
  async function panelFor(s: TestSchool, who: Student) {
    const res = await appFetch(s.host, '/panel', { cookie: who.cookie })
    expect(res.status).toBe(200)
    return res.text()
  }
  const statusOf = (html: string, id: string) => new RegExp(`data-membership-billing="${id}" data-membership-status="([a-z_]+)"`).exec(html)?.[1] as MembershipStatus | undefined

  it('shows active with the renewal date and card, at risk with the payment problem, canceled with access until, ended', async () => {
    const s = await createTestSchool({ name: 'Panel Club' })
    const clubs = await Promise.all(['Active club', 'Risky club', 'Canceled club', 'Ended club'].map((title) => createProduct(db(), s.tenantId, { kind: 'membership', title, published: true, membershipPeriod: 1 })))
    const who = await student(s, 'pat@example.com')
    const active = await membership(s, clubs[0]!.id, who.id)
    const risky = await membership(s, clubs[1]!.id, who.id, { status: 'at_risk', failedCharges: 1 })
    const canceled = await membership(s, clubs[2]!.id, who.id, { status: 'canceled', canceledAt: Date.now(), nextChargeAt: null })
    const ended = await membership(s, clubs[3]!.id, who.id, { status: 'ended', endedAt: Date.now() - DAY, currentPeriodEnd: Date.now() - DAY, nextChargeAt: null })
    const html = await panelFor(s, who)
    expect(statusOf(html, active)).toBe('active')
    expect(statusOf(html, risky)).toBe('at_risk')
    expect(statusOf(html, canceled)).toBe('canceled')
    expect(statusOf(html, ended)).toBe('ended')
    expect(html).toContain('Renews on ')
    expect(html).toContain('Payment problem: the last charge was not successful.')
    expect(html).toContain('Access until ')
    expect(html).toContain('Ended on ')
    expect(html).toContain('Visa •••• 4242, expires 12/2030')
    // Without JavaScript the cancel is a plain form.
    expect(html).toContain('action="/my/membership/cancel"')
    // Another student of the school sees none of it.
    const stranger = await student(s, 'kim@example.com')
    expect(statusOf(await panelFor(s, stranger), active)).toBeUndefined()
  })
})
