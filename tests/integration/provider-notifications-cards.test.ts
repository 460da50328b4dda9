// Issue 25 acceptance at HTTP level for the card providers that notify (Braintree, PayLane), as
// provider-notifications.test.ts does for Przelewy24, Tpay and PayPal: a sale made as the card page
// makes it (hostedFields.payWithToken with a token from the peer's fields), its reference stored,
// and the card page's own confirmation never run (the request died after the sale), so the
// provider's notification is what settles it. Delivered to the app's notify route 20 times at once,
// late and in reverse, altered, forged, for a transaction whose amount is not what was charged, and
// on another school's host. One grant or none, as ADR 019/023 say.
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { getTransaction, setProviderRef } from '#app/models/transaction.server.ts'
import { providerModule } from '#app/payments/providers/index.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { connectProvider, pendingCourseOrder } from './provider-orders.ts'
import { createTestSchool, db, type TestSchool } from '#tests/factories.ts'
import { BRAINTREE_DEV } from '../../workers/dev-peers/src/braintree.ts'
import { PAYLANE_DEV } from '../../workers/dev-peers/src/paylane.ts'

const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'

type Sent = { headers: Record<string, string>; body: string }

/** What each provider's peer needs from a test: its development account, its fields' token, how a sale gets notified. */
const PROVIDERS: Array<{
  provider: PaymentProvider
  fields: Record<string, string>
  /** The provider's setting of where notifications go (Braintree's Control Panel webhook, PayLane's Merchant Panel URL). */
  destination(notifyUrl: string): Promise<void>
  /** A one-time token for a card that pays, as the hosted fields give it to the page. */
  cardToken(): Promise<string>
  /** What happens at the provider after the sale before it notifies (Braintree: the settlement batch). */
  afterSale(saleRef: string): Promise<void>
  notifications(saleRef: string): Promise<Sent[]>
  /** The same notification with the amount changed and its proof left as it was (a forger's edit). */
  alterAmount(body: string): string
}> = [
  {
    provider: 'braintree',
    // BRAINTREE_DEV in workers/dev-peers/src/braintree.ts
    fields: { merchantId: BRAINTREE_DEV.merchantId, publicKey: BRAINTREE_DEV.publicKey, privateKey: BRAINTREE_DEV.privateKey, merchantAccountId: '', sandbox: 'true' },
    destination: (url) => control('braintree', '/webhook-url', { merchantId: BRAINTREE_DEV.merchantId, url }),
    cardToken: async () => (await control<{ nonce: string }>('braintree', '/nonce', { number: '4111111111111111', expiry: '12/30', cvv: '123', merchantId: BRAINTREE_DEV.merchantId })).nonce,
    afterSale: async (ref) => void (await control('braintree', '/settle', { transactionId: ref })),
    notifications: async (ref) => (await read<{ notifications: Sent[] }>('braintree', `/notifications?transactionId=${encodeURIComponent(ref)}`)).notifications,
    alterAmount: alterBraintreeAmount,
  },
  {
    provider: 'paylane',
    // PAYLANE_DEV in workers/dev-peers/src/paylane.ts
    fields: { apiLogin: PAYLANE_DEV.apiLogin, apiPassword: PAYLANE_DEV.apiPassword, publicApiKey: PAYLANE_DEV.publicApiKey, notificationToken: PAYLANE_DEV.notificationToken, sandbox: 'yes' },
    destination: (url) => control('paylane', '/panel', { login: PAYLANE_DEV.apiLogin, notificationUrl: url }),
    cardToken: async () => (await control<{ token: string }>('paylane', '/token', { number: '4111111111111111', expiry: '12/39', cvv: '123' })).token,
    // A performed sale is notified at once.
    afterSale: async () => {},
    notifications: async (ref) => (await read<{ notifications: Sent[] }>('paylane', `/notifications?saleId=${encodeURIComponent(ref)}`)).notifications,
    alterAmount: (body) => {
      const form = new URLSearchParams(body)
      form.set('content[0][amount]', (Number(form.get('content[0][amount]')) + 1).toFixed(2))
      return form.toString()
    },
  },
]

async function control<T = Record<string, unknown>>(provider: string, path: string, json: unknown): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/${provider}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  expect(res.status, `${provider} ${path}: ${await res.clone().text()}`).toBe(200)
  return (await res.json()) as T
}
async function read<T>(provider: string, path: string): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/${provider}${path}`)
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

/** Braintree's payload is base64 XML in 60-character lines: change <amount>, keep bt_signature. */
function alterBraintreeAmount(body: string) {
  const form = new URLSearchParams(body)
  const bin = atob(form.get('bt_payload')!.replace(/\n/g, ''))
  const xml = new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)))
  const altered = xml.replace(/<amount>(\d+)\.(\d{2})<\/amount>/, (_m, units: string, cents: string) => `<amount>${Number(units) + 1}.${cents}</amount>`)
  expect(altered).not.toBe(xml)
  let out = ''
  for (const b of new TextEncoder().encode(altered)) out += String.fromCharCode(b)
  form.set('bt_payload', (btoa(out).match(/.{1,60}/g) ?? []).join('\n') + '\n')
  return form.toString()
}

const connect = connectProvider

const notifyUrl = (host: string, provider: PaymentProvider, integrationId: string) => `http://${host}/payments/${provider}/${integrationId}/notify`

/** A pending paid course order sent to the card page (startPayment), then the sale the card page makes with the fields' token. */
async function paidOnCardPage(school: TestSchool, p: (typeof PROVIDERS)[number], integrationId: string, credentials: Record<string, string>, totalAmount = 12_300) {
  const { provider } = p
  const { student, product, tx } = await pendingCourseOrder(school, 'Kurs kartą', totalAmount)
  const ctx = providerContext(env as unknown as Env, provider)
  const withId = { ...credentials, __integrationId: integrationId }
  const notify = notifyUrl(school.host, provider, integrationId)
  const started = await providerModule(provider)!
    .adapter(ctx, withId)
    .startPayment({
      transaction: tx,
      buyer: { name: 'Zofia', email: student.email },
      origin: `http://${school.host}`,
      continueUrl: `http://${school.host}/transaction/${tx.hash}/pending`,
      notifyUrl: notify,
      customerIp: '203.0.113.9',
      description: product.title,
      mode: 'payment',
      locale: 'pl',
    })
  if (!started.ok) throw new Error(`${provider} start: ${JSON.stringify(started)}`)
  expect(started.redirectUrl).toBe(`http://${school.host}/payments/${provider}/${integrationId}/card/${tx.hash}`)
  await setProviderRef(db(), school.tenantId, tx.id, { provider, integrationId, providerRef: started.providerRef })

  await p.destination(notify)
  const paid = await providerModule(provider)!.hostedFields!.payWithToken(ctx, withId, {
    transaction: (await getTransaction(db(), school.tenantId, tx.id))!,
    token: await p.cardToken(),
    buyer: { email: student.email, name: 'Zofia' },
    notifyUrl: notify,
    customerIp: '203.0.113.9',
    description: product.title,
    storeCard: false,
  })
  if (!paid.ok || paid.redirectUrl) throw new Error(`${provider} sale: ${JSON.stringify(paid)}`)
  // As the card page: the sale's reference from now on (its confirmation is what this test leaves out).
  await setProviderRef(db(), school.tenantId, tx.id, { provider, integrationId, providerRef: paid.providerRef })
  return { tx, saleRef: paid.providerRef }
}

/** The provider's server calling this integration's notify route: no cookies, no Origin, no Fetch Metadata. */
function deliver(host: string, provider: PaymentProvider, integrationId: string, n: Sent, body = n.body) {
  const headers = Object.fromEntries(Object.entries(n.headers).filter(([k]) => !/^(host|content-length)$/i.test(k)))
  return (exports as unknown as { default: Fetcher }).default.fetch(notifyUrl(host, provider, integrationId), { method: 'POST', body, headers })
}

async function counts(tenantId: string, txId: string) {
  const n = async (sql: string) => (await env.DB_SHARD_0.prepare(sql).bind(tenantId, txId).first<{ n: number }>())!.n
  return {
    grants: await n(
      "SELECT count(*) AS n FROM product_access pa JOIN transactions t ON t.product_id = pa.product_id AND t.user_id = pa.user_id WHERE pa.tenant_id = ? AND t.id = ? AND pa.source = 'purchase'",
    ),
    paidEvents: await n("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND subject_id = ? AND type = 'student.paid'"),
    events: await n('SELECT count(*) AS n FROM payment_events WHERE tenant_id = ? AND transaction_id = ?'),
    status: (await env.DB_SHARD_0.prepare('SELECT status FROM transactions WHERE tenant_id = ? AND id = ?').bind(tenantId, txId).first<{ status: string }>())!.status,
  }
}

describe.each(PROVIDERS)('$provider notifications through the app', (p) => {
  const { provider, fields } = p

  it('a paid sale: its notification 20 times at once gives one grant; altered or forged bodies are refused and change nothing', async () => {
    const school = await createTestSchool()
    const integration = await connect(school, provider, fields)
    const { tx, saleRef } = await paidOnCardPage(school, p, integration.id, await sealedCredentials(integration))
    await p.afterSale(saleRef)
    const sent = await p.notifications(saleRef)
    expect(sent.length, 'the peer sent a notification').toBeGreaterThan(0)
    const last = sent.at(-1)!
    const nothing = { grants: 0, paidEvents: 0, events: 0, status: 'pending' }
    expect(await counts(school.tenantId, tx.id)).toEqual(nothing)

    // Braintree signs the payload, so an altered amount fails the signature; PayLane proves the
    // sender by its secrets, so there a forger is one without them (the amount case comes below).
    if (provider === 'braintree') {
      const altered = p.alterAmount(last.body)
      expect(altered).not.toBe(last.body)
      expect((await deliver(school.host, provider, integration.id, last, altered)).status).toBe(400)
      expect(await counts(school.tenantId, tx.id)).toEqual(nothing)
    }
    for (const forged of forgeries(provider, last)) {
      expect((await deliver(school.host, provider, integration.id, forged)).status, forged.label).toBe(400)
      expect(await counts(school.tenantId, tx.id)).toEqual(nothing)
    }

    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(school.host, provider, integration.id, last)))
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    if (provider === 'paylane') {
      // PayLane counts a package received only when the answer is its communication_id.
      const communicationId = new URLSearchParams(last.body).get('communication_id')
      expect(await Promise.all(answers.map((a) => a.text()))).toEqual(Array(20).fill(communicationId))
    }
    const granted = await counts(school.tenantId, tx.id)
    expect(granted).toMatchObject({ grants: 1, paidEvents: 1, status: 'completed' })
    expect(granted.events).toBeGreaterThan(0)

    // Every notification, delivered late and in reverse: nothing more.
    for (const n of [...sent].reverse()) expect((await deliver(school.host, provider, integration.id, n)).status).toBeLessThan(500)
    expect(await counts(school.tenantId, tx.id)).toEqual(granted)

    if (provider === 'paylane') {
      // With the secrets right, an edited amount is still only a trigger: sales/info decides, nothing changes.
      expect((await deliver(school.host, provider, integration.id, last, p.alterAmount(last.body))).status).toBe(200)
      expect(await counts(school.tenantId, tx.id)).toEqual(granted)
      const row = await env.DB_SHARD_0.prepare('SELECT total_amount FROM transactions WHERE tenant_id = ? AND id = ?').bind(school.tenantId, tx.id).first<{ total_amount: number }>()
      expect(row!.total_amount).toBe(tx.totalAmount)
    }
  })

  it('a transaction whose amount is not what the provider charged is never granted', async () => {
    const school = await createTestSchool()
    const integration = await connect(school, provider, fields)
    const { tx, saleRef } = await paidOnCardPage(school, p, integration.id, await sealedCredentials(integration))
    // The order in our books now says more than the buyer paid at the provider.
    await env.DB_SHARD_0.prepare('UPDATE transactions SET total_amount = total_amount + 100 WHERE tenant_id = ? AND id = ?').bind(school.tenantId, tx.id).run()
    await p.afterSale(saleRef)
    const sent = (await p.notifications(saleRef)).at(-1)!
    expect((await deliver(school.host, provider, integration.id, sent)).status).toBe(200)
    const after = await counts(school.tenantId, tx.id)
    expect(after.grants).toBe(0)
    expect(after.paidEvents).toBe(0)
    expect(after.status).toBe('mismatch')
  })

  it('another school cannot use this integration’s notify URL', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const integration = await connect(school, provider, fields)
    const { tx, saleRef } = await paidOnCardPage(school, p, integration.id, await sealedCredentials(integration))
    await p.afterSale(saleRef)
    const sent = (await p.notifications(saleRef)).at(-1)!
    expect((await deliver(other.host, provider, integration.id, sent)).status).toBe(404)
    expect(await counts(school.tenantId, tx.id)).toEqual({ grants: 0, paidEvents: 0, events: 0, status: 'pending' })
  })
})

/** Bodies or headers a sender without the account's secrets could make from a real notification. */
function forgeries(provider: PaymentProvider, n: Sent): Array<Sent & { label: string }> {
  if (provider === 'braintree') {
    const form = new URLSearchParams(n.body)
    const [publicKey, hex] = form.get('bt_signature')!.split('|') as [string, string]
    const flipped = new URLSearchParams(n.body)
    flipped.set('bt_signature', `${publicKey}|${(hex[0] === '0' ? '1' : '0') + hex.slice(1)}`)
    const unsigned = new URLSearchParams(n.body)
    unsigned.delete('bt_signature')
    return [
      { label: 'signature changed', headers: n.headers, body: flipped.toString() },
      { label: 'no signature', headers: n.headers, body: unsigned.toString() },
    ]
  }
  const wrongToken = new URLSearchParams(n.body)
  wrongToken.set('token', 'not-the-panel-token-at-all')
  const noAuth = Object.fromEntries(Object.entries(n.headers).filter(([k]) => k.toLowerCase() !== 'authorization'))
  return [
    { label: 'wrong token', headers: n.headers, body: wrongToken.toString() },
    { label: 'wrong Basic password', headers: { ...n.headers, Authorization: `Basic ${btoa(`${PAYLANE_DEV.apiLogin}:not-the-notification-token`)}` }, body: n.body },
    { label: 'no Basic auth', headers: noAuth, body: n.body },
  ]
}

/** The credentials as the registry opens them (what connect sealed). */
async function sealedCredentials(integration: { tenantId: string; provider: PaymentProvider; credentials: string }) {
  const { openCredentials } = await import('#app/models/payment-integration.server.ts')
  const opened = await openCredentials(KEY, integration)
  if (!opened) throw new Error('credentials do not open')
  return opened
}
