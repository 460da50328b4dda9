// Issue 19 §8: development lets a webhook point at local and private addresses, but the delivery
// log must not become a blind port scanner: for such targets a row keeps only the outcome class
// (delivered / HTTP {n}xx / timed out / connection failed) — no status code, no duration, never the
// runtime's error text or the answer's body. Public targets keep their code; the dev receiver
// (*.dev-peers.internal, behind the DEV_PEERS binding) keeps its full log.
import { describe, expect, it } from 'vitest'
import { createDeliveriesForEvent, getWebhookDelivery } from '#app/models/webhook.server.ts'
import { db } from '#tests/factories.ts'
import { DELIVERIES_QUEUE_NAME } from './env.ts'
import { createWebhooksWorker } from './index.ts'
import { batchOf, paidEvent, planReceiver, run, schoolWithWebhook } from './test-support.ts'

const deliveries = (msgs: { body: unknown; attempts?: number }[]) => batchOf(DELIVERIES_QUEUE_NAME, msgs)

async function attemptAgainst(url: string, answer: (request: Request) => Promise<Response>, timeoutMs?: number) {
  const setup = await schoolWithWebhook('student.paid', url)
  const eventId = await paidEvent(setup.school.tenantId)
  const [row] = await createDeliveriesForEvent(db(), setup.school.tenantId, { id: eventId, type: 'student.paid' })
  const seen: string[] = []
  const worker = createWebhooksWorker({
    timeoutMs,
    fetch: (request) => {
      seen.push(request.url)
      return answer(request)
    },
  })
  const result = await run(worker, deliveries([{ body: { deliveryId: row.id, tenantId: row.tenantId } }]))
  return { result, seen, row: await getWebhookDelivery(db(), row.tenantId, row.id) }
}

const SECRET_BODY = 'redis_version:7.2.4 role:master connected_clients:3'
const RAW_ERROR = 'connect ECONNREFUSED 127.0.0.1:6379 (internal detail)'
const answerWith = (status: number) => async () => new Response(status === 204 || status === 304 ? null : SECRET_BODY, { status })
const refuse = async () => {
  throw new TypeError(RAW_ERROR)
}
/** Never answers: fails when the worker's own timeout aborts the request. */
const hang = (request: Request) =>
  new Promise<Response>((_, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason))
  })

const PRIVATE_TARGETS = ['http://127.0.0.1:6379/', 'http://localhost:8080/admin', 'http://10.0.0.5/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:22/', 'http://intranet/', 'http://db.internal:5432/']

describe('delivery log for private and loopback targets (development)', () => {
  it.each(PRIVATE_TARGETS)('%s: an error answer is logged as its class only, without code, duration or body', async (url) => {
    const { row, seen, result } = await attemptAgainst(url, answerWith(503))
    expect(seen).toHaveLength(1)
    expect(result.retryMessages).toHaveLength(1)
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastDurationMs: 0, lastError: 'HTTP 5xx' })
  })

  it('a 4xx and a 3xx keep only their class; a 2xx is delivered without its code', async () => {
    expect((await attemptAgainst('http://127.0.0.1:9200/', answerWith(404))).row).toMatchObject({ lastStatusCode: null, lastError: 'HTTP 4xx' })
    expect((await attemptAgainst('http://127.0.0.1:9201/', answerWith(302))).row).toMatchObject({ lastStatusCode: null, lastError: 'HTTP 3xx' })
    expect((await attemptAgainst('http://127.0.0.1:9202/', answerWith(204))).row).toMatchObject({ status: 'delivered', lastStatusCode: null, lastDurationMs: 0, lastError: null })
  })

  it('a refused connection says "Connection failed", never the runtime text', async () => {
    const { row } = await attemptAgainst('http://127.0.0.1:6380/', refuse)
    expect(row).toMatchObject({ status: 'pending', lastStatusCode: null, lastDurationMs: 0, lastError: 'Connection failed' })
    expect(JSON.stringify(row)).not.toContain('ECONNREFUSED')
  })

  it('a target that never answers says "Timed out", without the duration', async () => {
    const { row } = await attemptAgainst('http://192.168.1.20:8443/', hang, 50)
    expect(row).toMatchObject({ status: 'pending', lastStatusCode: null, lastDurationMs: 0, lastError: 'Timed out' })
  })
})

describe('delivery log for public targets', () => {
  it('keeps the status code and says "HTTP {code}", never the body', async () => {
    const { row } = await attemptAgainst('https://hooks.example.com/coursefront', answerWith(503))
    expect(row).toMatchObject({ status: 'pending', lastStatusCode: 503, lastError: 'HTTP 503' })
    expect(JSON.stringify(row)).not.toContain('redis_version')
  })

  it('a failed connection is "Connection failed" there too; a timeout names the limit', async () => {
    expect((await attemptAgainst('https://hooks.example.com/refused', refuse)).row).toMatchObject({ lastStatusCode: null, lastError: 'Connection failed' })
    expect((await attemptAgainst('https://hooks.example.com/slow', hang, 50)).row).toMatchObject({ lastStatusCode: null, lastError: 'Timed out after 0.05 s' })
  })

  it('the dev receiver (*.dev-peers.internal) keeps its code: it is the creator\'s stand-in, not the network', async () => {
    const setup = await schoolWithWebhook()
    await planReceiver(setup.inbox, { fail: 'always', status: 502 })
    const eventId = await paidEvent(setup.school.tenantId)
    const [row] = await createDeliveriesForEvent(db(), setup.school.tenantId, { id: eventId, type: 'student.paid' })
    await run(createWebhooksWorker(), deliveries([{ body: { deliveryId: row.id, tenantId: row.tenantId } }]))
    expect(await getWebhookDelivery(db(), row.tenantId, row.id)).toMatchObject({ lastStatusCode: 502, lastError: 'HTTP 502' })
  })
})
