// Domain events fan out (ADR 020): every event to the events queue, completed sales also to
// invoicing; a row is marked sent only when every send succeeded, and the sweep finds the rest.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import type { AppEventJob } from '#app/utils/env.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { dispatchAppEvents, listUnsentAppEvents, recordAppEvent, sweepUnsentAppEvents } from './app-event.server.ts'

/** A queue binding that records what it was sent (and can refuse), to see where each event went. */
function recordingQueue(failFor: string[] = []) {
  const sent: AppEventJob[] = []
  const queue = {
    sent,
    async send(job: AppEventJob) {
      if (failFor.includes(job.eventId)) throw new Error('queue unavailable')
      sent.push(job)
    },
    async sendBatch() {
      throw new Error('not used')
    },
  }
  return queue as typeof queue & Queue<AppEventJob>
}

describe('dispatchAppEvents', () => {
  it('sends every event to the events queue and completed sales to invoicing too, once', async () => {
    const school = await createTestSchool()
    const paid = (await recordAppEvent(db(), school.tenantId, 'student.paid', 'tx-1', { transactionId: 'tx-1' }))!
    const registered = (await recordAppEvent(db(), school.tenantId, 'student.registered', 'user-1', { userId: 'user-1' }))!
    // The same subject again: no second event.
    expect(await recordAppEvent(db(), school.tenantId, 'student.paid', 'tx-1', {})).toBeNull()
    const events = recordingQueue()
    const invoicing = recordingQueue()
    expect(await dispatchAppEvents(db(), { events, invoicing }, school.tenantId)).toBe(2)
    expect(events.sent.map((j) => j.eventId).sort()).toEqual([paid, registered].sort())
    expect(invoicing.sent).toEqual([{ eventId: paid, tenantId: school.tenantId, type: 'student.paid' }])
    // Nothing left to send: a second call sends nothing.
    expect(await dispatchAppEvents(db(), { events, invoicing }, school.tenantId)).toBe(0)
    expect(events.sent).toHaveLength(2)
  })

  it('keeps an event unsent when one of its queues refuses, and the sweep sends it later', async () => {
    const school = await createTestSchool()
    const paid = (await recordAppEvent(db(), school.tenantId, 'student.paid', 'tx-2', { transactionId: 'tx-2' }, Date.now() - 120_000))!
    const events = recordingQueue()
    const refusing = recordingQueue([paid])
    expect(await dispatchAppEvents(db(), { events, invoicing: refusing }, school.tenantId)).toBe(0)
    expect((await listUnsentAppEvents(db(), school.tenantId)).map((r) => r.id)).toEqual([paid])
    const invoicing = recordingQueue()
    expect(await sweepUnsentAppEvents(db(), { events, invoicing })).toBeGreaterThanOrEqual(1)
    expect(invoicing.sent.map((j) => j.eventId)).toEqual([paid])
    expect(await listUnsentAppEvents(db(), school.tenantId)).toEqual([])
  })

  it('a bare queue binding means the events queue only (the real binding accepts the job)', async () => {
    const school = await createTestSchool()
    await recordAppEvent(db(), school.tenantId, 'student.registered', 'user-3', { userId: 'user-3' })
    expect(await dispatchAppEvents(db(), env.EVENTS_QUEUE, school.tenantId)).toBe(1)
  })
})
