// The PayPal module against the PayPal peer (workers/dev-peers/src/paypal.ts) through DEV_PEERS:
// the shared provider contract, connecting (token check, webhook created and its id kept), capture on
// confirmation (idempotent for replayed notifications), renewals with the vault id, and the card
// (PayPal account) update through a vault setup token.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Env } from '#app/utils/env.server.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { contractTransaction, describeProviderContract, startInput, type SentNotification } from '../contract.ts'
import { canChargeStoredCard, canUpdateCard, type PaymentAdapter } from '../../provider.server.ts'
import { providerContext } from '../provider-context.server.ts'
import { paypalModule } from './module.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEERS = 'http://dev-peers.internal'
// Must match PAYPAL_DEV / PAYPAL_DEV_STRANGER in workers/dev-peers/src/paypal.ts (and docs/payments/paypal.md).
const DEV = { clientId: 'AcoursefrontDevPaypalClient0000000000000001', clientSecret: 'EcoursefrontDevPaypalSecret00000000000000001' }
const STRANGER = { clientId: 'AcoursefrontDevPaypalStranger00000000000002', clientSecret: 'EcoursefrontDevPaypalStrangerSecret000000002' }
const ctx = providerContext(env as unknown as Env, 'paypal')

async function control<T = unknown>(method: string, path: string, json?: unknown): Promise<T> {
  const res = await peers.fetch(`${PEERS}/_peer/paypal${path}`, {
    method,
    headers: json === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  if (!res.ok) throw new Error(`paypal control ${method} ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

let integration = 0
async function connect(app = DEV, options: { notifyUrl?: string; testPaymentsAllowed?: boolean; sandbox?: string } = {}) {
  const integrationId = `int${++integration}${Date.now().toString(36)}`
  return paypalModule.connect(
    { ...ctx, testPaymentsAllowed: options.testPaymentsAllowed ?? true },
    {
      fields: { ...app, sandbox: options.sandbox ?? 'yes' },
      currency: 'PLN',
      integrationId,
      // *.localhost: the peer records the event but cannot reach it (tests read it from the peer).
      notifyUrl: options.notifyUrl ?? `http://school.localhost/payments/paypal/${integrationId}/notify`,
      origin: 'http://school.localhost',
    },
  )
}

async function connected(app = DEV) {
  const result = await connect(app)
  if (!result.ok) throw new Error(`connect refused: ${JSON.stringify(result)}`)
  return result.credentials
}

async function notifications(orderId: string): Promise<SentNotification[]> {
  const { notifications } = await control<{ notifications: SentNotification[] }>('GET', `/notifications?orderId=${encodeURIComponent(orderId)}`)
  return notifications.map(({ url, headers, body }) => ({ url, headers, body }))
}

/** The buyer on the approval page (the hosted form, reached through DEV_PEERS instead of pay.localhost). */
async function approve(redirectUrl: string, email: string) {
  const page = new URL(redirectUrl)
  expect(page.hostname).toBe('pay.localhost')
  expect(page.pathname).toBe('/paypal/hosted/checkoutnow')
  const url = `${PEERS}${page.pathname}${page.search}`
  expect((await peers.fetch(url)).status).toBe(200)
  const res = await peers.fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password: 'sandbox', action: 'approve' }).toString(),
    redirect: 'manual',
  })
  expect(res.status).toBe(302)
  return res.headers.get('Location')!
}

/** What the notify route does with each event the peer sent: verify, then ask the API (which captures). */
async function deliver(adapter: PaymentAdapter, orderId: string) {
  for (const n of await notifications(orderId)) {
    const verified = await adapter.readNotification(new Request(n.url, { method: 'POST', headers: n.headers, body: n.body }), n.body)
    if (verified && verified !== 'ignored') await adapter.confirmPayment(verified.providerRef, verified.event)
  }
}

let credentials: Record<string, string> = {}
const adapter = () => paypalModule.adapter(ctx, credentials)

describeProviderContract({
  provider: 'paypal',
  currency: 'PLN',
  adapter,
  // An app PayPal does not know.
  strangerAdapter: () => paypalModule.adapter(ctx, { clientId: 'AunknownPaypalApp0000000000000000', clientSecret: 'EunknownPaypalSecret00000000000000', sandbox: 'true', webhookId: 'UNKNOWNWEBHOOK' }),
  reset: async () => {
    await control('POST', '/reset')
    credentials = await connected()
  },
  pay: async (redirectUrl, providerRef, outcome) => {
    await approve(redirectUrl, outcome === 'paid' ? 'sb-buyer@personal.example.com' : 'sb-declined@personal.example.com')
    await deliver(adapter(), providerRef)
  },
  notifications,
  down: async (on) => {
    await control(on ? 'POST' : 'DELETE', '/fault', on ? { status: 503 } : undefined)
  },
})

describe('PayPal module against the PayPal peer', () => {
  beforeEach(async () => {
    await control('POST', '/reset')
    credentials = await connected()
  })

  it('connects: the webhook is created for the notify URL and its id sealed; the same URL again reuses it', async () => {
    expect(credentials).toMatchObject({ clientId: DEV.clientId, sandbox: 'true' })
    expect(credentials.webhookId).toMatch(/^[A-Z0-9]+$/)
    const url = 'http://school.localhost/payments/paypal/same/notify'
    const first = await connect(DEV, { notifyUrl: url })
    const again = await connect(DEV, { notifyUrl: url })
    expect(first.ok && again.ok).toBe(true)
    if (first.ok && again.ok) expect(again.credentials.webhookId).toBe(first.credentials.webhookId)
    if (first.ok) expect(first.publicRef).not.toContain(DEV.clientSecret)
  })

  it('refuses a wrong secret, sandbox credentials where only real payments are taken, and says when PayPal is down', async () => {
    expect(await connect({ ...DEV, clientSecret: 'EwrongSecret0000000000000000' })).toMatchObject({
      ok: false,
      status: 422,
      errors: { clientSecret: { key: 'payments.paypal.error.refused_sandbox' } },
    })
    expect(await connect(DEV, { testPaymentsAllowed: false })).toMatchObject({ ok: false, errors: { sandbox: { key: 'payments.paypal.error.sandbox_not_allowed' } } })
    expect(await connect({ clientId: 'short', clientSecret: DEV.clientSecret })).toMatchObject({ ok: false, errors: { clientId: { key: 'payments.paypal.error.key' } } })
    await control('POST', '/fault', { status: 503 })
    try {
      expect(await connect()).toMatchObject({ ok: false, status: 502, errors: { form: { key: 'payments.error.unavailable' } } })
    } finally {
      await control('DELETE', '/fault')
    }
  })

  it('captures once: a replayed approval after the capture reads the captured order, amount as PayPal recorded it', async () => {
    const tx = contractTransaction('EUR', 4_999)
    const started = await adapter().startPayment(startInput(tx, { locale: 'en' }))
    if (!started.ok) throw new Error(JSON.stringify(started))
    expect(await adapter().confirmPayment(started.providerRef, null)).toMatchObject({ ok: true, status: null, providerStatus: 'PAYER_ACTION_REQUIRED' })
    const back = new URL(await approve(started.redirectUrl, 'sb-buyer@personal.example.com'))
    expect(back.searchParams.get('token')).toBe(started.providerRef)
    const [approved] = await notifications(started.providerRef)
    const verified = await adapter().readNotification(new Request(approved!.url, { method: 'POST', headers: approved!.headers, body: approved!.body }), approved!.body)
    expect(verified).toMatchObject({ providerRef: started.providerRef, event: { provider: 'paypal', status: null, providerStatus: 'CHECKOUT.ORDER.APPROVED' } })
    const first = await adapter().confirmPayment(started.providerRef, null)
    const replayed = await adapter().confirmPayment(started.providerRef, null)
    expect(first).toMatchObject({ ok: true, status: 'completed', amount: 4_999, currency: 'EUR', card: null })
    expect(replayed).toEqual(first)
    // The capture's own event names the order.
    const captured = (await notifications(started.providerRef)).at(-1)!
    expect(await adapter().readNotification(new Request(captured.url, { method: 'POST', headers: captured.headers, body: captured.body }), captured.body)).toMatchObject({
      providerRef: started.providerRef,
      event: { status: 'completed', providerStatus: 'PAYMENT.CAPTURE.COMPLETED' },
    })
  })

  it('another account’s app (known to PayPal) does not find the order, and its webhook id does not verify our events', async () => {
    const started = await adapter().startPayment(startInput(contractTransaction('PLN')))
    if (!started.ok) throw new Error(JSON.stringify(started))
    await approve(started.redirectUrl, 'sb-buyer@personal.example.com')
    const stranger = paypalModule.adapter(ctx, await connected(STRANGER))
    expect(await stranger.confirmPayment(started.providerRef, null)).toEqual({ ok: false, reason: 'not_found' })
    const [sent] = await notifications(started.providerRef)
    expect(await stranger.readNotification(new Request(sent!.url, { method: 'POST', headers: sent!.headers, body: sent!.body }), sent!.body)).toBeNull()
  })

  it('a declined payment (the payer’s funding refused at capture) fails with the seed’s reason and keeps no card', async () => {
    const a = adapter()
    if (!canChargeStoredCard(a)) throw new Error('no renewals')
    const tx = contractTransaction('PLN')
    const started = await a.startPayment(startInput(tx, { storeCard: true }))
    if (!started.ok) throw new Error(JSON.stringify(started))
    await control('POST', `/pay/${started.providerRef}`, { outcome: 'paid' })
    const state = await a.confirmPayment(started.providerRef, null)
    if (!state.ok || !state.card) throw new Error(JSON.stringify(state))
    expect(state.card).toMatchObject({ brand: 'PayPal', last4: null })
    const declined = await a.startPayment(startInput(contractTransaction('PLN'), { storeCard: true }))
    if (!declined.ok) throw new Error(JSON.stringify(declined))
    await control('POST', `/pay/${declined.providerRef}`, { outcome: 'declined' })
    const failed = await a.confirmPayment(declined.providerRef, null)
    expect(failed).toMatchObject({ ok: true, status: 'failed', declineReason: 'sale_error' })
    expect(failed.ok && failed.card).toBeFalsy()
  })

  it('updates the PayPal account for renewals: setup token → the payer approves → a new vault id that renews', async () => {
    const a = adapter()
    if (!canUpdateCard(a) || !canChargeStoredCard(a)) throw new Error('no card update')
    const start = await a.cardUpdate.start({
      currentToken: null,
      reference: 'membership-1',
      returnUrl: 'http://school.localhost:8787/my/membership/card/return?membership=membership-1',
      cancelUrl: 'http://school.localhost:8787/panel',
      buyer: { email: 'student@example.com', name: 'Zofia' },
      currency: 'PLN',
      locale: 'pl',
    })
    if (!start.ok) throw new Error(JSON.stringify(start))
    const page = new URL(start.redirectUrl)
    expect(`${page.host}${page.pathname}`).toBe('pay.localhost:8787/paypal/hosted/agreements/approve')
    // Not approved yet: no vault id.
    expect(await a.cardUpdate.complete({ ref: start.ref, query: new URLSearchParams(), currentToken: null })).toEqual({ ok: false, reason: 'declined' })
    const res = await peers.fetch(`${PEERS}${page.pathname}${page.search}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'sb-buyer@personal.example.com', password: 'x', action: 'approve' }).toString(),
      redirect: 'manual',
    })
    expect(res.status).toBe(302)
    const back = new URL(res.headers.get('Location')!)
    expect(back.searchParams.get('membership')).toBe('membership-1')
    const done = await a.cardUpdate.complete({ ref: start.ref, query: back.searchParams, currentToken: null })
    if (!done.ok) throw new Error(JSON.stringify(done))
    expect(done.card).toMatchObject({ brand: 'PayPal', last4: null })
    expect(await a.cardUpdate.complete({ ref: start.ref, query: back.searchParams, currentToken: null })).toEqual(done)
    const charge = await a.chargeStoredCard({
      token: done.card.token,
      amount: 2_900,
      currency: 'PLN',
      idempotencyKey: `renewal-${Date.now()}`,
      description: 'Membership',
      notifyUrl: 'http://school.localhost/payments/paypal/i/notify',
      buyer: { email: 'student@example.com', name: 'Zofia' },
    })
    expect(charge).toMatchObject({ ok: true, amount: 2_900, currency: 'PLN' })

    // A PayPal account whose funding is refused: its renewal is declined, in the seed's words.
    const other = await a.cardUpdate.start({
      currentToken: done.card.token,
      reference: 'membership-2',
      returnUrl: 'http://school.localhost/my/membership/card/return?membership=membership-2',
      cancelUrl: 'http://school.localhost/panel',
      buyer: { email: 's@example.com', name: 'S' },
      currency: 'PLN',
      locale: 'en',
    })
    if (!other.ok) throw new Error(JSON.stringify(other))
    await control('POST', `/setup-tokens/${other.ref}/approve`, { outcome: 'declined' })
    const refused = await a.cardUpdate.complete({ ref: other.ref, query: new URLSearchParams({ approval_token_id: other.ref }), currentToken: done.card.token })
    if (!refused.ok) throw new Error(JSON.stringify(refused))
    const renewal = {
      token: refused.card.token,
      amount: 2_900,
      currency: 'PLN',
      idempotencyKey: `renewal-declined-${Date.now()}`,
      description: 'Membership',
      notifyUrl: 'http://school.localhost/n',
      buyer: { email: 's@example.com', name: 'S' },
    }
    expect(await a.chargeStoredCard(renewal)).toEqual({ ok: false, reason: 'card_declined', declineReason: 'sale_error' })
  })
})
