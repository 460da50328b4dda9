import { describe, expect, it } from 'vitest'
import { claimDeliveryAttempt, createDeliveriesForEvent, getWebhookDelivery, recordDeliveryAttempt } from '#app/models/webhook.server.ts'
import { db } from '#tests/factories.ts'
import { dlqBatch, lettersOf, runQueue } from '../../shared/dead-letter-test-support.ts'
import { EVENTS_DEAD_LETTER_QUEUE_NAME } from './dead-letter.ts'
import { DEAD_LETTER_QUEUE_NAME } from './env.ts'
import worker from './index.ts'
import { paidEvent, schoolWithWebhook, testEnv } from './test-support.ts'

/** A delivery that had two failed attempts (HTTP 503) and is still pending, as the queue leaves it. */
async function failingDelivery() {
  const setup = await schoolWithWebhook()
  const eventId = await paidEvent(setup.school.tenantId)
  const [row] = await createDeliveriesForEvent(db(), setup.school.tenantId, { id: eventId, type: 'student.paid' })
  for (const seen of [0, 1]) {
    await claimDeliveryAttempt(db(), row.tenantId, row.id, seen)
    await recordDeliveryAttempt(db(), row.tenantId, row.id, { delivered: false, statusCode: 503, durationMs: 12, error: 'HTTP 503' })
  }
  return { setup, eventId, job: { deliveryId: row.id, tenantId: row.tenantId } }
}

describe('dead letter queues of the webhooks worker', () => {
  it('a dead-lettered delivery is marked dead and recorded once, with its last error and attempts', async () => {
    const { job } = await failingDelivery()
    const batch = () => dlqBatch(DEAD_LETTER_QUEUE_NAME, [job], { id: `dlq-${job.deliveryId}` })

    const first = await runQueue(worker, batch(), testEnv)
    // The DLQ delivers the same message again (a lost ack): still one letter.
    const again = await runQueue(worker, batch(), testEnv)

    expect(first.acks).toHaveLength(1)
    expect(again.acks).toHaveLength(1)
    expect(await getWebhookDelivery(db(), job.tenantId, job.deliveryId)).toMatchObject({ status: 'dead', attempts: 2 })
    const letters = await lettersOf(testEnv, job.tenantId, 'webhook-deliveries')
    expect(letters).toHaveLength(1)
    expect(letters[0]).toMatchObject({ tenantId: job.tenantId, messageId: `dlq-${job.deliveryId}`, reason: 'HTTP 503', attempts: 2, status: 'open', resolvedBy: null })
    expect(JSON.parse(letters[0]!.body)).toEqual(job)
  })

  it('a dead-lettered event is recorded once, with the queue’s attempts and "retries exhausted"', async () => {
    const { setup } = await failingDelivery()
    const job = { eventId: await paidEvent(setup.school.tenantId), tenantId: setup.school.tenantId, type: 'student.paid' }
    const id = `dlq-event-${job.eventId}`

    await runQueue(worker, dlqBatch(EVENTS_DEAD_LETTER_QUEUE_NAME, [job], { id }), testEnv)
    const again = await runQueue(worker, dlqBatch(EVENTS_DEAD_LETTER_QUEUE_NAME, [job], { id }), testEnv)

    expect(again.acks).toEqual([id])
    const letters = await lettersOf(testEnv, job.tenantId, 'events')
    expect(letters).toHaveLength(1)
    expect(letters[0]).toMatchObject({ messageId: id, reason: 'retries exhausted', attempts: 6, status: 'open' })
    expect(JSON.parse(letters[0]!.body)).toEqual(job)
    // Nothing of it lands among the school's delivery letters.
    expect(await lettersOf(testEnv, job.tenantId, 'webhook-deliveries')).toEqual([])
  })

  it('a message that names no school or does not fit is still recorded, without a school', async () => {
    const marker = crypto.randomUUID()
    const result = await runQueue(worker, dlqBatch(DEAD_LETTER_QUEUE_NAME, [{ deliveryId: marker }]), testEnv)

    expect(result.acks).toHaveLength(1)
    const letter = (await lettersOf(testEnv, '', 'webhook-deliveries')).find((l) => l.body.includes(marker))
    expect(letter).toMatchObject({ tenantId: '', attempts: 6, status: 'open' })
    expect(letter?.reason).toMatch(/^retries exhausted/)
  })
})
