// Issue 18 §3: a declined card's reason comes from the provider's own API — PayU's transaction
// data (card.cardData.cardResponseCode) for a canceled order, Stripe's PaymentIntent
// last_payment_error for a session that expired after declines — and the failure page says it in
// the seed's words, in the buyer's language.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { stripeClient } from '#app/payments/stripe.server.ts'
import { appFetch, createTestSchool, db, type TestSchool } from '#tests/factories.ts'

const PEER = 'http://dev-peers.internal'
const peers = env.DEV_PEERS!
const testEnv = env as unknown as { INTEGRATIONS_KEY: string; PLATFORM_STRIPE_SECRET_KEY: string }
const PAYU = { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000' }

async function school(language: 'en' | 'pl', currency: 'PLN' | 'USD') {
  const s = await createTestSchool({ language })
  await env.DB.prepare('UPDATE tenants SET currency = ? WHERE id = ?').bind(currency, s.tenantId).run()
  const product = await createProduct(db(), s.tenantId, { kind: 'course', title: `Course ${crypto.randomUUID().slice(0, 6)}`, published: true, vatRate: 23 })
  await setPrices(db(), s.tenantId, product.id, [{ name: '', amount: 14_900 }])
  return { school: s, product }
}

async function buy(s: TestSchool, slug: string, integration: string) {
  const res = await appFetch(s.host, `/${slug}/checkout`, { form: { name: 'Dana Decline', email: `dana-${crypto.randomUUID().slice(0, 8)}@example.com`, password: 'dana-pass-1', terms: 'on', waiver: 'on', integration } })
  expect(res.status).toBe(303)
  const row = await env.DB_SHARD_0.prepare('SELECT id FROM transactions WHERE tenant_id = ? ORDER BY created_at DESC LIMIT 1').bind(s.tenantId).first<{ id: string }>()
  // The checkout registered the buyer and signed them in: their cookie opens the pending page.
  const cookie = res.headers.get('Set-Cookie')?.split(';')[0] ?? ''
  return { ...(await getTransaction(db(), s.tenantId, row!.id))!, cookie }
}

/** The buyer's pending page, as it shows a failed payment. */
async function failurePage(s: TestSchool, tx: { hash: string; cookie: string }) {
  const res = await appFetch(s.host, `/transaction/${tx.hash}`, { cookie: tx.cookie })
  expect(res.status).toBe(200)
  return res.text()
}

describe('declines read from the provider', () => {
  it('PayU: the issuer’s “insufficient funds” on a canceled order fails it with the seed’s text, in Polish on a Polish school', async () => {
    const { school: s, product } = await school('pl', 'PLN')
    const integration = await createIntegration(db(), testEnv.INTEGRATIONS_KEY, s.tenantId, { provider: 'payu', currency: 'PLN', publicRef: PAYU.posId, credentials: { ...PAYU, sandbox: 'true' } })
    const tx = await buy(s, product.slug, integration.id)
    // The buyer's card is declined on PayU's page (S51); PayU cancels the order and notifies.
    const paid = await peers.fetch(`${PEER}/payu/pay/${tx.providerRef}`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=card&cardResponseCode=S51', redirect: 'manual' })
    expect(paid.status).toBe(302)
    const { notification } = await (
      await peers.fetch(`${PEER}/_peer/payu/orders/${tx.providerRef}/status`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status: 'CANCELED' }) })
    ).json<{ notification: { body: string; headers: Record<string, string> } }>()
    const res = await appFetch(s.host, `/payments/payu/${integration.id}/notify`, { method: 'POST', body: notification.body, headers: { ...notification.headers, 'Sec-Fetch-Site': 'cross-site' } })
    expect(res.status).toBe(200)
    const failed = (await getTransaction(db(), s.tenantId, tx.id))!
    expect(failed).toMatchObject({ status: 'failed', statusReason: 'decline:insufficient_funds' })
    expect(await failurePage(s, tx)).toContain('Brak wystarczających środków')
  })

  it('Stripe: a session that expired after a declined card fails with the card’s reason', async () => {
    const { school: s, product } = await school('en', 'USD')
    const tx = await buy(s, product.slug, 'platform-stripe')
    const declined = await peers.fetch(`${PEER}/_peer/stripe/sessions/${tx.providerRef}/decline`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ declineCode: 'expired_card' }) })
    expect(declined.status).toBe(200)
    // Stripe ends the session later; its expiry event only triggers the question.
    const stripe = stripeClient({ secretKey: testEnv.PLATFORM_STRIPE_SECRET_KEY, webhookSecret: '', apiBase: `${PEER}/stripe` }, (i, init) => peers.fetch(i as RequestInfo, init as RequestInit<CfProperties>))
    await stripe.stripe.checkout.sessions.expire(tx.providerRef!)
    const { deliveries } = await (
      await peers.fetch(`${PEER}/_peer/stripe/events`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'checkout.session.expired', object: await stripe.retrieveSession(tx.providerRef!) }) })
    ).json<{ deliveries: Array<{ url: string; payload: string; signature: string }> }>()
    const mine = deliveries.find((d) => d.url.endsWith('/payments/platform/stripe-account/notify'))
    expect(mine).toBeDefined()
    const res = await appFetch(new URL(mine!.url).host, new URL(mine!.url).pathname, { method: 'POST', body: mine!.payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': mine!.signature, 'Sec-Fetch-Site': 'cross-site' } })
    expect(res.status).toBe(200)
    expect(await getTransaction(db(), s.tenantId, tx.id)).toMatchObject({ status: 'failed', statusReason: 'decline:card_expired' })
    expect(await failurePage(s, tx)).toContain('Card expired')
  })
})
