// The Tpay adapter and module against the Tpay peer (workers/dev-peers/src/tpay.ts) through the
// DEV_PEERS binding: the shared provider contract, JWS notifications pinned to the peer's CA (a
// valid signature under another CA or another host is refused), the TRUE answer, the OAuth check
// before connecting, the card kept for renewals and its declines, and the card update on Tpay's page.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { contractTransaction, describeProviderContract, startInput, type SentNotification } from '../contract.ts'
import type { ProviderContext } from '../provider-module.server.ts'
import { forgetTpayTokens, fromTpayAmount, toTpayAmount } from './client.server.ts'
import { TPAY_DEV_ROOT_PEM } from './dev-pki/root.ts'
import { ROGUE_ROOT_PEM, ROGUE_SIGNING_CERT_PEM, ROGUE_SIGNING_KEY_PEM } from './dev-pki/rogue.ts'
import { bytesToB64url, issuedBy, parseCertificate, pemToDer, verifyTpayJws } from './jws.server.ts'
import { tpayModule } from './module.server.ts'
import type { TpayAdapter } from './tpay.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://tpay.dev-peers.internal'
const API = `${PEER}/tpay`
// Must match TPAY_DEV / TPAY_STRANGER of workers/dev-peers/src/tpay.ts.
const DEV = { clientId: '1010-c0a5e7d1f2b34a59', clientSecret: 'coursefront_dev_tpay_secret_0000000000000000000000', merchantId: '1010', sandbox: 'no' }
const STRANGER = { clientId: '2020-5tr4n6e7a1b2c3d4', clientSecret: 'coursefront_dev_tpay_stranger_00000000000000000000', merchantId: '2020', sandbox: 'no' }
const UNKNOWN = { clientId: '3030-0000000000000000', clientSecret: 'not_a_tpay_secret_000000000000', merchantId: '', sandbox: 'no' }

function context(overrides: Partial<ProviderContext> = {}): ProviderContext {
  return { env: env as unknown as ProviderContext['env'], fetch: peers.fetch, apiBase: () => API, testPaymentsAllowed: true, ...overrides }
}
const adapterWith = (credentials: Record<string, string>) => tpayModule.adapter(context(), credentials) as TpayAdapter

async function control<T = Record<string, unknown>>(path: string, json?: unknown): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/tpay${path}`, json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  if (!res.ok) throw new Error(`tpay control ${path}: ${res.status}`)
  return (await res.json()) as T
}
const notifications = async (ref: string) =>
  (await control<{ notifications: SentNotification[] }>(`/notifications?transactionId=${encodeURIComponent(ref)}`)).notifications.map(({ url, headers, body }) => ({ url, headers, body }))
const reset = async () => {
  forgetTpayTokens()
  await control('/reset', {})
}

describeProviderContract({
  provider: 'tpay',
  currency: 'PLN',
  adapter: () => adapterWith(DEV),
  // Credentials the peer does not know: refused outright. TPAY_STRANGER (a known other merchant) is below.
  strangerAdapter: () => adapterWith(UNKNOWN),
  reset,
  async pay(_redirectUrl, providerRef, outcome) {
    await control(`/pay/${encodeURIComponent(providerRef)}`, { outcome })
  },
  notifications,
  async down(on) {
    await control('/fault', { down: on })
  },
})

async function paidSale(options: { storeCard?: boolean; amount?: number } = {}) {
  const tx = contractTransaction('PLN', options.amount)
  const started = await adapterWith(DEV).startPayment(startInput(tx, { storeCard: options.storeCard }))
  if (!started.ok) throw new Error(JSON.stringify(started))
  await control(`/pay/${started.providerRef}`, { outcome: 'paid' })
  const sent = (await notifications(started.providerRef)).at(-1)!
  return { tx, ref: started.providerRef, redirectUrl: started.redirectUrl, sent }
}
const pemAt = async (url: string) => new TextDecoder().decode(await (await peers.fetch(url)).arrayBuffer())
const asRequest = (n: SentNotification, headers = n.headers, body = n.body) => new Request(n.url, { method: 'POST', headers, body })

describe('Tpay adapter', () => {
  beforeEach(reset)

  it('converts between grosze and Tpay’s decimal amounts exactly', () => {
    expect(toTpayAmount(12_300)).toBe(123)
    expect(toTpayAmount(1_999)).toBe(19.99)
    expect(fromTpayAmount(19.99)).toBe(1_999)
    expect(fromTpayAmount('0.1')).toBe(10)
    expect(fromTpayAmount('1.234')).toBeNull()
    expect(fromTpayAmount('-5')).toBeNull()
  })

  it('starts on the peer’s page under /tpay/hosted on the buyer-facing host, with the title as reference; only PLN', async () => {
    const adapter = adapterWith(DEV)
    const started = await adapter.startPayment(startInput(contractTransaction('PLN')))
    expect(started).toMatchObject({ ok: true, providerRef: expect.stringMatching(/^TR-/), redirectUrl: expect.stringMatching(/^https:\/\/pay\.localhost\/tpay\/hosted\/pay\//) })
    expect(await adapter.startPayment(startInput(contractTransaction('EUR')))).toMatchObject({ ok: false, reason: 'refused' })
  })

  it('a paid sale’s notification names the transaction, claims completion, and is answered TRUE', async () => {
    const { ref, sent } = await paidSale()
    const adapter = adapterWith(DEV)
    const verified = await adapter.readNotification(asRequest(sent), sent.body)
    expect(verified).toEqual({ providerRef: ref, event: { provider: 'tpay', eventKey: `${ref}:TRUE`, providerStatus: 'TRUE', status: 'completed' } })
    const answer = adapter.notificationAnswer(true)
    expect([answer.status, await answer.text()]).toEqual([200, 'TRUE'])
    expect(await adapter.notificationAnswer(false).text()).toBe('FALSE')
  })

  it('refuses a notification for another merchant id, when the integration names its own', async () => {
    const { sent } = await paidSale()
    expect(await adapterWith({ ...DEV, merchantId: '9999' }).readNotification(asRequest(sent), sent.body)).toBeNull()
    expect(await adapterWith({ ...DEV, merchantId: '' }).readNotification(asRequest(sent), sent.body)).not.toBeNull()
  })

  it('a body signed by a certificate of another CA, or naming a certificate off Tpay’s host, is refused', async () => {
    const { sent } = await paidSale()
    const signature = sent.headers['X-JWS-Signature']!
    const x5u = `${API}/x509/notifications-jws.pem`
    const genuine = { rootPem: TPAY_DEV_ROOT_PEM, x5uPrefix: `${API}/x509/`, fetchCertificate: async () => pemAt(x5u) }
    expect(await verifyTpayJws(signature, sent.body, genuine)).toBe(true)
    // A forger's own certificate served at an x5u that passes the host check: not issued by the pinned root.
    const forged = await sign(sent.body, x5u, ROGUE_SIGNING_KEY_PEM)
    expect(await verifyTpayJws(forged, sent.body, { ...genuine, fetchCertificate: async () => ROGUE_SIGNING_CERT_PEM })).toBe(false)
    // …and accepted only by a verifier pinning the forger's root (the check is the pin, not the signature).
    expect(await verifyTpayJws(forged, sent.body, { ...genuine, rootPem: ROGUE_ROOT_PEM, fetchCertificate: async () => ROGUE_SIGNING_CERT_PEM })).toBe(true)
    // The genuine signature, but x5u elsewhere.
    expect(await verifyTpayJws(signature, sent.body, { ...genuine, x5uPrefix: 'https://secure.tpay.com/x509/' })).toBe(false)
    // Another alg, or an attached payload.
    const [header, , sig] = signature.split('.')
    expect(await verifyTpayJws(`${header}.${bytesToB64url(new TextEncoder().encode(sent.body))}.${sig}`, sent.body, genuine)).toBe(false)
    const none = bytesToB64url(new TextEncoder().encode(JSON.stringify({ alg: 'none', x5u })))
    expect(await verifyTpayJws(`${none}..${sig}`, sent.body, genuine)).toBe(false)
  })

  it('checks the chain with a DER reader: the peer’s signing certificate is issued by its root, valid now, and not by the other CA', async () => {
    const leaf = parseCertificate(pemToDer(await pemAt(`${API}/x509/notifications-jws.pem`)))
    const root = parseCertificate(pemToDer(TPAY_DEV_ROOT_PEM))
    expect(await issuedBy(leaf, root)).toBe(true)
    expect(await issuedBy(leaf, parseCertificate(pemToDer(ROGUE_ROOT_PEM)))).toBe(false)
    expect(await issuedBy(leaf, root, leaf.notAfter + 1)).toBe(false)
  })

  it('another merchant known to Tpay does not see our transactions', async () => {
    const { ref } = await paidSale()
    expect(await adapterWith(STRANGER).confirmPayment(ref, null)).toEqual({ ok: false, reason: 'not_found' })
  })

  it('keeps the card of a membership’s first payment, and renewals charge it once per key', async () => {
    const { tx, ref } = await paidSale({ storeCard: true })
    const adapter = adapterWith(DEV)
    const state = await adapter.confirmPayment(ref, null)
    expect(state).toMatchObject({ ok: true, status: 'completed', amount: tx.totalAmount, currency: 'PLN', card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030 } })
    const token = state.ok ? state.card!.token : ''
    const charge = {
      token,
      amount: 4_900,
      currency: 'PLN',
      idempotencyKey: `renewal-${tx.id}`,
      description: 'Członkostwo',
      notifyUrl: 'https://kurs.example.test/payments/tpay/i/notify',
      buyer: { email: 'zofia@example.com', name: 'Zofia' },
    }
    const first = await adapter.chargeStoredCard(charge)
    expect(first).toMatchObject({ ok: true, amount: 4_900, currency: 'PLN', providerStatus: 'correct' })
    // The same key: the same transaction, not a second charge.
    expect(await adapter.chargeStoredCard(charge)).toEqual(first)
    expect(await adapter.chargeStoredCard({ ...charge, idempotencyKey: `renewal-${tx.id}-2` })).toMatchObject({ ok: true, providerRef: expect.not.stringMatching(first.ok ? first.providerRef : '') })
  })

  it('a renewal with a card that is declined ends card_declined with the seed’s reason, and stays declined for the same key', async () => {
    // A card saved without a charge (0341) whose charges are declined: insufficient funds.
    const adapter = adapterWith(DEV)
    const update = await adapter.cardUpdate.start({
      currentToken: null,
      reference: 'm1',
      returnUrl: 'https://kurs.example.test/my/membership/card/return?membership=m1',
      cancelUrl: 'https://kurs.example.test/panel',
      buyer: { email: 'zofia@example.com', name: 'Zofia' },
      currency: 'PLN',
      locale: 'pl',
    })
    if (!update.ok) throw new Error(JSON.stringify(update))
    await control(`/pay/${update.ref}`, { outcome: 'paid', cardNumber: '4000000000000341' })
    const saved = await adapter.cardUpdate.complete({ ref: update.ref, query: new URLSearchParams(), currentToken: null })
    if (!saved.ok) throw new Error(JSON.stringify(saved))
    const charge = {
      token: saved.card.token,
      amount: 4_900,
      currency: 'PLN',
      idempotencyKey: 'renewal-declined',
      description: 'Członkostwo',
      notifyUrl: 'https://kurs.example.test/n',
      buyer: { email: 'zofia@example.com', name: 'Zofia' },
    }
    const declined = await adapter.chargeStoredCard(charge)
    expect(declined).toMatchObject({ ok: false, reason: 'card_declined', declineReason: 'insufficient_funds', providerRef: expect.stringMatching(/^TR-/) })
    expect(await adapter.chargeStoredCard(charge)).toEqual(declined)
    expect(await adapter.confirmPayment((declined as { providerRef: string }).providerRef, null)).toMatchObject({ ok: true, status: 'failed', declineReason: 'insufficient_funds' })
  })

  it('updates the card on Tpay’s card page: the new token comes from Tpay’s API; a declined card saves nothing', async () => {
    const adapter = adapterWith(DEV)
    const input = {
      currentToken: 'old',
      reference: 'm1',
      returnUrl: 'https://kurs.example.test/my/membership/card/return?membership=m1',
      cancelUrl: 'https://kurs.example.test/panel',
      buyer: { email: 'zofia@example.com', name: 'Zofia' },
      currency: 'PLN',
      locale: 'en',
    }
    const started = await adapter.cardUpdate.start(input)
    expect(started).toMatchObject({ ok: true, redirectUrl: expect.stringMatching(/^https:\/\/pay\.localhost\/tpay\/hosted\/card\//) })
    if (!started.ok) return
    expect(await adapter.cardUpdate.complete({ ref: started.ref, query: new URLSearchParams(), currentToken: 'old' })).toEqual({ ok: false, reason: 'refused' })
    await control(`/pay/${started.ref}`, { outcome: 'paid' })
    expect(await adapter.cardUpdate.complete({ ref: started.ref, query: new URLSearchParams(), currentToken: 'old' })).toMatchObject({
      ok: true,
      card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030 },
    })
    const other = await adapter.cardUpdate.start(input)
    if (!other.ok) return
    await control(`/pay/${other.ref}`, { outcome: 'declined' })
    expect(await adapter.cardUpdate.complete({ ref: other.ref, query: new URLSearchParams(), currentToken: 'old' })).toEqual({ ok: false, reason: 'declined' })
  })
})

describe('Tpay module: connect', () => {
  beforeEach(reset)
  const input = (fields: Record<string, string>, currency = 'PLN') => ({
    fields,
    currency,
    integrationId: 'i1',
    notifyUrl: 'https://kurs.example.test/payments/tpay/i1/notify',
    origin: 'https://kurs.example.test',
  })

  it('checks the credentials with Tpay before they are sealed; the public reference is the client id', async () => {
    expect(await tpayModule.connect(context(), input(DEV))).toEqual({ ok: true, credentials: DEV, publicRef: DEV.clientId })
    expect(await tpayModule.connect(context(), input({ ...DEV, clientSecret: 'wrong_secret_000' }))).toEqual({
      ok: false,
      errors: { clientSecret: { key: 'payments.tpay.error.refused' } },
      status: 422,
    })
  })

  it('never reuses a token obtained with another secret for the same client id', async () => {
    const good = tpayModule.adapter(context(), DEV)
    expect((await good.startPayment(startInput(contractTransaction('PLN')))).ok).toBe(true)
    const wrong = tpayModule.adapter(context(), { ...DEV, clientSecret: 'wrong_secret_000' })
    expect(await wrong.startPayment(startInput(contractTransaction('PLN')))).toMatchObject({ ok: false, reason: 'refused' })
  })

  it('refuses malformed fields, other currencies, and the sandbox where only real payments are taken', async () => {
    expect(await tpayModule.connect(context(), input({ ...DEV, clientId: 'has spaces', merchantId: 'x1' }))).toMatchObject({
      ok: false,
      status: 422,
      errors: { clientId: { key: 'payments.tpay.error.clientId' }, merchantId: { key: 'payments.tpay.error.merchantId' } },
    })
    expect(await tpayModule.connect(context(), input(DEV, 'EUR'))).toMatchObject({ ok: false, errors: { currency: { key: 'payments.tpay.error.currency' } } })
    expect(await tpayModule.connect(context({ testPaymentsAllowed: false }), input({ ...DEV, sandbox: 'yes' }))).toMatchObject({
      ok: false,
      errors: { sandbox: { key: 'payments.tpay.error.sandbox_not_allowed' } },
    })
    expect(tpayModule.usesTestCredentials({ ...DEV, sandbox: 'yes' })).toBe(true)
    expect(tpayModule.usesTestCredentials(DEV)).toBe(false)
  })

  it('Tpay down: nothing is saved, the owner is told to try again', async () => {
    await control('/fault', { down: true })
    try {
      expect(await tpayModule.connect(context(), input(DEV))).toEqual({ ok: false, errors: { form: { key: 'payments.error.unavailable', values: { provider: 'Tpay' } } }, status: 502 })
    } finally {
      await control('/fault', { down: false })
    }
  })
})

/** A detached RS256 JWS as a forger would make it with their own key. */
async function sign(body: string, x5u: string, keyPem: string) {
  const der = Uint8Array.from(atob(keyPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')), (c) => c.charCodeAt(0))
  const key = await crypto.subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])
  const header = bytesToB64url(new TextEncoder().encode(JSON.stringify({ alg: 'RS256', x5u })))
  const signature = new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, new TextEncoder().encode(`${header}.${bytesToB64url(new TextEncoder().encode(body))}`)))
  return `${header}..${bytesToB64url(signature)}`
}
