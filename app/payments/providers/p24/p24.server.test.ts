// The Przelewy24 module against its dev peer (workers/dev-peers/src/p24.ts) through DEV_PEERS: the
// shared provider contract, the credentials check, BLIK level 0, verify on confirmation (once,
// whatever the number of confirmations), notifications signed by another account, refund repeats.
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { devPeers } from '#tests/peers/dev-peers.ts'
import { canRefund } from '../../provider.server.ts'
import { contractTransaction, describeProviderContract, startInput, type SentNotification } from '../contract.ts'
import type { ProviderContext } from '../provider-module.server.ts'
import { p24Sign } from './client.server.ts'
import { p24Module } from './module.server.ts'

const peers = devPeers(env.DEV_PEERS!)
const PEER = 'http://dev-peers.internal'
// Must match P24_DEV / P24_STRANGER in workers/dev-peers/src/p24.ts (and docs/payments/p24.md).
const DEV = { merchantId: '100001', posId: '100001', apiKey: 'coursefront_dev_p24_reports_key_01', crc: 'cfdevp24crc00001', sandbox: 'yes' }
const STRANGER = { merchantId: '100002', posId: '100002', apiKey: 'coursefront_dev_p24_reports_key_02', crc: 'cfdevp24crc00002', sandbox: 'yes' }

function context(testPaymentsAllowed = true): ProviderContext {
  return { env: env as unknown as ProviderContext['env'], fetch: peers.fetch, apiBase: () => `${PEER}/p24`, testPaymentsAllowed }
}
const adapter = (credentials: Record<string, string> = DEV) => p24Module.adapter(context(), credentials)

async function control<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const res = await peers.fetch(`${PEER}/_peer/p24${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: init.json === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })
  if (!res.ok) throw new Error(`p24 peer ${path}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}
const tokenOf = (redirectUrl: string) => decodeURIComponent(new URL(redirectUrl).pathname.split('/').at(-1)!)
const pay = (redirectUrl: string, outcome: 'paid' | 'declined', blikCode?: string) => control<{ result: string }>(`/pay/${encodeURIComponent(tokenOf(redirectUrl))}`, { json: { outcome, blikCode } })
const notifications = async (sessionId: string) =>
  (await control<{ notifications: SentNotification[] }>(`/notifications?sessionId=${encodeURIComponent(sessionId)}`)).notifications.map(({ url, headers, body }) => ({ url, headers, body }))
const reset = () => control('/reset', { json: {} })

describeProviderContract({
  provider: 'p24',
  currency: 'PLN',
  adapter: () => adapter(),
  // Another merchant at P24 (known to the peer) with a CRC that is not its own: it finds none of
  // DEV's transactions (404) and cannot sign a registration.
  strangerAdapter: () => adapter({ ...STRANGER, crc: DEV.crc }),
  reset: async () => void (await reset()),
  pay: async (redirectUrl, _ref, outcome) => void (await pay(redirectUrl, outcome)),
  notifications,
  down: async (on) => void (await control('/fault', { json: { down: on } })),
})

describe('Przelewy24 module and adapter', () => {
  beforeEach(async () => {
    await reset()
  })

  it('connects: checks the POS id and API key with testAccess; sandbox refused where test money is not allowed; P24 down is a 502', async () => {
    const input = { fields: { ...DEV, posId: '' }, currency: 'PLN', integrationId: 'int-p24', notifyUrl: 'https://kurs.example.test/payments/p24/int-p24/notify', origin: 'https://kurs.example.test' }
    const connected = await p24Module.connect(context(), input)
    expect(connected).toEqual({ ok: true, credentials: { ...DEV, posId: DEV.merchantId }, publicRef: '100001 · sandbox' })
    expect(p24Module.usesTestCredentials(DEV)).toBe(true)
    expect(p24Module.usesTestCredentials({ ...DEV, sandbox: 'no' })).toBe(false)

    expect(await p24Module.connect(context(), { ...input, fields: { ...DEV, apiKey: 'wrong' } })).toEqual({ ok: false, errors: { apiKey: { key: 'payments.p24.error.refused' } }, status: 422 })
    expect(await p24Module.connect(context(false), input)).toEqual({ ok: false, errors: { sandbox: { key: 'payments.p24.error.sandbox_not_allowed' } }, status: 422 })
    const malformed = await p24Module.connect(context(), { ...input, fields: { ...DEV, merchantId: 'abc', crc: '' } })
    expect(malformed).toMatchObject({ ok: false, status: 422, errors: { merchantId: { key: 'payments.p24.error.merchant_id' }, crc: { key: 'payments.p24.error.crc' } } })

    await control('/fault', { json: { down: true } })
    try {
      expect(await p24Module.connect(context(), input)).toEqual({ ok: false, errors: { form: { key: 'payments.p24.error.unreachable' } }, status: 502 })
    } finally {
      await control('/fault', { json: { down: false } })
    }
  })

  it('sends the buyer to the hosted page on pay.{PLATFORM_HOST} at the school’s port, with our transaction id as the reference', async () => {
    const tx = contractTransaction('PLN')
    const started = await adapter().startPayment(startInput(tx, { origin: 'http://kurs.localhost:8787' }))
    if (!started.ok) throw new Error(JSON.stringify(started))
    expect(started.providerRef).toBe(tx.id)
    expect(started.redirectUrl).toMatch(new RegExp(`^http://pay\\.${env.PLATFORM_HOST}:8787/p24/hosted/trnRequest/[\\w-]+$`))
  })

  it('BLIK level 0: a refused code is the buyer’s to fix; 777123 waits for the bank app, whose approval completes the payment', async () => {
    const a = adapter()
    expect(await a.startPayment(startInput(contractTransaction('PLN'), { blikCode: '12345' }))).toEqual({ ok: false, reason: 'refused', detail: 'blik_code_format' })
    expect(await a.startPayment(startInput(contractTransaction('PLN'), { blikCode: '777000' }))).toEqual({ ok: false, reason: 'refused', detail: 'blik_code_refused' })

    const tx = contractTransaction('PLN', 4_900)
    const started = await a.startPayment(startInput(tx, { blikCode: '777123' }))
    if (!started.ok) throw new Error(JSON.stringify(started))
    expect(await a.confirmPayment(tx.id, null)).toMatchObject({ ok: true, status: null, providerStatus: 'no_payment' })
    expect(await pay(started.redirectUrl, 'paid')).toMatchObject({ result: 'paid' })
    expect(await a.confirmPayment(tx.id, null)).toMatchObject({ ok: true, status: 'completed', providerStatus: 'payment_made', amount: 4_900, currency: 'PLN' })
  })

  it('verifies once: repeated confirmations and 20 replays of the notification all agree on one event', async () => {
    const a = adapter()
    const tx = contractTransaction('PLN')
    const started = await a.startPayment(startInput(tx))
    if (!started.ok) throw new Error(JSON.stringify(started))
    await pay(started.redirectUrl, 'paid')
    const [sent] = await notifications(tx.id)
    const keys = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const verified = await a.readNotification(new Request(sent!.url, { method: 'POST', headers: sent!.headers, body: sent!.body }), sent!.body)
      if (!verified || verified === 'ignored') throw new Error('notification not verified')
      keys.add(verified.event.eventKey)
    }
    expect(keys.size).toBe(1)
    const states = await Promise.all([a.confirmPayment(tx.id, null), a.confirmPayment(tx.id, null)])
    for (const s of states) expect(s).toMatchObject({ ok: true, status: 'completed', amount: tx.totalAmount, currency: 'PLN' })
    expect(await a.confirmPayment(tx.id, null)).toMatchObject({ ok: true, status: 'completed' })
  })

  it('refuses a notification re-signed with another merchant’s CRC or naming another POS', async () => {
    const a = adapter()
    const tx = contractTransaction('PLN')
    const started = await a.startPayment(startInput(tx))
    if (!started.ok) throw new Error(JSON.stringify(started))
    await pay(started.redirectUrl, 'paid')
    const [sent] = await notifications(tx.id)
    const { sign: _sign, ...fields } = JSON.parse(sent!.body) as Record<string, string | number>
    const resigned = JSON.stringify({ ...fields, sign: await p24Sign({ ...fields, crc: STRANGER.crc }) })
    expect(await a.readNotification(new Request(sent!.url, { method: 'POST', headers: sent!.headers, body: resigned }), resigned)).toBeNull()
    const otherPos = { ...fields, posId: Number(STRANGER.posId), merchantId: Number(STRANGER.merchantId) }
    const theirs = JSON.stringify({ ...otherPos, sign: await p24Sign({ ...otherPos, crc: STRANGER.crc }) })
    expect(await a.readNotification(new Request(sent!.url, { method: 'POST', headers: sent!.headers, body: theirs }), theirs)).toBeNull()
    expect(await adapter(STRANGER).readNotification(new Request(sent!.url, { method: 'POST', headers: sent!.headers, body: sent!.body }), sent!.body)).toBeNull()
  })

  it('a refund repeated with the same key answers the same refund; an unpaid sale cannot be refunded', async () => {
    const a = adapter()
    if (!canRefund(a)) throw new Error('p24 refunds')
    const unpaid = contractTransaction('PLN')
    expect((await a.startPayment(startInput(unpaid))).ok).toBe(true)
    const refundOf = (id: string, amount: number) => ({ providerRef: id, amount, currency: 'PLN', idempotencyKey: `refund-${id}`, description: 'Zwrot za kurs' })
    expect(await a.refund(refundOf(unpaid.id, unpaid.totalAmount))).toEqual({ ok: false, reason: 'refused' })

    const tx = contractTransaction('PLN')
    const started = await a.startPayment(startInput(tx))
    if (!started.ok) throw new Error(JSON.stringify(started))
    await pay(started.redirectUrl, 'paid')
    await a.confirmPayment(tx.id, null)
    const first = await a.refund(refundOf(tx.id, tx.totalAmount))
    expect(first).toEqual({ ok: true, refundRef: `refund-${tx.id}`, providerStatus: 'created' })
    expect(await a.refund(refundOf(tx.id, tx.totalAmount))).toEqual({ ok: true, refundRef: `refund-${tx.id}`, providerStatus: 'completed' })
    expect(await a.refund({ ...refundOf(tx.id, tx.totalAmount), currency: 'EUR' })).toEqual({ ok: false, reason: 'refused' })
  })
})
