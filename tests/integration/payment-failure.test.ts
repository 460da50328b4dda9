// What the buyer and the school see when a payment fails, and the conversion code (issue 18 §3),
// through the real routes: the test provider's cards decline with the seed's reasons, kept on the
// transaction as `decline:{reason}`; the owner's transaction page and the renewal failure email name
// it in the school's language; the payment-success page runs the school's conversion code exactly
// once per sale, for the buyer only, and never for another school.
import { env } from 'cloudflare:workers'
import { and, eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { emailOutbox, memberships, transactions } from '#app/db/schema.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { createTransaction, setProviderRef, settleTransaction } from '#app/models/transaction.server.ts'
import { claimConversion } from '#app/models/transaction-conversion.server.ts'
import { recordDeclineReason } from '#app/models/transaction-decline.server.ts'
import { runMembershipRenewals } from '#app/membership/membership-billing.server.ts'
import { signTestNotification, testNotification } from '#app/payments/test-provider.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

const testEnv = env as unknown as Env & { TEST_PAYMENTS_SECRET: string }
const location = (res: Response) => res.headers.get('Location') ?? ''
const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get('Content-Security-Policy') ?? '')?.[1] ?? ''
const CONVERSION = '<script>window.__conversion = (window.__conversion || 0) + 1</script>'
const conversionScript = (nonce: string) => `<script nonce="${nonce}" data-creator-script="true">window.__conversion = (window.__conversion || 0) + 1</script>`

async function course(school: TestSchool, amount = 12_300) {
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: `Course ${crypto.randomUUID().slice(0, 6)}`, published: true, vatRate: 23 })
  await setPrices(db(), school.tenantId, product.id, [{ name: '', amount }])
  return product
}

/** A logged-in student at the test provider's hosted page of a fresh checkout of `slug`. */
async function checkout(school: TestSchool, slug: string) {
  const student = await createTestStudent(school.tenantId)
  const cookie = await login(school.host, student.email, student.password)
  const res = await appFetch(school.host, `/${slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on' } })
  expect(res.status).toBe(303)
  const hosted = new URL(location(res)).pathname
  const ref = hosted.split('/').pop()!
  const tx = (await db().select().from(transactions).where(and(eq(transactions.tenantId, school.tenantId), eq(transactions.providerRef, ref))))[0]!
  return { student, cookie, hosted, tx }
}

const txRow = async (school: TestSchool, id: string) => (await db().select().from(transactions).where(and(eq(transactions.tenantId, school.tenantId), eq(transactions.id, id))))[0]!

describe('the test provider declines with the seed’s reasons', () => {
  let school: TestSchool
  let slug: string
  beforeAll(async () => {
    school = await createTestSchool({ language: 'en' })
    slug = (await course(school)).slug
  })

  it('offers its test cards, labelled, next to the outcome buttons', async () => {
    const { cookie, hosted } = await checkout(school, slug)
    const html = await (await appFetch(school.host, hosted, { cookie })).text()
    expect(html).toContain('data-test-cards')
    expect(html).toContain('<option value="4000000000009995">4000 0000 0000 9995 — Insufficient funds</option>')
    expect(html).toMatch(/<option value="4242424242424242"( selected="")?>4242 4242 4242 4242 — the payment succeeds<\/option>/)
    for (const label of ['Pay', 'Pay (slow confirmation)', 'Decline the payment', 'Fail 3-D Secure', 'Pay with this card']) expect(html).toContain(`>${label}</button>`)
  })

  it.each([
    [{ outcome: 'card', card: '4000000000009995' }, 'decline:insufficient_funds'],
    [{ outcome: 'card', card: '4000 0000 0000 0069' }, 'decline:card_expired'],
    [{ outcome: 'card', card: '4000000000009979' }, 'decline:card_lost_stolen'],
    [{ outcome: 'card', card: '4000000000006975' }, 'decline:limit_exceeded'],
    [{ outcome: 'card', card: '4000000000000119' }, 'decline:processing'],
    [{ outcome: 'card', card: '4000008400001629' }, 'decline:three_ds_failed'],
    [{ outcome: 'failed' }, 'decline:sale_error'],
    [{ outcome: '3ds_failed' }, 'decline:three_ds_failed'],
  ])('%j ends the transaction failed with %s, through the signed notification', async (form, reason) => {
    const { cookie, hosted, tx } = await checkout(school, slug)
    const res = await appFetch(school.host, hosted, { cookie, form })
    expect(res.status).toBe(303)
    expect(location(res)).toBe(`/transaction/${tx.hash}/pending`)
    expect(await txRow(school, tx.id)).toMatchObject({ status: 'failed', statusReason: reason, accessGrantedAt: null })
    const events = await env.DB_SHARD_0.prepare('SELECT provider_status AS s FROM payment_events WHERE tenant_id = ? AND transaction_id = ?').bind(school.tenantId, tx.id).all<{ s: string }>()
    expect(events.results.map((e) => e.s)).toEqual([form.outcome === '3ds_failed' || reason === 'decline:three_ds_failed' ? '3ds_failed' : 'failed'])
    // The return URL leads to the pending page, which shows the failure.
    const back = await appFetch(school.host, location(res), { cookie })
    expect(back.status).toBe(303)
    expect(location(back)).toBe(`/transaction/${tx.hash}`)
    const page = await (await appFetch(school.host, location(back), { cookie })).text()
    expect(page).toContain('data-pending="FAILURE"')
    expect(page).toContain('Your payment did not go through')
  })

  it('the settlement itself records the reason a signed notification carries (no hosted page involved)', async () => {
    const { tx } = await checkout(school, slug)
    const n = await testNotification(testEnv.TEST_PAYMENTS_SECRET, tx.providerRef!, 'failed', undefined, 'card_expired')
    const res = await appFetch(school.host, `/payments/test/${tx.integrationId}/notify`, {
      method: 'POST',
      body: n.body,
      headers: { 'Content-Type': 'application/json', 'X-Test-Payments-Signature': n.signature, 'Sec-Fetch-Site': 'cross-site' },
    })
    expect(res.status).toBe(200)
    expect(await txRow(school, tx.id)).toMatchObject({ status: 'failed', statusReason: 'decline:card_expired' })
    // A signed notification with a reason that is not one of ours is refused as a whole (zod at the boundary).
    const other = await checkout(school, slug)
    const body = JSON.stringify({ id: `evt_${newId()}`, payment: other.tx.providerRef, status: 'failed', reason: 'made_up' })
    const refused = await appFetch(school.host, `/payments/test/${other.tx.integrationId}/notify`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'X-Test-Payments-Signature': await signTestNotification(testEnv.TEST_PAYMENTS_SECRET, body), 'Sec-Fetch-Site': 'cross-site' },
    })
    expect(refused.status).toBe(400)
    expect(await txRow(school, other.tx.id)).toMatchObject({ status: 'pending', statusReason: null })
  })

  it('a card that pays completes the sale; a number that is not a card is refused and changes nothing', async () => {
    const paid = await checkout(school, slug)
    expect((await appFetch(school.host, paid.hosted, { cookie: paid.cookie, form: { outcome: 'card', card: '4242 4242 4242 4242' } })).status).toBe(303)
    expect(await txRow(school, paid.tx.id)).toMatchObject({ status: 'completed', statusReason: null })

    const bad = await checkout(school, slug)
    for (const card of ['', 'abc', '4000', '4000000000009995000000']) {
      const res = await appFetch(school.host, bad.hosted, { cookie: bad.cookie, form: { outcome: 'card', card } })
      expect(res.status, card).toBe(422)
      expect(await res.text()).toContain('Choose a card from the list.')
    }
    expect(await txRow(school, bad.tx.id)).toMatchObject({ status: 'pending', statusReason: null })
  })

  it('a recorded reason is never overwritten, and only a failed transaction gets one', async () => {
    const { cookie, hosted, tx } = await checkout(school, slug)
    expect(await recordDeclineReason(db(), school.tenantId, tx.id, 'sale_error')).toBe(false) // still pending
    await appFetch(school.host, hosted, { cookie, form: { outcome: 'card', card: '4000000000009995' } })
    expect(await recordDeclineReason(db(), school.tenantId, tx.id, 'sale_error')).toBe(false)
    expect((await txRow(school, tx.id)).statusReason).toBe('decline:insufficient_funds')
    // The 72-hour expiry keeps its own reason.
    const expired = await checkout(school, slug)
    await settleTransaction(db(), school.tenantId, expired.tx.id, { event: null, status: 'failed', reason: 'expired' })
    expect(await recordDeclineReason(db(), school.tenantId, expired.tx.id, 'sale_error')).toBe(false)
    expect((await txRow(school, expired.tx.id)).statusReason).toBe('expired')
  })
})

describe('the owner’s transaction page names the decline', () => {
  it.each([
    ['en', 'Insufficient funds', 'Top up your account or use another card.'],
    ['pl', 'Brak wystarczających środków', 'Zasil konto lub użyj innej karty.'],
  ] as const)('%s', async (language, text, hint) => {
    const school = await createTestSchool({ language })
    const { slug } = await course(school)
    const { cookie, hosted, tx } = await checkout(school, slug)
    await appFetch(school.host, hosted, { cookie, form: { outcome: 'card', card: '4000000000009995' } })
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const html = await (await appFetch(school.host, `/home/transactions/${tx.id}`, { cookie: owner })).text()
    expect(html).toMatch(new RegExp(`data-status-reason="true" data-decline="insufficient_funds"><strong[^>]*>${text}</strong><span[^>]*>${hint}</span>`))
    // The 72-hour expiry keeps the seed's text.
    const expired = await checkout(school, slug)
    await settleTransaction(db(), school.tenantId, expired.tx.id, { event: null, status: 'failed', reason: 'expired' })
    const page = await (await appFetch(school.host, `/home/transactions/${expired.tx.id}`, { cookie: owner })).text()
    expect(page).toContain('data-status-reason')
    expect(page).not.toContain('data-decline')
  })
})

describe('the renewal failure email names the decline in the school’s language', () => {
  async function membershipWithCard(school: TestSchool, token: string) {
    const product = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Club', published: true, membershipPeriod: 1 })
    const student = await createTestStudent(school.tenantId)
    const ref = `tp_${newId()}`
    const tx = await createTransaction(db(), school.tenantId, {
      userId: student.id,
      productId: product.id,
      productKind: 'membership',
      productTitle: 'Club',
      currency: 'PLN',
      unitAmount: 4_900,
      totalAmount: 4_900,
      buyer: JSON.stringify({ name: 'Club Buyer', email: student.email }),
      termsAcceptedAt: Date.now(),
      checkoutPath: `/${product.slug}/checkout`,
    })
    await setProviderRef(db(), school.tenantId, tx.id, { provider: 'test', integrationId: 'test', providerRef: ref })
    const n = await testNotification(testEnv.TEST_PAYMENTS_SECRET, ref, 'succeeded')
    const res = await appFetch(school.host, '/payments/test/test/notify', { method: 'POST', body: n.body, headers: { 'Content-Type': 'application/json', 'X-Test-Payments-Signature': n.signature } })
    expect(res.status).toBe(200)
    const [m] = await db().select().from(memberships).where(and(eq(memberships.tenantId, school.tenantId), eq(memberships.transactionId, tx.id)))
    await db().update(memberships).set({ cardToken: token, cardBrand: 'visa', cardLast4: token.slice(9, 13) }).where(and(eq(memberships.tenantId, school.tenantId), eq(memberships.id, m!.id)))
    return { student, membership: m! }
  }
  const mailsTo = (school: TestSchool, to: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.tenantId, school.tenantId), eq(emailOutbox.toAddress, to)))

  it.each([
    ['en', 'tok_test_9995_decline_abcdef', 'The card issuer gave this reason: Insufficient funds. Top up your account or use another card.', 'decline:insufficient_funds'],
    ['pl', 'tok_test_9995_decline_abcdef', 'Wystawca karty podał powód: Brak wystarczających środków. Zasil konto lub użyj innej karty.', 'decline:insufficient_funds'],
    ['en', 'tok_test_0002_decline_abcdef', 'The card issuer gave this reason: Sale error. Check your card details or use another card.', 'decline:sale_error'],
  ] as const)('%s, %s', async (language, token, line, _reason) => {
    const school = await createTestSchool({ language })
    const { student, membership } = await membershipWithCard(school, token)
    const report = await runMembershipRenewals(testEnv, membership.currentPeriodEnd! + 1_000, { tenantId: school.tenantId })
    expect(report.outcomes.filter((o) => o.membershipId === membership.id)).toMatchObject([{ result: 'failed', reason: 'card_declined', emailed: true }])
    const sent = (await mailsTo(school, student.email)).filter((m) => m.template === 'membership_payment_problem')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.textBody).toContain(line)
    expect(sent[0]!.htmlBody).toContain(line.replace(/'/g, '&#39;'))
  })

  it('a card the provider could not charge for another reason gets no decline line', async () => {
    const school = await createTestSchool({ language: 'en' })
    const { student, membership } = await membershipWithCard(school, 'not-a-test-token')
    await runMembershipRenewals(testEnv, membership.currentPeriodEnd! + 1_000, { tenantId: school.tenantId })
    const sent = (await mailsTo(school, student.email)).filter((m) => m.template === 'membership_payment_problem')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.textBody).not.toContain('The card issuer gave this reason')
  })
})

describe('the payment-success page runs the conversion code once per sale', () => {
  let school: TestSchool
  let other: TestSchool
  let slug: string
  let owner: string
  beforeAll(async () => {
    school = await createTestSchool({ language: 'en' })
    other = await createTestSchool({ language: 'en' })
    slug = (await course(school)).slug
    owner = await login(school.host, school.owner.email, school.owner.password)
    const res = await appFetch(school.host, '/home/settings/page', {
      cookie: owner,
      form: { avatarPath: '', coverPath: '', name: 'Conversion School', language: 'en', template: 'classic', authorName: '', bio: '', contactEmail: '', customJs: '', conversionCode: CONVERSION },
    })
    expect(res.status).toBe(302)
  })

  async function paid() {
    const made = await checkout(school, slug)
    const res = await appFetch(school.host, made.hosted, { cookie: made.cookie, form: { outcome: 'succeeded' } })
    expect(location(res)).toBe(`/transaction/${made.tx.hash}/pending`)
    return made
  }

  it('the first return leads to the success page, which runs the code; every later visit goes on to the course', async () => {
    const { cookie, tx } = await paid()
    const back = await appFetch(school.host, `/transaction/${tx.hash}/pending`, { cookie })
    expect(back.status).toBe(303)
    expect(location(back)).toBe(`/transaction/${tx.hash}/success`)
    // A whole-document load, also when a client-side form followed the redirect.
    expect(back.headers.get('X-Remix-Reload-Document')).toBe('true')

    const success = await appFetch(school.host, location(back), { cookie })
    expect(success.status).toBe(200)
    expect(success.headers.get('Cache-Control')).toBe('private, no-store')
    const html = await success.text()
    expect(html).toContain('data-payment-success')
    expect(html).toContain('data-pending-result="success"')
    expect(html).toContain('Payment successful')
    expect(html).toContain(`href="/${slug}/watch"`)
    expect(html).toContain(conversionScript(nonceOf(success)))
    expect(html.match(/<script[^>]*data-creator-script[^>]*>window\.__conversion/g)).toHaveLength(1)
    expect((await txRow(school, tx.id)).conversionAt).not.toBeNull()

    // Refresh, another tab, the return URL again: straight into the course, no conversion.
    for (const path of [`/transaction/${tx.hash}/success`, `/transaction/${tx.hash}/pending`]) {
      const again = await appFetch(school.host, path, { cookie })
      expect(again.status, path).toBe(303)
      expect(location(again), path).toBe(`/${slug}/watch`)
    }
  })

  it('two tabs at once: exactly one runs the code', async () => {
    const { cookie, tx } = await paid()
    const pages = await Promise.all(Array.from({ length: 4 }, () => appFetch(school.host, `/transaction/${tx.hash}/success`, { cookie })))
    expect(pages.map((p) => p.status).sort()).toEqual([200, 303, 303, 303])
  })

  it('a client-side navigation reloads the page as a document first, without using up the conversion', async () => {
    const { cookie, tx } = await paid()
    const data = await appFetch(school.host, `/transaction/${tx.hash}/success`, { cookie, headers: { 'Sec-Fetch-Dest': 'empty', 'Sec-Fetch-Mode': 'cors' } })
    expect(data.status).toBe(303)
    expect(data.headers.get('X-Remix-Reload-Document')).toBe('true')
    expect(location(data)).toBe(`/transaction/${tx.hash}/success`)
    expect((await txRow(school, tx.id)).conversionAt).toBeNull()
    const doc = await appFetch(school.host, `/transaction/${tx.hash}/success`, { cookie, headers: { 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Mode': 'navigate' } })
    expect(doc.status).toBe(200)
    expect(await doc.text()).toContain(conversionScript(nonceOf(doc)))
  })

  it('the owner may look at it without running the code or using up the buyer’s conversion', async () => {
    const { cookie, tx } = await paid()
    const seen = await appFetch(school.host, `/transaction/${tx.hash}/success`, { cookie: owner })
    expect(seen.status).toBe(200)
    const html = await seen.text()
    expect(html).toContain('Payment successful')
    expect(html).not.toMatch(/<script[^>]*data-creator-script[^>]*>window\.__conversion/)
    expect((await txRow(school, tx.id)).conversionAt).toBeNull()
    expect((await appFetch(school.host, `/transaction/${tx.hash}/success`, { cookie })).status).toBe(200)
  })

  it('a free order is no payment: its return leads to the pending page’s "Access granted", never the success page', async () => {
    const free = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Free one', published: true, isFree: true })
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, `/${free.slug}/checkout`, { cookie, form: { terms: 'on', waiver: 'on' } })
    const hash = /^\/transaction\/([a-z0-9]+)\/pending$/.exec(location(res))![1]!
    expect(location(await appFetch(school.host, `/transaction/${hash}/pending`, { cookie }))).toBe(`/transaction/${hash}`)
    expect(location(await appFetch(school.host, `/transaction/${hash}/success`, { cookie }))).toBe(`/transaction/${hash}`)
  })

  it('is only for a completed sale: a pending or failed one goes to the pending page', async () => {
    const pending = await checkout(school, slug)
    const res = await appFetch(school.host, `/transaction/${pending.tx.hash}/success`, { cookie: pending.cookie })
    expect(res.status).toBe(303)
    expect(location(res)).toBe(`/transaction/${pending.tx.hash}`)
    await appFetch(school.host, pending.hosted, { cookie: pending.cookie, form: { outcome: 'failed' } })
    expect(location(await appFetch(school.host, `/transaction/${pending.tx.hash}/success`, { cookie: pending.cookie }))).toBe(`/transaction/${pending.tx.hash}`)
    expect((await txRow(school, pending.tx.id)).conversionAt).toBeNull()
  })

  it('another school can neither see nor claim it; another student 404s', async () => {
    const { cookie, tx } = await paid()
    expect((await appFetch(other.host, `/transaction/${tx.hash}/success`, { cookie })).status).toBe(404)
    expect((await appFetch(other.host, `/transaction/${tx.hash}/pending`, { cookie })).status).toBe(404)
    expect(await claimConversion(db(), other.tenantId, tx.id)).toBe(false)
    const stranger = await createTestStudent(school.tenantId)
    const strangerCookie = await login(school.host, stranger.email, stranger.password)
    expect((await appFetch(school.host, `/transaction/${tx.hash}/success`, { cookie: strangerCookie })).status).toBe(404)
    expect((await appFetch(school.host, `/transaction/${tx.hash}/success`)).status).toBe(404)
    expect((await txRow(school, tx.id)).conversionAt).toBeNull()
    expect(await claimConversion(db(), school.tenantId, tx.id)).toBe(true)
    expect(await claimConversion(db(), school.tenantId, tx.id)).toBe(false)
  })
})

describe('the failure page names the decline in the buyer’s language', () => {
  it.each([
    ['en', 'Insufficient funds', 'Top up your account or use another card.', 'Your payment did not go through'],
    ['pl', 'Brak wystarczających środków', 'Zasil konto lub użyj innej karty.', 'Twoja płatność nie powiodła się'],
  ] as const)('%s', async (language, text, hint, failed) => {
    const school = await createTestSchool({ language })
    const { slug } = await course(school)
    const { cookie, hosted, tx } = await checkout(school, slug)
    await appFetch(school.host, hosted, { cookie, form: { outcome: 'card', card: '4000000000009995' } })
    const page = await (await appFetch(school.host, `/transaction/${tx.hash}`, { cookie })).text()
    expect(page).toContain('data-pending="FAILURE"')
    expect(page).toContain(failed)
    expect(page).toMatch(new RegExp(`data-decline="insufficient_funds"><p[^>]*>${text}</p><p[^>]*>${hint}</p>`))
    expect(page).toContain(`href="/${slug}/checkout"`)
    // The poll answers the reason too (the page turns to failure without a reload).
    const poll = await appFetch(school.host, `/transaction/${tx.hash}/pending`, { method: 'POST', cookie, headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } })
    expect(await poll.json()).toMatchObject({ status: 'FAILURE', decline: 'insufficient_funds' })
  })

  it('a failure without a decline (the 72-hour expiry, a mismatch) keeps the generic text only', async () => {
    const school = await createTestSchool({ language: 'en' })
    const { slug } = await course(school)
    const { cookie, tx } = await checkout(school, slug)
    await settleTransaction(db(), school.tenantId, tx.id, { event: null, status: 'failed', reason: 'expired' })
    const page = await (await appFetch(school.host, `/transaction/${tx.hash}`, { cookie })).text()
    expect(page).toContain('Your payment did not go through')
    expect(page).not.toContain('data-decline')
  })
})
