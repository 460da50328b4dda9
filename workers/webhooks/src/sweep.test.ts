import { describe, expect, it } from 'vitest'
import { createDeliveriesForEvent, getWebhookDelivery, markDeliveryFinal, scheduleTestDelivery } from '#app/models/webhook.server.ts'
import { db } from '#tests/factories.ts'
import { IDLE_AFTER_MS, sweepStrandedDeliveries, UNATTEMPTED_AFTER_MS } from './sweep.ts'
import { paidEvent, received, recordingQueue, schoolWithWebhook, testEnv } from './test-support.ts'

describe('stranded delivery sweep', () => {
  it('re-queues pending rows the queue never got (never attempted after 10 min, or idle past the retry schedule), and nothing else', async () => {
    const a = await schoolWithWebhook()
    const b = await schoolWithWebhook()
    const t0 = Date.now()
    // No queue bound: the rows stay pending, as when the app's send failed.
    const strandedA = (await scheduleTestDelivery(db(), undefined, a.school.tenantId, a.webhook, t0)).delivery
    const strandedB = (await createDeliveriesForEvent(db(), b.school.tenantId, { id: await paidEvent(b.school.tenantId), type: 'student.paid' }, t0))[0]
    const dead = (await scheduleTestDelivery(db(), undefined, a.school.tenantId, a.webhook, t0)).delivery
    await markDeliveryFinal(db(), a.school.tenantId, dead.id, 'dead', null, t0)

    const early = recordingQueue()
    expect(await sweepStrandedDeliveries({ DB: testEnv.DB, DB_SHARD_0: testEnv.DB_SHARD_0, DB_SHARD_1: testEnv.DB_SHARD_1, DELIVERIES_QUEUE: early.queue }, t0 + UNATTEMPTED_AFTER_MS - 60_000)).toBe(0)

    const later = recordingQueue()
    const count = await sweepStrandedDeliveries({ DB: testEnv.DB, DB_SHARD_0: testEnv.DB_SHARD_0, DB_SHARD_1: testEnv.DB_SHARD_1, DELIVERIES_QUEUE: later.queue }, t0 + UNATTEMPTED_AFTER_MS + 1_000)
    expect(later.sent).toEqual(expect.arrayContaining([{ deliveryId: strandedA.id, tenantId: a.school.tenantId }, { deliveryId: strandedB.id, tenantId: b.school.tenantId }]))
    expect(later.sent.map((j) => j.deliveryId)).not.toContain(dead.id)
    expect(count).toBe(later.sent.length)
    expect(IDLE_AFTER_MS).toBeGreaterThan((60 + 120 + 240 + 480 + 960) * 1000)
  })

  it('through the real queue: the consumer delivers the swept row', async () => {
    const setup = await schoolWithWebhook()
    const { delivery } = await scheduleTestDelivery(db(), undefined, setup.school.tenantId, setup.webhook)

    expect(await sweepStrandedDeliveries(testEnv, Date.now() + UNATTEMPTED_AFTER_MS + 1_000)).toBeGreaterThanOrEqual(1)

    await expect.poll(async () => (await getWebhookDelivery(db(), setup.school.tenantId, delivery.id))?.status, { timeout: 15_000, interval: 200 }).toBe('delivered')
    expect(await received(setup.inbox)).toHaveLength(1)
  })
})
