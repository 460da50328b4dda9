// The Braintree module against the Braintree peer (workers/dev-peers/src/braintree.ts) through the
// DEV_PEERS binding: the shared provider contract, then what is Braintree's own — connecting keys,
// the Hosted Fields page, the sale by nonce (vaulted first for renewals), a sale looked up by
// orderId, processor declines and their reasons, void before settlement, and another account.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Transaction } from '#app/models/transaction.server.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import type { Env } from '#app/utils/env.server.ts'
import { BRAINTREE_DEV, BRAINTREE_STRANGER } from '../../../../workers/dev-peers/src/braintree.ts'
import { contractTransaction, describeProviderContract, startInput, type SentNotification } from '../contract.ts'
import type { ProviderContext } from '../provider-module.server.ts'
import type { PaymentAdapter, StartPaymentInput } from '../../provider.server.ts'
import { braintreeAdapter, transactionGlobalId } from './adapter.server.ts'
import { declineFromBraintree } from './decline.ts'
import { toDecimal, toMinor } from './graphql.server.ts'
import { parseWebhook, verifyWebhook } from './webhook.server.ts'
import { braintreeModule } from './module.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'
// On *.localhost the peer records the webhook without trying to reach it (a worker cannot resolve it).
const NOTIFY = 'http://kurs.localhost/payments/braintree/int-bt/notify'

function ctx(testPaymentsAllowed = true): ProviderContext {
  return { env: env as unknown as Env, fetch: peers.fetch, apiBase: () => 'http://braintree.dev-peers.internal/braintree', testPaymentsAllowed }
}
const credentials = (account: { merchantId: string; publicKey: string; privateKey: string; merchantAccounts: Record<string, string> } = BRAINTREE_DEV, currency = 'PLN') => ({
  merchantId: account.merchantId,
  publicKey: account.publicKey,
  privateKey: account.privateKey,
  merchantAccountId: account.merchantAccounts[currency]!,
  sandbox: 'true',
  __integrationId: 'int-bt',
})

async function control<T = Record<string, unknown>>(path: string, json?: unknown): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/braintree${path}`, json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  if (res.status !== 200) throw new Error(`peer ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}
const CARDS = { paid: '4111111111111111', declined: '4000111111111115' } as const
const nonce = async (number: string, merchantId: string = BRAINTREE_DEV.merchantId) => (await control<{ nonce: string }>('/nonce', { number, expiry: '12/30', cvv: '123', merchantId })).nonce

/** What startPayment was given, by our transaction id (the card page knows the transaction). */
const started = new Map<string, StartPaymentInput>()
function recording(adapter: PaymentAdapter): PaymentAdapter {
  return new Proxy(adapter, {
    get(target, key, receiver) {
      if (key !== 'startPayment') return Reflect.get(target, key, receiver)
      return async (input: StartPaymentInput) => {
        started.set(input.transaction.id, input)
        return target.startPayment(input)
      }
    },
  })
}

/** The card page: a nonce from the fields, the sale by payWithToken; a paid sale then settles (the sandbox batch). */
async function payOnCardPage(tx: Transaction, outcome: 'paid' | 'declined', storeCard = false) {
  const result = await braintreeModule.hostedFields!.payWithToken(ctx(), credentials(), {
    transaction: tx,
    token: await nonce(CARDS[outcome]),
    buyer: { email: 'buyer@example.com', name: 'Zofia' },
    notifyUrl: NOTIFY,
    customerIp: '203.0.113.7',
    description: tx.productTitle,
    storeCard,
  })
  return result
}

describeProviderContract({
  provider: 'braintree',
  currency: 'PLN',
  adapter: () => recording(braintreeAdapter(ctx(), credentials())),
  // Keys the peer does not know.
  strangerAdapter: () => braintreeAdapter(ctx(), { ...credentials(), privateKey: 'not_the_private_key_0000' }),
  reset: async () => {
    await control('/reset', {})
    await control('/webhook-url', { url: NOTIFY })
  },
  async pay(_redirectUrl, providerRef, outcome) {
    const input = started.get(providerRef)
    if (!input) throw new Error(`not started here: ${providerRef}`)
    const result = await payOnCardPage(input.transaction, outcome, input.storeCard ?? false)
    if (!('providerRef' in result) || !result.providerRef) throw new Error(`no sale: ${JSON.stringify(result)}`)
    if (outcome === 'paid') await control('/settle', { transactionId: result.providerRef })
    return result.providerRef
  },
  async notifications(providerRef) {
    const { notifications } = await peers
      .fetch(`${PEER}/_peer/braintree/notifications?transactionId=${encodeURIComponent(providerRef)}`)
      .then((r) => r.json() as Promise<{ notifications: (SentNotification & { url: string | null })[] }>)
    return notifications.map((n) => ({ url: n.url ?? NOTIFY, headers: n.headers, body: n.body }))
  },
  down: async (on) => void (await control('/fault', { down: on })),
  hostedFieldsToken: (outcome) => nonce(CARDS[outcome]),
})

describe('Braintree: connecting, the card page and its sales', () => {
  beforeEach(async () => {
    await control('/reset', {})
  })

  it('connects with keys Braintree accepts, choosing the merchant account of the currency; refuses wrong keys, another merchant id, a missing account and sandbox keys where only real money is taken', async () => {
    const fields = { merchantId: BRAINTREE_DEV.merchantId, publicKey: BRAINTREE_DEV.publicKey, privateKey: BRAINTREE_DEV.privateKey, merchantAccountId: '', sandbox: 'true' }
    const input = { fields, currency: 'EUR', integrationId: 'int-bt', notifyUrl: NOTIFY, origin: 'https://kurs.example.test' }
    const connected = await braintreeModule.connect(ctx(), input)
    expect(connected).toMatchObject({ ok: true, credentials: { merchantAccountId: BRAINTREE_DEV.merchantAccounts.EUR, sandbox: 'true' } })
    if (connected.ok) expect(connected.publicRef).not.toContain(BRAINTREE_DEV.privateKey)
    expect(braintreeModule.usesTestCredentials(connected.ok ? connected.credentials : {})).toBe(true)

    expect(await braintreeModule.connect(ctx(), { ...input, fields: { ...fields, privateKey: 'wrong_private_key_000' } })).toMatchObject({
      ok: false,
      status: 422,
      errors: { form: { key: 'payments.braintree.error.refused' } },
    })
    expect(await braintreeModule.connect(ctx(), { ...input, fields: { ...fields, merchantId: 'someoneelse' } })).toMatchObject({
      ok: false,
      errors: { merchantId: { key: 'payments.braintree.error.merchant_mismatch' } },
    })
    expect(await braintreeModule.connect(ctx(), { ...input, currency: 'CHF' })).toMatchObject({ ok: false, errors: { merchantAccountId: { key: 'payments.braintree.error.account_missing' } } })
    expect(await braintreeModule.connect(ctx(), { ...input, fields: { ...fields, merchantAccountId: BRAINTREE_DEV.merchantAccounts.PLN } })).toMatchObject({
      ok: false,
      errors: { merchantAccountId: { key: 'payments.braintree.error.account_currency' } },
    })
    expect(await braintreeModule.connect(ctx(false), input)).toMatchObject({ ok: false, errors: { sandbox: { key: 'payments.braintree.error.sandbox_not_allowed' } } })
    await control('/fault', { down: true })
    try {
      expect(await braintreeModule.connect(ctx(), input)).toMatchObject({ ok: false, status: 502 })
    } finally {
      await control('/fault', { down: false })
    }
  })

  it('the card page gets a client token and the peer’s SDK scripts, allowed by origin', async () => {
    const page = await braintreeModule.hostedFields!.page(ctx(), credentials(), { transaction: null, locale: 'pl' })
    expect(page).not.toBeNull()
    expect(page!.scripts).toEqual(['http://pay.localhost:8787/braintree/hosted/js/client.js', 'http://pay.localhost:8787/braintree/hosted/js/hosted-fields.js'])
    expect(page!.origins.frame).toEqual(['http://pay.localhost:8787'])
    expect(page!.config).toMatchObject({ locale: 'pl' })
    const token = JSON.parse(atob(String(page!.config.clientToken))) as Record<string, string>
    expect(token.authorizationFingerprint).toMatch(/\w{16,}/)
    expect(JSON.stringify(page!.config)).not.toContain(BRAINTREE_DEV.privateKey)
  })

  it('a sale is found by our transaction id before the card page stored its reference; a second submit charges nothing more', async () => {
    const adapter = braintreeAdapter(ctx(), credentials())
    const tx = contractTransaction('PLN', 4_950)
    const start = await adapter.startPayment(startInput(tx))
    expect(start).toMatchObject({ ok: true, redirectUrl: `https://kurs.example.test/payments/braintree/int-bt/card/${tx.hash}`, providerRef: tx.id })
    const first = await payOnCardPage(tx, 'paid')
    expect(first).toMatchObject({ ok: true })
    const again = await payOnCardPage(tx, 'paid')
    expect(again).toEqual(first)
    expect(await adapter.confirmPayment(tx.id, null)).toMatchObject({
      ok: true,
      providerRef: tx.id,
      status: 'completed',
      providerStatus: 'SUBMITTED_FOR_SETTLEMENT',
      amount: 4_950,
      currency: 'PLN',
      card: null,
    })
  })

  it('a declined card ends failed with the processor’s reason; a retry on the same page can still pay', async () => {
    const adapter = braintreeAdapter(ctx(), credentials())
    const tx = contractTransaction('PLN')
    const declined = await payOnCardPage(tx, 'declined')
    expect(declined).toMatchObject({ ok: false, reason: 'declined' })
    const ref = 'providerRef' in declined ? declined.providerRef! : ''
    expect(await adapter.confirmPayment(ref, null)).toMatchObject({ ok: true, status: 'failed', providerStatus: 'PROCESSOR_DECLINED', declineReason: 'sale_error' })
    expect(await adapter.confirmPayment(tx.id, null)).toMatchObject({ status: 'failed' })
    const paid = await payOnCardPage(tx, 'paid')
    expect(paid.ok).toBe(true)
    expect(await adapter.confirmPayment(tx.id, null)).toMatchObject({ status: 'completed' })
  })

  it('a renewal for 2001.00 is declined as insufficient funds (the sandbox’s amount rule), once per key', async () => {
    const adapter = braintreeAdapter(ctx(), credentials())
    const saved = await braintreeModule.hostedFields!.saveCard(ctx(), credentials(), { token: await nonce(CARDS.paid), currentToken: null, buyer: { email: 'b@example.com', name: 'B' } })
    expect(saved).toMatchObject({ ok: true, card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030 } })
    if (!saved.ok) return
    const charge = {
      token: saved.card.token,
      amount: 200_100,
      currency: 'PLN',
      idempotencyKey: `renewal-${crypto.randomUUID()}`,
      description: 'Membership',
      notifyUrl: NOTIFY,
      buyer: { email: 'b@example.com', name: 'B' },
    }
    const first = await adapter.chargeStoredCard(charge)
    expect(first).toMatchObject({ ok: false, reason: 'card_declined', declineReason: 'insufficient_funds' })
    expect(await adapter.chargeStoredCard(charge)).toEqual(first)
  })

  it('a declining card is not kept for renewals', async () => {
    const saved = await braintreeModule.hostedFields!.saveCard(ctx(), credentials(), { token: await nonce(CARDS.declined), currentToken: null, buyer: { email: 'b@example.com', name: 'B' } })
    expect(saved).toEqual({ ok: false, reason: 'declined' })
  })

  it('a refund before settlement voids the sale (Braintree refuses to refund it), and a repeated request answers the same void', async () => {
    const adapter = braintreeAdapter(ctx(), credentials())
    const tx = contractTransaction('EUR', 1_000)
    const sale = await braintreeModule.hostedFields!.payWithToken(ctx(), credentials(BRAINTREE_DEV, 'EUR'), {
      transaction: tx,
      token: await nonce(CARDS.paid),
      buyer: { email: 'b@example.com', name: 'B' },
      notifyUrl: NOTIFY,
      customerIp: '203.0.113.7',
      description: 'x',
      storeCard: false,
    })
    if (!sale.ok) throw new Error('no sale')
    const input = { providerRef: sale.providerRef, amount: 1_000, currency: 'EUR', idempotencyKey: `refund-${tx.id}`, description: 'refund' }
    const voided = await adapter.refund(input)
    expect(voided).toMatchObject({ ok: true, refundRef: sale.providerRef, providerStatus: 'VOIDED' })
    expect(await adapter.refund(input)).toEqual(voided)
    expect(await adapter.confirmPayment(sale.providerRef, null)).toMatchObject({ status: 'canceled', currency: 'EUR', amount: 1_000 })
  })

  it('another account (known to Braintree) sees none of this account’s sales, and its signature is not ours', async () => {
    const tx = contractTransaction('PLN')
    const sale = await payOnCardPage(tx, 'paid')
    if (!sale.ok) throw new Error('no sale')
    const stranger = braintreeAdapter(ctx(), credentials(BRAINTREE_STRANGER))
    expect(await stranger.confirmPayment(sale.providerRef, null)).toEqual({ ok: false, reason: 'not_found' })
    expect(await stranger.confirmPayment(tx.id, null)).toMatchObject({ ok: true, status: null, amount: null })
    expect(await stranger.refund({ providerRef: sale.providerRef, amount: tx.totalAmount, currency: 'PLN', idempotencyKey: `refund-${tx.id}`, description: 'x' })).toEqual({
      ok: false,
      reason: 'refused',
    })
    // The stranger's own nonce cannot pay with our keys.
    const theirs = await nonce(CARDS.paid, BRAINTREE_STRANGER.merchantId)
    const attempt = await braintreeModule.hostedFields!.payWithToken(ctx(), credentials(), {
      transaction: contractTransaction('PLN'),
      token: theirs,
      buyer: { email: 'b@example.com', name: 'B' },
      notifyUrl: NOTIFY,
      customerIp: '203.0.113.7',
      description: 'x',
      storeCard: false,
    })
    expect(attempt).toEqual({ ok: false, reason: 'refused' })

    await control('/webhook-url', { merchantId: BRAINTREE_STRANGER.merchantId, url: NOTIFY })
    const strangerSale = await braintreeModule.hostedFields!.payWithToken(ctx(), credentials(BRAINTREE_STRANGER), {
      transaction: contractTransaction('PLN'),
      token: await nonce(CARDS.paid, BRAINTREE_STRANGER.merchantId),
      buyer: { email: 'b@example.com', name: 'B' },
      notifyUrl: NOTIFY,
      customerIp: '203.0.113.7',
      description: 'x',
      storeCard: false,
    })
    if (!strangerSale.ok) throw new Error('no stranger sale')
    await control('/settle', { transactionId: strangerSale.providerRef })
    const { notifications } = await peers
      .fetch(`${PEER}/_peer/braintree/notifications?transactionId=${encodeURIComponent(strangerSale.providerRef)}`)
      .then((r) => r.json() as Promise<{ notifications: { body: string; headers: Record<string, string> }[] }>)
    const sent = notifications[0]!
    const request = new Request(NOTIFY, { method: 'POST', headers: sent.headers, body: sent.body })
    expect(await braintreeAdapter(ctx(), credentials()).readNotification(request, sent.body)).toBeNull()
    expect(await stranger.readNotification(new Request(NOTIFY, { method: 'POST', headers: sent.headers, body: sent.body }), sent.body)).toMatchObject({
      providerRef: strangerSale.providerRef,
      event: { provider: 'braintree', status: 'completed', providerStatus: 'SETTLED' },
    })
  })

  it('a signed check notification is ignored; the legacy id maps to the GraphQL id', async () => {
    await control('/webhook-url', { url: NOTIFY })
    await control('/check', {})
    const { notifications } = await peers
      .fetch(`${PEER}/_peer/braintree/notifications`)
      .then((r) => r.json() as Promise<{ notifications: { kind: string; body: string; headers: Record<string, string> }[] }>)
    const check = notifications.find((n) => n.kind === 'check')!
    expect(await braintreeAdapter(ctx(), credentials()).readNotification(new Request(NOTIFY, { method: 'POST', headers: check.headers, body: check.body }), check.body)).toBe('ignored')
    expect(transactionGlobalId('abc123')).toBe(btoa('transaction_abc123').replace(/=+$/, ''))
  })
})

describe('Braintree: money, declines and webhook signatures', () => {
  it('converts minor units to Braintree’s decimal strings and back without floating point', () => {
    expect(toDecimal(12_300, 'PLN')).toBe('123.00')
    expect(toDecimal(5, 'EUR')).toBe('0.05')
    expect(toMinor('123.00', 'PLN')).toBe(12_300)
    expect(toMinor('0.1', 'GBP')).toBe(10)
    expect(toMinor('1.005', 'USD')).toBeNull()
    expect(toMinor('-1.00', 'USD')).toBeNull()
  })

  it('maps processor responses to the seed’s decline reasons', () => {
    expect(declineFromBraintree('PROCESSOR_DECLINED', '2001')).toBe('insufficient_funds')
    expect(declineFromBraintree('PROCESSOR_DECLINED', '2004')).toBe('card_expired')
    expect(declineFromBraintree('PROCESSOR_DECLINED', '2999')).toBe('payment_failed')
    expect(declineFromBraintree('GATEWAY_REJECTED', null)).toBe('sale_error')
    expect(declineFromBraintree('SETTLED', '1000')).toBeNull()
  })

  it('verifies the pair of our public key among several, and nothing with an edited payload', async () => {
    const payload = `${btoa('<notification><kind>check</kind><subject><check type="boolean">true</check></subject></notification>')}\n`
    const keyBytes = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(BRAINTREE_DEV.privateKey))
    const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign'])
    const hex = [...new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(payload)))].map((b) => b.toString(16).padStart(2, '0')).join('')
    const signature = `${BRAINTREE_STRANGER.publicKey}|${'0'.repeat(40)}&${BRAINTREE_DEV.publicKey}|${hex}`
    expect(await verifyWebhook({ signature, payload }, BRAINTREE_DEV)).toBe(payload)
    expect(await verifyWebhook({ signature, payload: `Q${payload}` }, BRAINTREE_DEV)).toBeNull()
    expect(await verifyWebhook({ signature: `${BRAINTREE_DEV.publicKey}|${hex}`, payload: `${payload} ` }, BRAINTREE_DEV)).toBeNull()
    expect(await verifyWebhook({ signature, payload }, BRAINTREE_STRANGER)).toBeNull()
    expect(parseWebhook(payload)).toEqual({ kind: 'check', timestamp: null, transaction: null })
  })
})
