// Issue 25 acceptance at HTTP level, for the providers that notify (Przelewy24, Tpay, PayPal): a
// payment started through the provider's module, paid on its peer, and the peer's own
// notification delivered to the app's notify route — replayed 20 times at once, out of order,
// with the body altered, and for a transaction whose amount is not what the provider charged.
// One grant or none, as ADR 019/023 say: the notification only triggers, the provider's API decides.
import { env, exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { setProviderRef } from '#app/models/transaction.server.ts'
import { providerModule } from '#app/payments/providers/index.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { connectProvider, pendingCourseOrder } from './provider-orders.ts'
import { createTestSchool, db, type TestSchool, d1For } from '#tests/factories.ts'

const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'

type Sent = { url: string; headers: Record<string, string>; body: string }

/** What each provider's peer needs from a test: its development account and its control routes. */
const PROVIDERS: Array<{ provider: PaymentProvider; fields: Record<string, string>; pay(ref: string, redirectUrl: string): Promise<void>; notifications(ref: string): Promise<Sent[]> }> = [
  {
    provider: 'p24',
    // P24_DEV in workers/dev-peers/src/p24.ts
    fields: { merchantId: '100001', posId: '100001', apiKey: 'coursefront_dev_p24_reports_key_01', crc: 'cfdevp24crc00001', sandbox: 'yes' },
    pay: (_ref, redirectUrl) => control('p24', `/pay/${redirectUrl.split('/').pop()}`, { outcome: 'paid' }),
    notifications: async (ref) => (await read<{ notifications: Sent[] }>('p24', `/notifications?sessionId=${ref}`)).notifications,
  },
  {
    provider: 'tpay',
    // TPAY_DEV in workers/dev-peers/src/tpay.ts
    fields: { clientId: '1010-c0a5e7d1f2b34a59', clientSecret: 'coursefront_dev_tpay_secret_0000000000000000000000', merchantId: '1010', sandbox: 'yes' },
    pay: (ref) => control('tpay', `/pay/${ref}`, { outcome: 'paid' }),
    notifications: async (ref) => (await read<{ notifications: Sent[] }>('tpay', `/notifications?transactionId=${ref}`)).notifications,
  },
  {
    provider: 'paypal',
    // PAYPAL_DEV in workers/dev-peers/src/paypal.ts
    fields: { clientId: 'AcoursefrontDevPaypalClient0000000000000001', clientSecret: 'EcoursefrontDevPaypalSecret00000000000000001', sandbox: 'yes' },
    pay: (ref) => control('paypal', `/pay/${ref}`, { outcome: 'paid' }),
    notifications: async (ref) => (await read<{ notifications: Sent[] }>('paypal', `/notifications?orderId=${ref}`)).notifications,
  },
]

async function control(provider: string, path: string, json: unknown) {
  const res = await peers.fetch(`${PEER}/_peer/${provider}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) })
  expect(res.status, `${provider} ${path}: ${await res.clone().text()}`).toBe(200)
}
async function read<T>(provider: string, path: string): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/${provider}${path}`)
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

const connect = connectProvider

/** A pending paid course order started at the provider, as checkout does. */
async function startedOrder(school: TestSchool, provider: PaymentProvider, integrationId: string, credentials: Record<string, string>, totalAmount = 12_300) {
  const { student, product, tx } = await pendingCourseOrder(school, 'Kurs BLIK', totalAmount)
  const adapter = providerModule(provider)!.adapter(providerContext(env as unknown as Env, provider), { ...credentials, __integrationId: integrationId })
  const started = await adapter.startPayment({
    transaction: tx,
    buyer: { name: 'Zofia', email: student.email },
    origin: `http://${school.host}`,
    continueUrl: `http://${school.host}/transaction/${tx.hash}/pending`,
    notifyUrl: `http://${school.host}/payments/${provider}/${integrationId}/notify`,
    customerIp: '203.0.113.9',
    description: product.title,
    mode: 'payment',
    locale: 'pl',
  })
  if (!started.ok) throw new Error(`${provider} start: ${JSON.stringify(started)}`)
  await setProviderRef(db(), school.tenantId, tx.id, { provider, integrationId, providerRef: started.providerRef })
  return { tx, ref: started.providerRef, redirectUrl: started.redirectUrl }
}

/** The provider's server calling: no cookies, no Origin, no Fetch Metadata. */
function deliver(host: string, n: Sent, body = n.body) {
  const path = new URL(n.url).pathname
  const headers = Object.fromEntries(Object.entries(n.headers).filter(([k]) => !/^(host|content-length)$/i.test(k)))
  return (exports as unknown as { default: Fetcher }).default.fetch(`http://${host}${path}`, { method: 'POST', body, headers })
}

async function counts(tenantId: string, txId: string) {
  const n = async (sql: string) => (await d1For(sql).prepare(sql).bind(tenantId, txId).first<{ n: number }>())!.n
  return {
    grants: await n("SELECT count(*) AS n FROM product_access pa JOIN transactions t ON t.product_id = pa.product_id AND t.user_id = pa.user_id WHERE pa.tenant_id = ? AND t.id = ? AND pa.source = 'purchase'"),
    paidEvents: await n("SELECT count(*) AS n FROM app_events WHERE tenant_id = ? AND subject_id = ? AND type = 'student.paid'"),
    status: (await env.DB_SHARD_0.prepare('SELECT status FROM transactions WHERE tenant_id = ? AND id = ?').bind(tenantId, txId).first<{ status: string }>())!.status,
  }
}

/** Turn the first amount in a body into another one (a forger's edit). */
const alterAmount = (body: string) => body.replace(/("?(?:amount|value|originAmount)"?\s*[:=]\s*"?)(\d+)/i, (_m, p: string, v: string) => `${p}${Number(v) + 100}`)

describe.each(PROVIDERS)('$provider notifications through the app', ({ provider, fields, pay, notifications }) => {
  it('a paid order: its notification 20 times at once gives one grant; the altered body is refused and changes nothing', async () => {
    const school = await createTestSchool()
    const integration = await connect(school, provider, fields)
    const { tx, ref, redirectUrl } = await startedOrder(school, provider, integration.id, await sealedCredentials(integration))
    await pay(ref, redirectUrl)
    const sent = await notifications(ref)
    expect(sent.length, 'the peer sent a notification').toBeGreaterThan(0)
    const last = sent.at(-1)!

    const altered = alterAmount(last.body)
    expect(altered).not.toBe(last.body)
    expect((await deliver(school.host, last, altered)).status).toBeGreaterThanOrEqual(400)
    expect(await counts(school.tenantId, tx.id)).toEqual({ grants: 0, paidEvents: 0, status: 'pending' })

    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(school.host, last)))
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
    expect(await counts(school.tenantId, tx.id)).toEqual({ grants: 1, paidEvents: 1, status: 'completed' })

    // Every earlier notification, delivered late and in reverse: nothing more.
    for (const n of [...sent].reverse()) expect((await deliver(school.host, n)).status).toBeLessThan(500)
    expect(await counts(school.tenantId, tx.id)).toEqual({ grants: 1, paidEvents: 1, status: 'completed' })
  })

  it('a transaction whose amount is not what the provider charged is never granted', async () => {
    const school = await createTestSchool()
    const integration = await connect(school, provider, fields)
    const { tx, ref, redirectUrl } = await startedOrder(school, provider, integration.id, await sealedCredentials(integration))
    await pay(ref, redirectUrl)
    // The order in our books now says more than the buyer paid at the provider.
    await env.DB_SHARD_0.prepare('UPDATE transactions SET total_amount = total_amount + 100 WHERE tenant_id = ? AND id = ?').bind(school.tenantId, tx.id).run()
    const sent = (await notifications(ref)).at(-1)!
    expect((await deliver(school.host, sent)).status).toBe(200)
    const after = await counts(school.tenantId, tx.id)
    expect(after.grants).toBe(0)
    expect(after.paidEvents).toBe(0)
    expect(after.status).toBe('mismatch')
  })

  it('another school cannot use this integration’s notify URL', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const integration = await connect(school, provider, fields)
    const { ref, redirectUrl } = await startedOrder(school, provider, integration.id, await sealedCredentials(integration))
    await pay(ref, redirectUrl)
    const sent = (await notifications(ref)).at(-1)!
    expect((await deliver(other.host, sent)).status).toBe(404)
  })
})

/** The credentials as the registry opens them (what connect sealed). */
async function sealedCredentials(integration: { tenantId: string; provider: PaymentProvider; credentials: string }) {
  const { openCredentials } = await import('#app/models/payment-integration.server.ts')
  const opened = await openCredentials(KEY, integration)
  if (!opened) throw new Error('credentials do not open')
  return opened
}
