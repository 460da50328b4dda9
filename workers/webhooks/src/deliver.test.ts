import { describe, expect, it } from 'vitest'
import { createDeliveriesForEvent, createWebhook, getWebhookDelivery, listWebhookDeliveries, redeliverWebhookDelivery, scheduleTestDelivery, setWebhookEnabled } from '#app/models/webhook.server.ts'
import { verifyWebhookSignature } from '#app/webhooks/signature.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { backoffSeconds, defaultFetch, USER_AGENT } from './deliver.ts'
import { DEAD_LETTER_QUEUE_NAME, DELIVERIES_QUEUE_NAME, EVENTS_QUEUE_NAME } from './env.ts'
import defaultWorker, { createWebhooksWorker } from './index.ts'
import { batchOf, paidEvent, planReceiver, received, recordingQueue, registeredEvent, run, schoolWithWebhook, testEnv } from './test-support.ts'

const worker = defaultWorker
const deliveries = (msgs: { body: unknown; attempts?: number }[]) => batchOf(DELIVERIES_QUEUE_NAME, msgs)

/** A pending delivery row for a fresh paid event, and its queue job. */
async function pendingDelivery(setup: Awaited<ReturnType<typeof schoolWithWebhook>>) {
  const eventId = await paidEvent(setup.school.tenantId)
  const [row] = await createDeliveriesForEvent(db(), setup.school.tenantId, { id: eventId, type: 'student.paid' })
  return { eventId, row, job: { deliveryId: row.id, tenantId: row.tenantId } }
}

describe('delivery consumer', () => {
  it('POSTs the event signed, with the documented headers and body, and marks it delivered', async () => {
    const setup = await schoolWithWebhook()
    const { eventId, job } = await pendingDelivery(setup)

    const result = await run(worker, deliveries([{ body: job }]))

    expect(result.explicitAcks).toEqual(['msg-0'])
    expect(result.retryMessages).toEqual([])
    const [req] = await received(setup.inbox)
    expect(req.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'coursefront-event-id': eventId,
      'idempotency-key': `${eventId}:${setup.webhook.id}`,
      'coursefront-delivery-attempt': '1',
    })
    const body = JSON.parse(req.body)
    expect(body).toMatchObject({ id: eventId, type: 'student.paid', data: { totalAmount: 12300, currency: 'PLN', buyer: { email: 'ada@example.com' } } })
    expect(Number.isInteger(body.created)).toBe(true)
    // The documented scheme: t={unix},v1=hex HMAC-SHA256(secret, "{t}.{body}").
    const signature = req.headers['coursefront-signature']
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(await verifyWebhookSignature(setup.secret, signature, req.body)).toBe(true)
    expect(await verifyWebhookSignature(setup.secret, signature, req.body.replace('12300', '12301'))).toBe(false)
    expect(await verifyWebhookSignature('whsec_other', signature, req.body)).toBe(false)
    const t = Number(/t=(\d+)/.exec(signature)![1])
    expect(await verifyWebhookSignature(setup.secret, signature, req.body, t + 301)).toBe(false)
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null })
  })

  it('a target answering 500 three times then 200: retried with backoff, delivered once, 4 attempts logged', async () => {
    const setup = await schoolWithWebhook()
    const { job } = await pendingDelivery(setup)
    await planReceiver(setup.inbox, { fail: 3, status: 500 })

    const delays: (number | undefined)[] = []
    for (let attempts = 1; attempts <= 3; attempts++) {
      const result = await run(worker, deliveries([{ body: job, attempts }]))
      expect(result.explicitAcks).toEqual([])
      delays.push(result.retryMessages[0]?.delaySeconds)
      expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'pending', attempts, lastStatusCode: 500, lastError: 'HTTP 500' })
    }
    const last = await run(worker, deliveries([{ body: job, attempts: 4 }]))

    expect(delays).toEqual([60, 120, 240])
    expect(last.explicitAcks).toEqual(['msg-0'])
    const log = await received(setup.inbox)
    expect(log.map((r) => r.status)).toEqual([500, 500, 500, 200])
    expect(log.filter((r) => r.status === 200)).toHaveLength(1)
    expect(new Set(log.map((r) => r.headers['idempotency-key'])).size).toBe(1)
    expect(new Set(log.map((r) => r.body)).size).toBe(1)
    expect(log.map((r) => r.headers['coursefront-delivery-attempt'])).toEqual(['1', '2', '3', '4'])
    const row = await getWebhookDelivery(db(), job.tenantId, job.deliveryId)
    expect(row).toMatchObject({ status: 'delivered', attempts: 4, lastStatusCode: 200, lastError: null })
    expect(row?.deliveredAt).not.toBeNull()
    expect(row?.lastDurationMs).toBeGreaterThanOrEqual(0)
  })

  it('a target that always fails: retried until the dead letter queue, then marked dead; redeliver keeps the attempts', async () => {
    const setup = await schoolWithWebhook()
    const { job } = await pendingDelivery(setup)
    await planReceiver(setup.inbox, { fail: 'always', status: 503 })

    // First delivery + max_retries = 5 (wrangler.toml): every one asks the queue to retry.
    for (let attempts = 1; attempts <= 6; attempts++) {
      const result = await run(worker, deliveries([{ body: job, attempts }]))
      expect(result.retryMessages).toEqual([{ msgId: 'msg-0', delaySeconds: backoffSeconds(attempts) }])
    }
    // The queue then moves the message to the dead letter queue, which this worker consumes.
    const dead = await run(worker, batchOf(DEAD_LETTER_QUEUE_NAME, [{ body: job }]))

    expect(dead.explicitAcks).toEqual(['msg-0'])
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'dead', attempts: 6, lastStatusCode: 503, lastError: 'HTTP 503' })
    expect((await received(setup.inbox)).map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503])
    // A late copy of the message does not send a dead delivery again.
    await run(worker, deliveries([{ body: job, attempts: 2 }]))
    expect(await received(setup.inbox)).toHaveLength(6)

    // "Redeliver" puts it back, attempts kept; the receiver has recovered.
    await planReceiver(setup.inbox, { fail: 0 })
    const { queue, sent } = recordingQueue()
    expect(await redeliverWebhookDelivery(db(), queue, job.tenantId, setup.webhook.id, job.deliveryId)).toEqual({ ok: true, queued: true })
    expect(sent).toEqual([job])
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'pending', attempts: 6 })
    await run(worker, deliveries([{ body: sent[0] }]))
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'delivered', attempts: 7, lastStatusCode: 200 })
    // Delivered is not redeliverable.
    expect(await redeliverWebhookDelivery(db(), queue, job.tenantId, setup.webhook.id, job.deliveryId)).toEqual({ ok: false, reason: 'not_redeliverable' })
  })

  it('the same delivery message three times (one batch, then later): one POST', async () => {
    const setup = await schoolWithWebhook()
    const { job } = await pendingDelivery(setup)

    const first = await run(worker, deliveries([{ body: job }, { body: job }, { body: job }]))
    const later = await run(worker, deliveries([{ body: job, attempts: 2 }]))

    expect(first.explicitAcks).toEqual(['msg-0', 'msg-1', 'msg-2'])
    expect(later.explicitAcks).toEqual(['msg-0'])
    expect(await received(setup.inbox)).toHaveLength(1)
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  it('10 messages, message 5 throws and one is malformed: the others delivered once each, only message 5 retried', async () => {
    const setup = await schoolWithWebhook('student.registered')
    const events: string[] = []
    const bodies: unknown[] = []
    for (let i = 0; i < 10; i++) {
      if (i === 7) {
        bodies.push({ deliveryId: 42 })
        continue
      }
      const eventId = await registeredEvent(setup.school.tenantId)
      events.push(eventId)
      const [row] = await createDeliveriesForEvent(db(), setup.school.tenantId, { id: eventId, type: 'student.registered' })
      bodies.push({ deliveryId: row.id, tenantId: row.tenantId })
    }
    const fifthEvent = events[4]
    const base = defaultFetch(testEnv)
    // The consumer's outbound call blows up for message 5 only.
    const throwing = createWebhooksWorker({
      fetch: (request) => {
        if (request.headers.get('Coursefront-Event-Id') === fifthEvent) throw new Error('boom on message 5')
        return base(request)
      },
    })

    const result = await run(throwing, deliveries(bodies.map((body) => ({ body }))))

    expect(result.retryMessages.map((r: { msgId: string }) => r.msgId)).toEqual(['msg-4'])
    expect(result.explicitAcks).toEqual(['msg-0', 'msg-1', 'msg-2', 'msg-3', 'msg-5', 'msg-6', 'msg-7', 'msg-8', 'msg-9'])
    const afterFirst = await received(setup.inbox)
    expect(afterFirst).toHaveLength(8)
    expect(new Set(afterFirst.map((r) => r.headers['coursefront-event-id'])).size).toBe(8)
    expect(afterFirst.map((r) => r.headers['coursefront-event-id'])).not.toContain(fifthEvent)
    const fifth = bodies[4] as { deliveryId: string; tenantId: string }
    // The owner's log says what happened, not the runtime's text (issue 19 §8).
    expect((await getWebhookDelivery(db(), fifth.tenantId, fifth.deliveryId))?.lastError).toBe('Connection failed')

    // The queue redelivers the whole batch's retried part (message 5 only), and a stray copy of the rest.
    const again = await run(worker, deliveries([{ body: bodies[4], attempts: 2 }, { body: bodies[0], attempts: 2 }]))
    expect(again.explicitAcks).toEqual(['msg-0', 'msg-1'])
    const log = await received(setup.inbox)
    expect(log).toHaveLength(9)
    expect([...new Set(log.map((r) => r.headers['coursefront-event-id']))].sort()).toEqual([...events].sort())
    const { deliveries: rows } = await listWebhookDeliveries(db(), setup.school.tenantId, setup.webhook.id)
    expect(rows.map((r) => r.status)).toEqual(new Array(9).fill('delivered'))
  })

  it('a slow target times out: the attempt fails and is retried', async () => {
    const setup = await schoolWithWebhook()
    const { job } = await pendingDelivery(setup)
    await planReceiver(setup.inbox, { fail: 0, delayMs: 1_500 })
    const impatient = createWebhooksWorker({ timeoutMs: 200 })

    const result = await run(impatient, deliveries([{ body: job }]))

    expect(result.retryMessages).toEqual([{ msgId: 'msg-0', delaySeconds: 60 }])
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null, lastError: 'Timed out after 0.2 s' })
  })

  it('refuses loopback, metadata and plain-http targets in production mode, without a request', async () => {
    const production = { ...testEnv, ENVIRONMENT: 'production' }
    let calls = 0
    const counting = createWebhooksWorker({
      fetch: async () => {
        calls++
        return new Response(null, { status: 200 })
      },
    })
    for (const url of ['http://127.0.0.1/hook', 'http://169.254.169.254/latest/meta-data/', 'http://hooks.example.com/coursefront', 'https://127.0.0.1/hook', 'https://[::1]/hook', 'https://10.0.0.8/hook', 'https://metadata.google.internal/x', 'https://localhost/hook']) {
      const setup = await schoolWithWebhook('student.paid', url)
      const { job } = await pendingDelivery(setup)
      const result = await run(counting, deliveries([{ body: job }]), production)
      expect(result.explicitAcks, url).toEqual(['msg-0'])
      const row = await getWebhookDelivery(db(), job.tenantId, job.deliveryId)
      expect(row, url).toMatchObject({ status: 'failed', attempts: 0 })
      expect(row?.lastError, url).toMatch(/^Target refused/)
    }
    expect(calls).toBe(0)

    // A public https target is sent (to the counting fetch: nothing leaves the test).
    const ok = await schoolWithWebhook('student.paid', 'https://hooks.example.com/coursefront')
    const { job } = await pendingDelivery(ok)
    await run(counting, deliveries([{ body: job }]), production)
    expect(calls).toBe(1)
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'delivered' })
  })

  it('does not send for a disabled webhook, another school, or an unknown row', async () => {
    const setup = await schoolWithWebhook()
    const other = await createTestSchool()
    const { job } = await pendingDelivery(setup)

    const foreign = await run(worker, deliveries([{ body: { ...job, tenantId: other.tenantId } }, { body: { deliveryId: 'missing', tenantId: job.tenantId } }, { body: 'garbage' }]))
    expect(foreign.explicitAcks).toEqual(['msg-0', 'msg-1', 'msg-2'])
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'pending', attempts: 0 })

    await setWebhookEnabled(db(), job.tenantId, setup.webhook.id, false)
    await run(worker, deliveries([{ body: job }]))
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'failed', attempts: 0, lastError: 'Webhook disabled' })
    expect(await received(setup.inbox)).toHaveLength(0)
  })

  it('sends a test event with example data and a test: id', async () => {
    const setup = await schoolWithWebhook('student.registered')
    const { queue, sent } = recordingQueue()
    const { delivery, queued } = await scheduleTestDelivery(db(), queue, setup.school.tenantId, setup.webhook)
    expect(queued).toBe(true)

    await run(worker, deliveries([{ body: sent[0] }]))

    const [req] = await received(setup.inbox)
    expect(JSON.parse(req.body)).toMatchObject({ id: delivery.eventId, type: 'student.registered', data: { test: true, email: 'student@example.com' } })
    expect(delivery.eventId).toMatch(/^test:/)
    expect(await verifyWebhookSignature(setup.secret, req.headers['coursefront-signature'], req.body)).toBe(true)
    expect(await getWebhookDelivery(db(), setup.school.tenantId, delivery.id)).toMatchObject({ status: 'delivered', isTest: true })
  })

  it('goes through the real deliveries queue to this worker and the receiver', async () => {
    const setup = await schoolWithWebhook()
    const { delivery } = await scheduleTestDelivery(db(), testEnv.DELIVERIES_QUEUE, setup.school.tenantId, setup.webhook)

    // Miniflare delivers the batch to this worker's queue() (default export).
    await expect.poll(async () => (await getWebhookDelivery(db(), setup.school.tenantId, delivery.id))?.status, { timeout: 15_000, interval: 200 }).toBe('delivered')
    expect(await received(setup.inbox)).toHaveLength(1)
  })
})

describe('events consumer (fan-out)', () => {
  it("one delivery per enabled webhook of the school listening to the event; the same event three times queues it once", async () => {
    const setup = await schoolWithWebhook('student.paid')
    const tenantId = setup.school.tenantId
    // Another school listening to the same event type gets nothing of this school's event.
    const otherSchool = await schoolWithWebhook('student.paid')
    // Same school: a second paid webhook, a registered one and a disabled paid one.
    const another = await createWebhook(db(), testEnv.INTEGRATIONS_KEY!, tenantId, { event: 'student.paid', url: 'http://webhooks.dev-peers.internal/webhook-receiver/second' })
    await createWebhook(db(), testEnv.INTEGRATIONS_KEY!, tenantId, { event: 'student.registered', url: 'http://webhooks.dev-peers.internal/webhook-receiver/third' })
    const disabled = await createWebhook(db(), testEnv.INTEGRATIONS_KEY!, tenantId, { event: 'student.paid', url: 'http://webhooks.dev-peers.internal/webhook-receiver/off' })
    if (!another.ok || !disabled.ok) throw new Error('webhooks')
    await setWebhookEnabled(db(), tenantId, disabled.webhook.id, false)
    const eventId = await paidEvent(tenantId)
    const { queue, sent } = recordingQueue()
    const env = { ...testEnv, DELIVERIES_QUEUE: queue }
    const message = { body: { eventId, tenantId, type: 'student.paid' } }

    const first = await run(worker, batchOf(EVENTS_QUEUE_NAME, [message, message]), env)
    const later = await run(worker, batchOf(EVENTS_QUEUE_NAME, [{ ...message, attempts: 2 }]), env)

    expect(first.explicitAcks).toEqual(['msg-0', 'msg-1'])
    expect(later.explicitAcks).toEqual(['msg-0'])
    expect(sent).toHaveLength(2)
    const rows = await Promise.all(sent.map((j) => getWebhookDelivery(db(), j.tenantId, j.deliveryId)))
    expect(rows.map((r) => r?.webhookId).sort()).toEqual([setup.webhook.id, another.webhook.id].sort())
    expect(rows.every((r) => r?.eventId === eventId && r.status === 'pending')).toBe(true)
    expect((await listWebhookDeliveries(db(), otherSchool.school.tenantId, otherSchool.webhook.id)).total).toBe(0)

    // And those messages deliver: the first webhook's receiver gets the event once.
    await run(worker, deliveries(sent.map((body) => ({ body }))))
    await run(worker, deliveries(sent.map((body) => ({ body, attempts: 2 }))))
    const log = await received(setup.inbox)
    expect(log).toHaveLength(1)
    expect(log[0].headers['coursefront-event-id']).toBe(eventId)
  })

  it('acks malformed messages and events of another school; retries only the message whose queue send failed', async () => {
    const setup = await schoolWithWebhook('student.paid')
    const other = await createTestSchool()
    const eventId = await paidEvent(setup.school.tenantId)
    const otherEvent = await paidEvent(setup.school.tenantId)
    let failNext = true
    const sent: unknown[] = []
    const flaky = {
      async send() {},
      async sendBatch(messages: Iterable<MessageSendRequest<unknown>>) {
        if (failNext) {
          failNext = false
          throw new Error('Queue send failed')
        }
        for (const m of messages) sent.push(m.body)
      },
    } as unknown as Queue<never>
    const env = { ...testEnv, DELIVERIES_QUEUE: flaky }

    const result = await run(
      worker,
      batchOf(EVENTS_QUEUE_NAME, [
        { body: { eventId, tenantId: setup.school.tenantId, type: 'student.paid' } },
        { body: 'garbage' },
        { body: { eventId: otherEvent, tenantId: other.tenantId, type: 'student.paid' } },
        { body: { eventId, tenantId: setup.school.tenantId, type: 'student.unknown' } },
        { body: { eventId: otherEvent, tenantId: setup.school.tenantId, type: 'student.paid' } },
      ]),
      env,
    )

    expect(result.retryMessages).toEqual([{ msgId: 'msg-0', delaySeconds: 60 }])
    expect(result.explicitAcks).toEqual(['msg-1', 'msg-2', 'msg-3', 'msg-4'])
    expect(sent).toHaveLength(1)
    // The failed send left no row behind; its retry creates and queues it.
    expect((await listWebhookDeliveries(db(), setup.school.tenantId, setup.webhook.id)).total).toBe(1)
    const retried = await run(worker, batchOf(EVENTS_QUEUE_NAME, [{ body: { eventId, tenantId: setup.school.tenantId, type: 'student.paid' }, attempts: 2 }]), env)
    expect(retried.explicitAcks).toEqual(['msg-0'])
    expect(sent).toHaveLength(2)
    expect((await listWebhookDeliveries(db(), setup.school.tenantId, setup.webhook.id)).total).toBe(2)
  })
})
