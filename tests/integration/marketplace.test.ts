// Issue 18 §1 (ADR 023): Coursefront payments — the platform's own Stripe Connect and PayU
// Marketplace accounts, against the extended Stripe and PayU peers. Onboarding from the payment
// settings, a sale held by the platform before the school is onboarded, a split sale after it
// (the fee landing with the platform, the rest with the school), and a refund reversing the split.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { getPayoutAccount } from '#app/models/payout-account.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { PAYU_RECHECK_AFTER_MS, recheckPayuRegistrations } from '#app/payments/marketplace.server.ts'
import { payuClient } from '#app/payments/payu.server.ts'
import { stripeClient } from '#app/payments/stripe.server.ts'
import { appFetch, createTestSchool, db, flashOf, followFlash, login, PLATFORM, type TestSchool } from '#tests/factories.ts'

const PEER = 'http://dev-peers.internal'
const peers = env.DEV_PEERS!
const peerFetch = (input: RequestInfo | URL, init?: RequestInit) => peers.fetch(input as RequestInfo, init as RequestInit<CfProperties>)
const vars = env as unknown as Record<string, string>
const platformStripe = () => stripeClient({ secretKey: vars.PLATFORM_STRIPE_SECRET_KEY!, webhookSecret: '', apiBase: `${PEER}/stripe` }, peerFetch)
const platformPayu = () =>
  payuClient({ baseUrl: `${PEER}/payu`, posId: vars.PLATFORM_PAYU_POS_ID!, clientId: vars.PLATFORM_PAYU_CLIENT_ID!, clientSecret: vars.PLATFORM_PAYU_CLIENT_SECRET!, secondKey: vars.PLATFORM_PAYU_SECOND_KEY! }, peerFetch)

async function control<T = Record<string, unknown>>(path: string, body: unknown = {}) {
  const res = await peers.fetch(`${PEER}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  expect([200, 201], path).toContain(res.status)
  return (await res.json()) as T
}

type Delivery = { url: string; payload: string; signature: string }

/** The peer cannot reach the app under test: deliver its signed events ourselves, to the URL they name. */
async function deliver(deliveries: Delivery[], pathOf: string) {
  const mine = deliveries.filter((d) => new URL(d.url).pathname === pathOf)
  expect(mine.length, pathOf).toBeGreaterThan(0)
  const statuses: number[] = []
  for (const d of mine) {
    const url = new URL(d.url)
    const res = await appFetch(url.host, url.pathname, { method: 'POST', body: d.payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': d.signature, 'Sec-Fetch-Site': 'cross-site' } })
    statuses.push(res.status)
  }
  return statuses
}

async function schoolWithCourse(currency: 'USD' | 'PLN', amount: number) {
  const school = await createTestSchool({ language: 'en' })
  await env.DB.prepare('UPDATE tenants SET currency = ? WHERE id = ?').bind(currency, school.tenantId).run()
  const product = await createProduct(db(), school.tenantId, { kind: 'course', title: `Course ${crypto.randomUUID().slice(0, 6)}`, published: true, vatRate: 23 })
  await setPrices(db(), school.tenantId, product.id, [{ name: '', amount }])
  const cookie = await login(school.host, school.owner.email, school.owner.password)
  return { school, product, cookie }
}

let buyers = 0
/** A visitor buys through `integration`; returns the transaction and where the provider sends them. */
async function buy(school: TestSchool, productSlug: string, integration: string) {
  const email = `buyer-${++buyers}-${crypto.randomUUID().slice(0, 6)}@example.com`
  const res = await appFetch(school.host, `/${productSlug}/checkout`, { form: { name: 'Bea Buyer', email, password: 'buyer-pass-1', terms: 'on', waiver: 'on', integration } })
  expect(res.status, (await res.clone().text()).match(/data-field-error="[^"]+">[^<]*/g)?.join(' ')).toBe(303)
  const row = await env.DB_SHARD_0.prepare('SELECT id FROM transactions WHERE tenant_id = ? ORDER BY created_at DESC LIMIT 1').bind(school.tenantId).first<{ id: string }>()
  const tx = (await getTransaction(db(), school.tenantId, row!.id))!
  return { tx, location: res.headers.get('Location') ?? '', email }
}

const accessOf = async (tenantId: string, txId: string) =>
  (await env.DB_SHARD_0.prepare('SELECT revoked_at AS revokedAt FROM product_access WHERE tenant_id = ? AND reason = ?').bind(tenantId, `transaction:${txId}`).first<{ revokedAt: number | null }>()) ?? null

describe('Stripe Connect (destination charges)', () => {
  it('onboards the school, holds an early sale, splits the next one at Stripe, and a refund reverses the split', async () => {
    const { school, product, cookie } = await schoolWithCourse('USD', 24_600)

    // Not onboarded yet: the platform's Stripe is offered and the platform holds the money.
    const held = await buy(school, product.slug, 'platform-stripe')
    expect(held.location).toMatch(/\/stripe\/pay\/cs_/)
    expect(held.tx).toMatchObject({ provider: 'stripe', integrationId: 'platform-stripe', collector: 'platform', payoutAccountId: null })

    // Onboarding starts from the settings: an Express account, an account link, the platform's webhooks.
    const start = await appFetch(school.host, '/home/settings/payments/stripe-connect', { method: 'POST', cookie, form: {} })
    expect(start.status).toBe(302)
    const link = new URL(start.headers.get('Location')!)
    expect(link.pathname).toMatch(/^\/stripe\/connect\/onboard\//)
    const account = (await getPayoutAccount(db(), school.tenantId, 'stripe'))!
    expect(account).toMatchObject({ status: 'onboarding', chargesEnabled: false })
    expect(account.accountRef).toMatch(/^acct_/)
    const hooks = await env.DB.prepare('SELECT purpose, url FROM platform_webhooks ORDER BY purpose').all<{ purpose: string; url: string }>()
    expect(hooks.results).toEqual([
      { purpose: 'account', url: `http://${PLATFORM}/payments/platform/stripe-account/notify` },
      { purpose: 'connect', url: `http://${PLATFORM}/payments/platform/stripe-connect/notify` },
    ])
    // A second click resumes the same account.
    await appFetch(school.host, '/home/settings/payments/stripe-connect', { method: 'POST', cookie, form: {} })
    expect((await getPayoutAccount(db(), school.tenantId, 'stripe'))!.accountRef).toBe(account.accountRef)
    const pending = await (await appFetch(school.host, '/home/settings/payments', { cookie })).text()
    expect(pending).toMatch(/data-marketplace-provider="stripe" data-payout-status="onboarding"/)

    // Stripe finishes onboarding: account.updated on the connect endpoint → the app asks Stripe, which says enabled.
    const completed = await control<{ deliveries: Delivery[] }>(`/_peer/stripe/accounts/${account.accountRef}/complete`, {})
    expect(await deliver(completed.deliveries, '/payments/platform/stripe-connect/notify')).toEqual([200])
    expect(await getPayoutAccount(db(), school.tenantId, 'stripe')).toMatchObject({ status: 'enabled', chargesEnabled: true, payoutsEnabled: true })
    const back = await appFetch(school.host, '/home/settings/payments/stripe-connect?step=return', { cookie })
    expect(back.headers.get('Location')).toBe('/home/settings/payments')
    expect(flashOf(back)).toMatchObject({ done: 'stripe_enabled', message: 'marketplace.done.stripe.enabled' })
    expect(await (await appFetch(school.host, back.headers.get('Location')!, { cookie: followFlash(cookie, back) })).text()).toContain('Stripe payouts are active')

    // Now a sale is a destination charge: the fee stays with the platform, the rest goes to the school.
    const split = await buy(school, product.slug, 'platform-stripe')
    expect(split.tx).toMatchObject({ collector: 'split', payoutAccountId: account.id })
    const stripe = platformStripe()
    const platformBefore = (await stripe.retrieveBalance()).available.find((b) => b.currency === 'usd')?.amount ?? 0
    const paid = await control<{ delivery: number[][]; session: { id: string } }>(`/_peer/stripe/sessions/${split.tx.providerRef}/complete`, {})
    expect(paid.session.id).toBe(split.tx.providerRef)
    const events = await control<{ deliveries: Delivery[] }>('/_peer/stripe/events', { type: 'checkout.session.completed', object: await stripe.retrieveSession(split.tx.providerRef!) })
    expect(await deliver(events.deliveries, '/payments/platform/stripe-account/notify')).toEqual([200])
    const sold = (await getTransaction(db(), school.tenantId, split.tx.id))!
    expect(sold).toMatchObject({ status: 'completed', holdUntil: null })
    expect((await accessOf(school.tenantId, sold.id))?.revokedAt).toBeNull()
    const fee = sold.feeAmount
    expect(fee).toBeGreaterThan(0)
    expect((await stripe.retrieveBalance(account.accountRef)).available).toEqual([expect.objectContaining({ currency: 'usd', amount: 24_600 - fee })])
    expect((await stripe.retrieveBalance()).available.find((b) => b.currency === 'usd')?.amount).toBe(platformBefore + fee)

    // The owner refunds it: Stripe takes the school's share back and returns the platform's fee; the buyer loses access.
    const refund = await appFetch(school.host, `/home/transactions/${sold.id}/refund`, { method: 'POST', cookie, form: { confirm: 'yes' } })
    expect(refund.headers.get('Location')).toBe(`/home/transactions/${sold.id}?refund=done`)
    expect((await getTransaction(db(), school.tenantId, sold.id))!.status).toBe('refunded')
    expect((await accessOf(school.tenantId, sold.id))?.revokedAt).toBeGreaterThan(0)
    expect((await stripe.retrieveBalance(account.accountRef)).available).toEqual([expect.objectContaining({ currency: 'usd', amount: 0 })])
    expect((await stripe.retrieveBalance()).available.find((b) => b.currency === 'usd')?.amount).toBe(platformBefore)
    // Refunding again changes nothing.
    const again = await appFetch(school.host, `/home/transactions/${sold.id}/refund`, { method: 'POST', cookie, form: { confirm: 'yes' } })
    expect(again.headers.get('Location')).toBe(`/home/transactions/${sold.id}?refund=error.not_refundable`)
  })

  it('refuses an unsigned or foreign-signed platform webhook, answers 404 on a school host, and ignores events it does not act on', async () => {
    const { school, cookie } = await schoolWithCourse('USD', 1000)
    await appFetch(school.host, '/home/settings/payments/stripe-connect', { method: 'POST', cookie, form: {} })
    const post = (host: string, path: string, signature: string, body = '{}') =>
      appFetch(host, path, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature, 'Sec-Fetch-Site': 'cross-site' } })
    expect((await post(PLATFORM, '/payments/platform/stripe-connect/notify', 't=1,v1=00')).status).toBe(400)
    expect((await post(school.host, '/payments/platform/stripe-connect/notify', 't=1,v1=00')).status).toBe(404)
    expect((await post(PLATFORM, '/payments/platform/stripe-elsewhere/notify', 't=1,v1=00')).status).toBe(404)
    // A session the platform never made (e.g. a school's own, on the same Stripe account here): acknowledged, nothing done.
    const other = await control<{ deliveries: Delivery[] }>('/_peer/stripe/events', { type: 'checkout.session.expired', object: { id: 'cs_test_not_ours', object: 'checkout.session', status: 'expired', payment_status: 'unpaid' } })
    expect(await deliver(other.deliveries, '/payments/platform/stripe-account/notify')).toEqual([200])
  })

  it('only the owner may start onboarding; another school’s transaction cannot be refunded from here', async () => {
    const { school, product, cookie } = await schoolWithCourse('USD', 1000)
    const other = await schoolWithCourse('USD', 1000)
    const theirs = await buy(other.school, other.product.slug, 'test')
    const refused = await appFetch(school.host, `/home/transactions/${theirs.tx.id}/refund`, { method: 'POST', cookie, form: { confirm: 'yes' } })
    expect(refused.status).toBe(404)
    const unconfirmed = await buy(school, product.slug, 'test')
    const noConfirm = await appFetch(school.host, `/home/transactions/${unconfirmed.tx.id}/refund`, { method: 'POST', cookie, form: {} })
    expect(noConfirm.headers.get('Location')).toBe(`/home/transactions/${unconfirmed.tx.id}?refund=error.confirm`)
    const anonymous = await appFetch(school.host, '/home/settings/payments/stripe-connect', { method: 'POST', form: {} })
    expect(anonymous.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
    expect(await getPayoutAccount(db(), school.tenantId, 'stripe')).toBeNull()
  })
})

describe('PayU Marketplace (shopping carts)', () => {
  it('registers the school as a submerchant, splits a sale in its cart, and a refund takes it back from the cart', async () => {
    const { school, product, cookie } = await schoolWithCourse('PLN', 14_900)

    // Not registered: the platform's PayU holds the money.
    const held = await buy(school, product.slug, 'platform-payu')
    expect(held.tx).toMatchObject({ provider: 'payu', integrationId: 'platform-payu', collector: 'platform' })

    const start = await appFetch(school.host, '/home/settings/payments/payu-marketplace', { method: 'POST', cookie, form: {} })
    expect(start.status).toBe(302)
    const registration = new URL(start.headers.get('Location')!)
    expect(registration.pathname).toBe('/payu/boarding/form')
    const extCustomerId = registration.searchParams.get('extCustomerId')!
    expect(extCustomerId).toBe(`cf-${school.tenantId}`)
    expect(registration.searchParams.get('continueUrl')).toBe(`http://${school.host}/home/settings/payments/payu-marketplace?step=return`)

    // Back before PayU verified it: still onboarding, the sale is not split.
    await control('/_peer/payu/submerchants', { extCustomerId, name: 'School Ltd', status: 'pending', currencies: ['PLN'] })
    const early = await appFetch(school.host, '/home/settings/payments/payu-marketplace?step=return', { cookie })
    expect(early.headers.get('Location')).toBe('/home/settings/payments')
    expect(flashOf(early)).toMatchObject({ done: 'payu_onboarding', message: 'marketplace.done.payu.onboarding' })
    await control(`/_peer/payu/submerchants/${extCustomerId}/verify`)
    const verified = await appFetch(school.host, '/home/settings/payments/payu-marketplace?step=return', { cookie })
    expect(verified.headers.get('Location')).toBe('/home/settings/payments')
    expect(flashOf(verified)).toMatchObject({ done: 'payu_enabled', message: 'marketplace.done.payu.enabled' })
    const account = (await getPayoutAccount(db(), school.tenantId, 'payu'))!
    expect(account).toMatchObject({ status: 'enabled', accountRef: extCustomerId })

    // A split sale: one cart for the school, the platform's fee in it.
    const sale = await buy(school, product.slug, 'platform-payu')
    expect(sale.tx).toMatchObject({ collector: 'split', payoutAccountId: account.id })
    const payu = platformPayu()
    const orders = await (await peerFetch(`${PEER}/_peer/payu/orders`)).json<{ orders: Array<{ orderId: string; shoppingCarts?: Array<{ extCustomerId: string; amount: string | number; fee: string | number }> }> }>()
    const cart = orders.orders.find((o) => o.orderId === sale.tx.providerRef)?.shoppingCarts
    expect(cart?.map((c) => ({ extCustomerId: c.extCustomerId, amount: Number(c.amount), fee: Number(c.fee) }))).toEqual([{ extCustomerId, amount: 14_900, fee: sale.tx.feeAmount }])
    const { notification } = await control<{ notification: { body: string; headers: Record<string, string> } }>(`/_peer/payu/orders/${sale.tx.providerRef}/status`, { status: 'COMPLETED' })
    const notified = await appFetch(school.host, '/payments/payu/platform-payu/notify', { method: 'POST', body: notification.body, headers: { ...notification.headers, 'Sec-Fetch-Site': 'cross-site' } })
    expect(notified.status).toBe(200)
    const sold = (await getTransaction(db(), school.tenantId, sale.tx.id))!
    expect(sold.status).toBe('completed')
    expect(await payu.retrieveSubmerchantBalance(extCustomerId, 'PLN')).toMatchObject({ availableAmount: 14_900 - sold.feeAmount })
    const fees = await (await peerFetch(`${PEER}/_peer/payu/marketplace/balance?currencyCode=PLN`)).json<{ fees: number }>()

    // The refund names the school's cart: PayU takes the school's share back and returns the fee.
    const refund = await appFetch(school.host, `/home/transactions/${sold.id}/refund`, { method: 'POST', cookie, form: { confirm: 'yes' } })
    expect(refund.headers.get('Location')).toBe(`/home/transactions/${sold.id}?refund=done`)
    expect((await getTransaction(db(), school.tenantId, sold.id))!.status).toBe('refunded')
    expect(await payu.retrieveSubmerchantBalance(extCustomerId, 'PLN')).toMatchObject({ availableAmount: 0 })
    expect((await (await peerFetch(`${PEER}/_peer/payu/marketplace/balance?currencyCode=PLN`)).json<{ fees: number }>()).fees).toBe(fees.fees - sold.feeAmount)
  })

  it('the cron asks PayU again about a registration still being verified, and enables it once PayU has', async () => {
    const { school, cookie } = await schoolWithCourse('PLN', 1000)
    const start = await appFetch(school.host, '/home/settings/payments/payu-marketplace', { method: 'POST', cookie, form: {} })
    const extCustomerId = new URL(start.headers.get('Location')!).searchParams.get('extCustomerId')!
    await control('/_peer/payu/submerchants', { extCustomerId, name: 'Pending Ltd', status: 'pending', currencies: ['PLN'] })
    const context = { cloudflare: { env, ctx: createExecutionContext() }, db: db(), site: { kind: 'platform' }, memo: new Map() } as unknown as AppLoadContext
    const later = Date.now() + PAYU_RECHECK_AFTER_MS + 1000
    await recheckPayuRegistrations(context, later)
    expect((await getPayoutAccount(db(), school.tenantId, 'payu'))!.status).toBe('onboarding')
    await control(`/_peer/payu/submerchants/${extCustomerId}/verify`)
    // Asked again only after the interval: a run right away leaves it to the next.
    await recheckPayuRegistrations(context, later)
    expect((await getPayoutAccount(db(), school.tenantId, 'payu'))!.status).toBe('onboarding')
    const summary = await recheckPayuRegistrations(context, later + 2 * PAYU_RECHECK_AFTER_MS)
    expect(summary.enabled).toBeGreaterThanOrEqual(1)
    expect(await getPayoutAccount(db(), school.tenantId, 'payu')).toMatchObject({ status: 'enabled', chargesEnabled: true })
  })
})
