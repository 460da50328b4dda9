import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ResendTransport } from '#app/mail/transport.server.ts'
import { enqueueEmail, getOutboxEmail } from '#app/models/email-outbox.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { createResendPeer } from '#tests/peers/resend-peer.ts'
import { backoffSeconds, MAX_DELIVERIES } from './consumer.ts'
import type { MailWorkerEnv } from './env.ts'
import defaultWorker, { createMailWorker } from './index.ts'

const testEnv: MailWorkerEnv = env
const peer = createResendPeer({ apiKey: 're_worker_key' })
// The production worker, except that Resend is the local peer.
const worker = createMailWorker({ transport: () => new ResendTransport({ apiKey: 're_worker_key', baseUrl: peer.baseUrl, fetch: peer.fetch }) })

let counter = 0
async function queuedEmail(tenantId: string, to = `student-${++counter}@example.com`) {
  // No queue: the test delivers the message itself.
  return enqueueEmail(db(), undefined, tenantId, { template: 'password_reset', to, subject: `Reset ${counter}`, text: 'Reset link: https://x.test/r', html: '<p>Reset</p>' })
}

function batchOf(messages: { body: unknown; attempts?: number }[]) {
  return createMessageBatch(
    'coursefront-mail',
    messages.map((m, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  )
}

/** Runs the handler and reports acks/retries. The pool's fake batch records retries but not
 *  their options, so the requested delays are read from spies. */
async function deliver(handler: Pick<typeof worker, 'queue'>, batch: MessageBatch<unknown>) {
  const retrySpies = new Map(batch.messages.map((m) => [m.id, vi.spyOn(m, 'retry')]))
  const retryAllSpy = vi.spyOn(batch, 'retryAll')
  const ctx = createExecutionContext()
  await handler.queue(batch, testEnv)
  const result = await getQueueResult(batch, ctx)
  return {
    ...result,
    retryMessages: result.retryMessages.map((r: { msgId: string }) => ({ msgId: r.msgId, delaySeconds: retrySpies.get(r.msgId)?.mock.calls[0]?.[0]?.delaySeconds })),
    retryBatch: { ...result.retryBatch, delaySeconds: retryAllSpy.mock.calls[0]?.[0]?.delaySeconds },
  }
}

const row = (tenantId: string, id: string) => getOutboxEmail(db(), tenantId, id)

beforeEach(() => peer.reset())

describe('mail queue consumer', () => {
  it('sends the row through Resend and marks it sent', async () => {
    const school = await createTestSchool()
    const id = await queuedEmail(school.tenantId, 'ada@example.com')

    const result = await deliver(worker, batchOf([{ body: { outboxId: id, tenantId: school.tenantId } }]))

    expect(result.explicitAcks).toEqual(['msg-0'])
    expect(result.retryMessages).toEqual([])
    const [email] = peer.accepted
    expect(email).toMatchObject({ from: testEnv.MAIL_FROM, to: ['ada@example.com'], idempotencyKey: id, html: '<p>Reset</p>', text: 'Reset link: https://x.test/r' })
    expect(await row(school.tenantId, id)).toMatchObject({ status: 'sent', providerMessageId: email.id, attempts: 0, lastError: null })
  })

  it('acks a redelivered message of a sent row without sending again', async () => {
    const school = await createTestSchool()
    const id = await queuedEmail(school.tenantId)
    await deliver(worker, batchOf([{ body: { outboxId: id, tenantId: school.tenantId } }]))
    const sentAt = (await row(school.tenantId, id))?.sentAt

    const again = await deliver(worker, batchOf([{ body: { outboxId: id, tenantId: school.tenantId }, attempts: 2 }]))

    expect(again.explicitAcks).toEqual(['msg-0'])
    expect(peer.requests).toHaveLength(1)
    expect((await row(school.tenantId, id))?.sentAt).toBe(sentAt)
  })

  it('retries only the message that hit a retryable error and acks the rest of the batch', async () => {
    const school = await createTestSchool()
    const ids = [await queuedEmail(school.tenantId), await queuedEmail(school.tenantId), await queuedEmail(school.tenantId)]
    peer.failNext(1, 500)

    const result = await deliver(worker, batchOf(ids.map((outboxId) => ({ body: { outboxId, tenantId: school.tenantId } }))))

    expect(result.retryMessages).toEqual([{ msgId: 'msg-0', delaySeconds: 30 }])
    expect(result.explicitAcks.sort()).toEqual(['msg-1', 'msg-2'])
    expect(result.ackAll).toBe(false)
    expect(await row(school.tenantId, ids[0])).toMatchObject({ status: 'queued', attempts: 1 })
    expect((await row(school.tenantId, ids[0]))?.lastError).toContain('500')
    expect(await row(school.tenantId, ids[1])).toMatchObject({ status: 'sent' })
    expect(await row(school.tenantId, ids[2])).toMatchObject({ status: 'sent' })

    // The retry goes through and Resend sees the same idempotency key.
    const retried = await deliver(worker, batchOf([{ body: { outboxId: ids[0], tenantId: school.tenantId }, attempts: 2 }]))
    expect(retried.explicitAcks).toEqual(['msg-0'])
    expect(await row(school.tenantId, ids[0])).toMatchObject({ status: 'sent', attempts: 1, lastError: null })
    expect(peer.accepted.map((e) => e.idempotencyKey).sort()).toEqual([...ids].sort())
  })

  it("waits as long as a 429's Retry-After asks", async () => {
    const school = await createTestSchool()
    const id = await queuedEmail(school.tenantId)
    peer.failNext(1, 429, { retryAfter: 120 })

    const result = await deliver(worker, batchOf([{ body: { outboxId: id, tenantId: school.tenantId } }]))

    expect(result.retryMessages).toEqual([{ msgId: 'msg-0', delaySeconds: 120 }])
    expect(await row(school.tenantId, id)).toMatchObject({ status: 'queued', attempts: 1 })
  })

  it('marks a permanent failure as failed and acks it', async () => {
    const school = await createTestSchool()
    const id = await queuedEmail(school.tenantId, 'not an address')

    const result = await deliver(worker, batchOf([{ body: { outboxId: id, tenantId: school.tenantId } }]))

    expect(result.explicitAcks).toEqual(['msg-0'])
    expect(result.retryMessages).toEqual([])
    const failed = await row(school.tenantId, id)
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, sentAt: null })
    expect(failed?.lastError).toContain('422')
  })

  it('gives up on the last delivery the queue allows, even for a retryable error', async () => {
    const school = await createTestSchool()
    const id = await queuedEmail(school.tenantId)
    peer.failNext(1, 503)

    const result = await deliver(worker, batchOf([{ body: { outboxId: id, tenantId: school.tenantId }, attempts: MAX_DELIVERIES }]))

    expect(result.explicitAcks).toEqual(['msg-0'])
    expect(await row(school.tenantId, id)).toMatchObject({ status: 'failed', attempts: 1 })
  })

  it("does not find a row under another school's tenant id", async () => {
    const owner = await createTestSchool()
    const other = await createTestSchool()
    const id = await queuedEmail(owner.tenantId)

    const result = await deliver(worker, batchOf([{ body: { outboxId: id, tenantId: other.tenantId } }]))

    expect(result.explicitAcks).toEqual(['msg-0'])
    expect(peer.requests).toHaveLength(0)
    expect(await row(owner.tenantId, id)).toMatchObject({ status: 'queued', attempts: 0 })
  })

  it('acks malformed messages and unknown rows', async () => {
    const school = await createTestSchool()
    const result = await deliver(worker, batchOf([{ body: 'garbage' }, { body: { outboxId: 42 } }, { body: { outboxId: 'missing', tenantId: school.tenantId } }]))
    expect(result.explicitAcks.sort()).toEqual(['msg-0', 'msg-1', 'msg-2'])
    expect(peer.requests).toHaveLength(0)
  })

  it('keeps the whole batch when the transport is misconfigured', async () => {
    const school = await createTestSchool()
    const id = await queuedEmail(school.tenantId)
    const misconfigured = createMailWorker({ transport: () => { throw new Error('MAIL_TRANSPORT is "resend" but the RESEND_API_KEY secret is not set') } })

    const result = await deliver(misconfigured, batchOf([{ body: { outboxId: id, tenantId: school.tenantId } }]))

    expect(result.retryBatch).toMatchObject({ retry: true, delaySeconds: 300 })
    expect(await row(school.tenantId, id)).toMatchObject({ status: 'queued', attempts: 0 })
  })

  it('uses the configured outbox transport by default (development)', async () => {
    const school = await createTestSchool()
    const id = await queuedEmail(school.tenantId)

    const result = await deliver(defaultWorker, batchOf([{ body: { outboxId: id, tenantId: school.tenantId } }]))

    expect(result.explicitAcks).toEqual(['msg-0'])
    expect(await row(school.tenantId, id)).toMatchObject({ status: 'sent', providerMessageId: null })
  })
})

describe('backoffSeconds', () => {
  it('doubles from 30 s, caps, and honours a longer Retry-After', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffSeconds(a))).toEqual([30, 60, 120, 240, 480])
    expect(backoffSeconds(20)).toBe(900)
    expect(backoffSeconds(1, 600)).toBe(600)
    expect(backoffSeconds(3, 5)).toBe(120)
    expect(backoffSeconds(1, 10 ** 9)).toBe(43_200)
  })
})
