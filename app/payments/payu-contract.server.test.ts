// The PayU adapter against the provider contract (issue 25) and PayU's recurring card payments
// against the PayU peer: the first membership payment through our card page with PayU's Secure
// Form (a TOK_ paid with recurring FIRST → the TOKC_ PayU keeps), renewals with recurring STANDARD
// (once per idempotency key, a declined card's reason), and a new card from the same fields.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import type { Transaction } from '#app/models/transaction.server.ts'
import { contractTransaction, describeProviderContract, startInput, type SentNotification } from './providers/contract.ts'
import type { ProviderContext } from './providers/provider-module.server.ts'
import { payuAdapter } from './payu-adapter.server.ts'
import { payuHostedFields } from './payu-hosted-fields.server.ts'
import { clearPayuTokens, type PayuConfig } from './payu.server.ts'
import type { StoredCard } from './provider.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'
const INTEGRATION = 'integration-payu-contract'
// Must match PEER_PAYU_* in workers/dev-peers/wrangler.toml.
const config: PayuConfig = {
  baseUrl: `${PEER}/payu`,
  posId: '300746',
  clientId: '300746',
  clientSecret: 'coursefront_dev_payu_client_secret_000',
  secondKey: 'coursefront_dev_payu_second_key_0000',
  integrationId: INTEGRATION,
}
const credentials = { posId: config.posId, clientId: config.clientId, clientSecret: config.clientSecret, secondKey: config.secondKey, sandbox: 'true', __integrationId: INTEGRATION }
const ctx: ProviderContext = { env: env as unknown as ProviderContext['env'], fetch: peers.fetch, apiBase: () => `${PEER}/payu`, testPaymentsAllowed: true }

const APPROVED_CARD = '4444333322221111'
const DECLINED_CARD = '4000000000000002'

async function control<T>(path: string, json?: unknown): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/payu${path}`, json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  if (!res.ok) throw new Error(`PayU peer ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** What the Secure Form's tokenize('MULTI') gives for a card (the peer's control route: no browser). */
async function tokenOf(number: string) {
  const answer = await control<{ status: string; body: { token: string } }>('/token', { number, expiry: '12/39', cvv: '123', type: 'MULTI' })
  expect(answer.status).toBe('SUCCESS')
  return answer.body.token
}

/** The transactions the adapter under test started (the card page finds its transaction by hash). */
const started = new Map<string, Transaction>()
function recordingAdapter(c: PayuConfig) {
  const adapter = payuAdapter(c, peers.fetch)
  const start = adapter.startPayment.bind(adapter)
  adapter.startPayment = async (input) => {
    started.set(input.transaction.id, input.transaction)
    return start(input)
  }
  return adapter
}

/** The card page: tokenize in the "browser", then the sale with payWithToken (as the lead's route does). */
async function payOnCardPage(tx: Transaction, card: string, storeCard = true) {
  const result = await payuHostedFields.payWithToken(ctx, credentials, {
    transaction: tx,
    token: await tokenOf(card),
    buyer: { email: `buyer-${tx.id}@example.com`, name: 'Zofia Kupująca' },
    notifyUrl: 'https://kurs.example.test/payments/payu/integration/notify',
    customerIp: '203.0.113.7',
    description: tx.productTitle,
    storeCard,
  })
  if (!result.ok && !result.providerRef) throw new Error(`payWithToken: ${JSON.stringify(result)}`)
  return result
}

async function payOnPayuPage(orderId: string, outcome: 'paid' | 'declined') {
  const res = await peers.fetch(`${PEER}/payu/pay/${orderId}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'card', cardResponseCode: outcome === 'paid' ? '000' : 'S51' }).toString(),
  })
  expect([200, 302]).toContain(res.status)
}

describeProviderContract({
  provider: 'payu',
  currency: 'PLN',
  adapter: () => recordingAdapter(config),
  strangerAdapter: () => payuAdapter({ ...config, clientId: '999999', clientSecret: 'another_account_secret' }, peers.fetch),
  async reset() {
    clearPayuTokens()
    started.clear()
    await control('/reset', {})
  },
  async pay(redirectUrl, providerRef, outcome) {
    const card = new URL(redirectUrl).pathname.match(/^\/payments\/payu\/[^/]+\/card\/([^/]+)$/)
    if (!card) return payOnPayuPage(providerRef, outcome)
    const tx = started.get(providerRef)
    if (!tx || tx.hash !== card[1]) throw new Error(`no started transaction for ${redirectUrl}`)
    const result = await payOnCardPage(tx, outcome === 'paid' ? APPROVED_CARD : DECLINED_CARD)
    return result.providerRef
  },
  async notifications(providerRef): Promise<SentNotification[]> {
    const { orders } = await control<{ orders: Array<{ orderId: string; status: string }> }>('/orders')
    const order = orders.find((o) => o.orderId === providerRef)
    if (!order || order.status === 'NEW') return []
    // The notification PayU sends for the order's current status, signed as the peer sends it.
    const sent = await control<{ notifyUrl: string | null; notification: { body: string; headers: Record<string, string> } }>(`/orders/${order.orderId}/status`, { status: order.status })
    return [{ url: sent.notifyUrl ?? 'https://kurs.example.test/payments/payu/integration/notify', headers: sent.notification.headers, body: sent.notification.body }]
  },
  async down(on) {
    await control('/down', { on })
  },
  hostedFieldsToken: (outcome) => tokenOf(outcome === 'paid' ? APPROVED_CARD : DECLINED_CARD),
})

describe('PayU recurring card payments and card updates against the PayU peer', () => {
  beforeEach(async () => {
    clearPayuTokens()
    await control('/reset', {})
  })

  async function firstPayment(card = APPROVED_CARD) {
    const tx = { ...contractTransaction('PLN', 4_900), userId: `student-${Date.now().toString(36)}` } as Transaction
    const adapter = payuAdapter(config, peers.fetch)
    const start = await adapter.startPayment(startInput(tx, { storeCard: true }))
    expect(start).toEqual({ ok: true, redirectUrl: `https://kurs.example.test/payments/payu/${INTEGRATION}/card/${tx.hash}`, providerRef: tx.id })
    const paid = await payOnCardPage(tx, card)
    return { tx, adapter, paid }
  }

  it('the first payment keeps the card: confirmPayment answers the TOKC_ with the last digits, brand and expiry', async () => {
    const { tx, adapter, paid } = await firstPayment()
    expect(paid.ok).toBe(true)
    // Found by our transaction id (the order's extOrderId) as well as by PayU's order id.
    for (const ref of [paid.providerRef!, tx.id]) {
      const state = await adapter.confirmPayment(ref, null)
      expect(state).toMatchObject({ ok: true, providerRef: paid.providerRef, status: 'completed', amount: 4_900, currency: 'PLN' })
      if (!state.ok) continue
      expect(state.card).toEqual({ token: expect.stringMatching(/^TOKC_/), brand: 'visa', last4: '1111', expMonth: 12, expYear: 2039 })
    }
  })

  it('a declined first payment keeps no card and says why; the buyer may try again with another card', async () => {
    const { tx, adapter, paid } = await firstPayment(DECLINED_CARD)
    expect(paid).toMatchObject({ ok: false, reason: 'declined' })
    const state = await adapter.confirmPayment(paid.providerRef!, null)
    expect(state).toMatchObject({ ok: true, status: 'canceled', card: null, declineReason: expect.anything() })
    const again = await payOnCardPage(tx, APPROVED_CARD)
    expect(again.ok).toBe(true)
    expect(again.providerRef).not.toBe(paid.providerRef)
    // The paid order answers a third attempt: never a second charge.
    expect((await payOnCardPage(tx, APPROVED_CARD)).providerRef).toBe(again.providerRef)
  })

  it('a renewal whose card the issuer now declines is card_declined with the reason, and nothing is charged', async () => {
    const { adapter, paid } = await firstPayment()
    const state = await adapter.confirmPayment(paid.providerRef!, null)
    const card = (state.ok ? state.card : null) as StoredCard
    await control(`/card-tokens/${card.token}/issuer-answer`, { code: 'S51' })
    const charge = {
      token: card.token,
      amount: 4_900,
      currency: 'PLN',
      idempotencyKey: `renewal-${Date.now()}`,
      description: 'Membership',
      notifyUrl: 'https://kurs.example.test/payments/payu/i/notify',
      buyer: { email: 'b@example.com', name: 'B' },
    }
    const declined = await adapter.chargeStoredCard(charge)
    expect(declined).toMatchObject({ ok: false, reason: 'card_declined', declineReason: expect.anything(), providerRef: expect.any(String) })
    expect(await adapter.chargeStoredCard(charge)).toEqual(declined)
  })

  it('a renewal while PayU is down is unavailable (tried again later with the same key)', async () => {
    const { adapter, paid } = await firstPayment()
    const state = await adapter.confirmPayment(paid.providerRef!, null)
    const token = state.ok ? state.card!.token : ''
    await control('/down', { on: true })
    const charge = {
      token,
      amount: 4_900,
      currency: 'PLN',
      idempotencyKey: `renewal-down-${Date.now()}`,
      description: 'Membership',
      notifyUrl: 'https://kurs.example.test/n',
      buyer: { email: 'b@example.com', name: 'B' },
    }
    expect(await adapter.chargeStoredCard(charge)).toEqual({ ok: false, reason: 'unavailable' })
    await control('/down', { on: false })
    expect(await adapter.chargeStoredCard(charge)).toMatchObject({ ok: true, amount: 4_900 })
  })

  it('a new card from the Secure Form: PayU keeps it (zero-amount FIRST order) and it renews; a declined card is refused', async () => {
    const saved = await payuHostedFields.saveCard(ctx, credentials, { token: await tokenOf('5434021016824014'), currentToken: null, buyer: { email: 'student@example.com', name: 'Student' } })
    expect(saved).toEqual({ ok: true, card: { token: expect.stringMatching(/^TOKC_/), brand: 'mastercard', last4: '4014', expMonth: 12, expYear: 2039 } })
    const adapter = payuAdapter(config, peers.fetch)
    if (!saved.ok) return
    const renewal = await adapter.chargeStoredCard({
      token: saved.card.token,
      amount: 2_500,
      currency: 'PLN',
      idempotencyKey: `renewal-new-card-${Date.now()}`,
      description: 'Membership',
      notifyUrl: 'https://kurs.example.test/n',
      buyer: { email: 'student@example.com', name: 'Student' },
    })
    expect(renewal).toMatchObject({ ok: true, amount: 2_500, currency: 'PLN' })
    expect(
      await payuHostedFields.saveCard(ctx, credentials, { token: await tokenOf(DECLINED_CARD), currentToken: saved.card.token, buyer: { email: 'student@example.com', name: 'Student' } }),
    ).toEqual({ ok: false, reason: 'declined' })
  })

  it('the card page loads the peer’s Secure Form script from the pay host in development, PayU’s in production', async () => {
    const page = await payuHostedFields.page(ctx, credentials, { transaction: null, locale: 'pl' })
    expect(page).toEqual({
      scripts: ['http://pay.localhost:8787/payu/hosted/js/sdk'],
      origins: { script: ['http://pay.localhost:8787'], frame: ['http://pay.localhost:8787'], connect: ['http://pay.localhost:8787'] },
      config: { posId: '300746', lang: 'pl', tokenType: 'MULTI' },
    })
    const production = await payuHostedFields.page({ ...ctx, apiBase: (p) => p }, credentials, { transaction: null, locale: 'en' })
    expect(production?.scripts).toEqual(['https://secure.payu.com/javascript/sdk'])
  })

  it('card update goes to our card fields page; complete is not used for PayU', async () => {
    const adapter = payuAdapter(config, peers.fetch)
    const input = {
      currentToken: 'TOKC_X',
      reference: 'm1',
      returnUrl: 'https://kurs.example.test/my/membership/card/return?membership=m1',
      cancelUrl: 'https://kurs.example.test/panel',
      buyer: { email: 'a@example.com', name: 'A' },
      currency: 'PLN',
      locale: 'pl',
    }
    expect(await adapter.cardUpdate.start(input)).toEqual({ ok: true, redirectUrl: 'https://kurs.example.test/my/membership/card/fields?membership=m1', ref: 'm1' })
    expect(await adapter.cardUpdate.complete({ ref: 'm1', query: new URLSearchParams(), currentToken: null })).toEqual({ ok: false, reason: 'refused' })
  })
})
