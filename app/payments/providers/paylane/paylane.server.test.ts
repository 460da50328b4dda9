// The PayLane module against the PayLane peer (workers/dev-peers/src/paylane.ts) through DEV_PEERS:
// the shared provider contract, then what is PayLane's own — the credentials check of connect,
// notifications (Basic auth + the panel's token, the communication_id answer), declines read from
// sales/info, renewals by resale of the first sale and of a saved card's authorization.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import type { Env } from '#app/utils/env.server.ts'
import type { Transaction } from '#app/models/transaction.server.ts'
import type { PaymentAdapter, StartPaymentInput } from '../../provider.server.ts'
import { contractTransaction, describeProviderContract, startInput, type SentNotification } from '../contract.ts'
import type { ProviderContext } from '../provider-module.server.ts'
import { declineOf, paylaneAdapter, paylaneModule, parseNotificationForm } from './module.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'
// A *.localhost URL: the peer records the notification without trying the network (env.ts post()).
const NOTIFY_URL = 'http://kurs.localhost/payments/paylane/int-paylane/notify'
// Must match PAYLANE_DEV / PAYLANE_STRANGER of the peer (and docs/payments/paylane.md).
const DEV = {
  apiLogin: 'coursefront_dev',
  apiPassword: 'coursefront_dev_paylane_password_0000',
  publicApiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
  notificationToken: 'coursefront_dev_paylane_notify_token_00',
}
const STRANGER = {
  apiLogin: 'stranger_dev',
  apiPassword: 'stranger_dev_paylane_password_0000000',
  publicApiKey: 'bada55bada55bada55bada55bada55bada55bada',
  notificationToken: 'stranger_dev_paylane_notify_token_0000',
}
const credentialsOf = (a: typeof DEV) => ({ ...a, sandbox: 'true', __integrationId: 'int-paylane' })

function ctx(testPaymentsAllowed = true): ProviderContext {
  return { env: env as unknown as Env, fetch: peers.fetch, apiBase: () => `${PEER}/paylane`, testPaymentsAllowed }
}

async function control<T = Record<string, unknown>>(path: string, json?: unknown, method?: string): Promise<T> {
  const res = await peers.fetch(
    `${PEER}/_peer/paylane${path}`,
    json === undefined ? { method: method ?? 'GET' } : { method: method ?? 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) },
  )
  if (!res.ok) throw new Error(`paylane control ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

const CARDS = { paid: '4111111111111111', declined: '4000000000000002' } as const
const token = async (outcome: 'paid' | 'declined') => (await control<{ token: string }>('/token', { number: CARDS[outcome], expiry: '12/39', cvv: '123' })).token

/** Transactions the harness's adapter started, by id: the card page knows its transaction, the contract gives only the reference. */
const started = new Map<string, { tx: Transaction; storeCard: boolean }>()
function recording(adapter: PaymentAdapter): PaymentAdapter {
  return Object.assign(Object.create(adapter) as PaymentAdapter, {
    async startPayment(input: StartPaymentInput) {
      const result = await adapter.startPayment(input)
      if (result.ok) started.set(result.providerRef, { tx: input.transaction, storeCard: !!input.storeCard })
      return result
    },
  })
}

/** The card page: a token from PayLane.js (the peer), then payWithToken makes the sale. */
async function payOnCardPage(providerRef: string, outcome: 'paid' | 'declined') {
  const known = started.get(providerRef)
  if (!known) throw new Error(`no started payment ${providerRef}`)
  const result = await paylaneModule.hostedFields!.payWithToken(ctx(), credentialsOf(DEV), {
    transaction: known.tx,
    token: await token(outcome),
    buyer: { email: 'buyer@example.com', name: 'Zofia Kupująca' },
    notifyUrl: NOTIFY_URL,
    customerIp: '203.0.113.7',
    description: known.tx.productTitle,
    storeCard: known.storeCard,
  })
  if (outcome === 'paid' && !result.ok) throw new Error(`sale refused: ${JSON.stringify(result)}`)
  return result.ok ? result.providerRef : undefined
}

describeProviderContract({
  provider: 'paylane',
  currency: 'PLN',
  adapter: () => recording(paylaneAdapter(ctx(), credentialsOf(DEV))),
  // The contract's stranger: credentials PayLane does not know (the known second account is tested below).
  strangerAdapter: () => paylaneAdapter(ctx(), credentialsOf({ ...STRANGER, apiLogin: 'unknown_login', apiPassword: 'unknown_password' })),
  async reset() {
    await control('/reset', {})
    await control('/panel', { login: DEV.apiLogin, notificationUrl: NOTIFY_URL })
  },
  pay: (_redirectUrl, providerRef, outcome) => payOnCardPage(providerRef, outcome),
  async notifications(providerRef) {
    return (await control<{ notifications: SentNotification[] }>(`/notifications?saleId=${encodeURIComponent(providerRef)}`)).notifications
  },
  async down(on) {
    await control('/fault', { down: on })
  },
  hostedFieldsToken: token,
})

describe('paylane: the module against its peer', () => {
  beforeEach(async () => {
    await control('/reset', {})
    await control('/panel', { login: DEV.apiLogin, notificationUrl: NOTIFY_URL })
  })

  const connectInput = (fields: Record<string, string>) => ({ fields, currency: 'PLN', integrationId: 'int-paylane', notifyUrl: NOTIFY_URL, origin: 'https://kurs.example.test' })

  it('connect checks the API login with PayLane before anything is saved, and refuses a test account where test money is not allowed', async () => {
    const ok = await paylaneModule.connect(ctx(), connectInput({ ...DEV, sandbox: 'yes' }))
    expect(ok).toMatchObject({ ok: true, publicRef: `${DEV.apiLogin} · test account`, credentials: { apiLogin: DEV.apiLogin, sandbox: 'true' } })
    if (ok.ok) expect(ok.publicRef).not.toContain(DEV.apiPassword)
    expect(await paylaneModule.connect(ctx(), connectInput({ ...DEV, apiPassword: 'wrong-password', sandbox: 'yes' }))).toMatchObject({
      ok: false,
      status: 422,
      errors: { apiPassword: { key: 'payments.paylane.error.refused' } },
    })
    expect(await paylaneModule.connect(ctx(false), connectInput({ ...DEV, sandbox: 'yes' }))).toMatchObject({ ok: false, errors: { sandbox: { key: 'payments.paylane.error.sandbox_not_allowed' } } })
    expect(await paylaneModule.connect(ctx(), connectInput({ ...DEV, publicApiKey: 'short', sandbox: 'no' }))).toMatchObject({
      ok: false,
      errors: { publicApiKey: { key: 'payments.paylane.error.publicApiKey' } },
    })
    await control('/fault', { down: true })
    try {
      expect(await paylaneModule.connect(ctx(), connectInput({ ...DEV, sandbox: 'yes' }))).toMatchObject({ ok: false, status: 502 })
    } finally {
      await control('/fault', { down: false })
    }
  })

  it('a notification verifies with the Basic auth and the token, names the sale, and is answered with its communication_id', async () => {
    const adapter = paylaneAdapter(ctx(), credentialsOf(DEV))
    const tx = contractTransaction('EUR', 4_999)
    const start = await recording(adapter).startPayment(startInput(tx))
    if (!start.ok) throw new Error('not started')
    const idSale = await payOnCardPage(start.providerRef, 'paid')
    const [sent] = (await control<{ notifications: SentNotification[] }>(`/notifications?saleId=${idSale}`)).notifications
    expect(sent).toBeDefined()
    const request = () => new Request(sent!.url, { method: 'POST', headers: sent!.headers, body: sent!.body })
    expect(await adapter.readNotification(request(), sent!.body)).toEqual({ providerRef: idSale, event: { provider: 'paylane', eventKey: `${idSale}:S`, providerStatus: 'S', status: 'completed' } })
    const answer = adapter.notificationAnswer(true, 200)
    expect(await answer.text()).toBe(parseNotificationForm(sent!.body)!.communication_id)
    // Not accepted (e.g. PayLane's API did not answer the confirmation): anything but the id, so PayLane sends it again.
    expect(adapter.notificationAnswer(false, 503).status).toBe(503)
    // The right Basic auth with a wrong token, or the token with another account's login: nobody's.
    const wrongToken = sent!.body.replace(/token=[^&]*/, 'token=not-the-token-at-all')
    expect(await adapter.readNotification(new Request(sent!.url, { method: 'POST', headers: sent!.headers, body: wrongToken }), wrongToken)).toBeNull()
    const strangerAuth = { ...sent!.headers, Authorization: `Basic ${btoa(`${STRANGER.apiLogin}:${DEV.notificationToken}`)}` }
    expect(await adapter.readNotification(new Request(sent!.url, { method: 'POST', headers: strangerAuth, body: sent!.body }), sent!.body)).toBeNull()
    expect(await paylaneAdapter(ctx(), credentialsOf(STRANGER)).readNotification(request(), sent!.body)).toBeNull()
    // The sale says EUR 49.99 at PayLane.
    expect(await adapter.confirmPayment(idSale!, null)).toMatchObject({ ok: true, status: 'completed', amount: 4_999, currency: 'EUR', card: { token: idSale } })
  })

  it('a refund notification (type R) is verified and ignored', async () => {
    const adapter = paylaneAdapter(ctx(), credentialsOf(DEV))
    const tx = contractTransaction('PLN', 2_000)
    const start = await recording(adapter).startPayment(startInput(tx))
    if (!start.ok) throw new Error('not started')
    const idSale = (await payOnCardPage(start.providerRef, 'paid'))!
    expect(await adapter.refund({ providerRef: idSale, amount: 2_000, currency: 'PLN', idempotencyKey: `refund-${tx.id}`, description: 'Refund' })).toMatchObject({ ok: true })
    const sent = (await control<{ notifications: SentNotification[] }>(`/notifications?saleId=${idSale}`)).notifications
    const refundNote = sent.find((n) => n.body.includes('content%5B0%5D%5Btype%5D=R'))!
    expect(await adapter.readNotification(new Request(refundNote.url, { method: 'POST', headers: refundNote.headers, body: refundNote.body }), refundNote.body)).toBe('ignored')
    expect(await adapter.confirmPayment(idSale, null)).toMatchObject({ ok: true, status: null, providerStatus: 'REFUNDED' })
  })

  it('a declined card: payWithToken says declined, and a declined renewal carries the issuer’s reason from PayLane', async () => {
    const adapter = paylaneAdapter(ctx(), credentialsOf(DEV))
    const tx = contractTransaction('PLN')
    const start = await recording(adapter).startPayment(startInput(tx))
    if (!start.ok) throw new Error('not started')
    const declined = await paylaneModule.hostedFields!.payWithToken(ctx(), credentialsOf(DEV), {
      transaction: tx,
      token: await token('declined'),
      buyer: { email: 'buyer@example.com', name: 'Zofia' },
      notifyUrl: NOTIFY_URL,
      customerIp: '203.0.113.7',
      description: tx.productTitle,
      storeCard: false,
    })
    expect(declined).toEqual({ ok: false, reason: 'declined' })
    // A used token serves no second sale.
    const once = await token('paid')
    const input = { transaction: tx, token: once, buyer: { email: 'b@example.com', name: 'Zofia' }, notifyUrl: NOTIFY_URL, customerIp: '203.0.113.7', description: 'x', storeCard: false }
    expect(await paylaneModule.hostedFields!.payWithToken(ctx(), credentialsOf(DEV), input)).toMatchObject({ ok: true })
    expect(await paylaneModule.hostedFields!.payWithToken(ctx(), credentialsOf(DEV), input)).toMatchObject({ ok: false, reason: 'declined' })
    // A renewal of a card that declines later: the issuer's 51 read back from PayLane.
    const start2 = await recording(adapter).startPayment(startInput(contractTransaction('PLN', 5_000), { storeCard: true }))
    if (!start2.ok) throw new Error('not started')
    const idSale = (await payOnCardPage(start2.providerRef, 'paid'))!
    await control(`/sales/${idSale}/decline`, { processor: '51', text: 'Insufficient funds' })
    const renewal = await adapter.chargeStoredCard({
      token: idSale,
      amount: 5_000,
      currency: 'PLN',
      idempotencyKey: `renewal-${idSale}`,
      description: 'Membership',
      notifyUrl: NOTIFY_URL,
      buyer: { email: 'b@example.com', name: 'Zofia' },
    })
    expect(renewal).toMatchObject({ ok: false, reason: 'card_declined', declineReason: 'insufficient_funds' })
    expect(declineOf({ error_number: 403, processor_error_number: '54' })).toBe('card_expired')
    expect(declineOf({ error_number: 731 })).toBe('card_number')
  })

  it('a card saved on the card-update page (an authorization) renews with resales/authorization, once per key', async () => {
    const saved = await paylaneModule.hostedFields!.saveCard(ctx(), credentialsOf(DEV), { token: await token('paid'), currentToken: null, buyer: { email: 'student@example.com', name: 'Student' } })
    if (!saved.ok) throw new Error(`not saved: ${JSON.stringify(saved)}`)
    expect(saved.card.token).toMatch(/^auth:\d+$/)
    const adapter = paylaneAdapter(ctx(), credentialsOf(DEV))
    const charge = {
      token: saved.card.token,
      amount: 3_900,
      currency: 'PLN',
      idempotencyKey: `renewal-${Date.now()}`,
      description: 'Membership',
      notifyUrl: NOTIFY_URL,
      buyer: { email: 'student@example.com', name: 'Student' },
    }
    const first = await adapter.chargeStoredCard(charge)
    expect(first).toMatchObject({ ok: true, amount: 3_900, currency: 'PLN', providerStatus: 'PERFORMED' })
    expect(await adapter.chargeStoredCard(charge)).toEqual(first)
    // Another account cannot charge it.
    expect(await paylaneAdapter(ctx(), credentialsOf(STRANGER)).chargeStoredCard({ ...charge, idempotencyKey: `${charge.idempotencyKey}-s` })).toMatchObject({ ok: false, reason: 'card_declined' })
    const declinedCard = await paylaneModule.hostedFields!.saveCard(ctx(), credentialsOf(DEV), {
      token: await token('declined'),
      currentToken: saved.card.token,
      buyer: { email: 'student@example.com', name: 'Student' },
    })
    expect(declinedCard).toEqual({ ok: false, reason: 'declined' })
  })

  it('the card page loads PayLane.js from the peer on pay.{PLATFORM_HOST} in development, with the public key only', async () => {
    const tx = { ...contractTransaction('PLN'), buyer: JSON.stringify({ name: 'Zofia Kupująca', email: 'z@example.com' }) } as Transaction
    const page = await paylaneModule.hostedFields!.page({ ...ctx(), env: { ...(env as unknown as Env), PLATFORM_HOST: 'localhost' } }, credentialsOf(DEV), {
      transaction: tx,
      locale: 'pl',
      origin: 'http://school.localhost:8787',
    } as {
      transaction: Transaction
      locale: string
    })
    expect(page).toMatchObject({ scripts: ['http://pay.localhost:8787/paylane/hosted/js/paylane.js'], config: { publicApiKey: DEV.publicApiKey, nameOnCard: 'Zofia Kupująca', locale: 'pl' } })
    expect(JSON.stringify(page)).not.toContain(DEV.apiPassword)
    expect(JSON.stringify(page)).not.toContain(DEV.notificationToken)
  })
})
