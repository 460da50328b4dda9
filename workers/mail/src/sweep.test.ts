import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { enqueueEmail, getOutboxEmail, markEmailAttemptFailed, markEmailSent } from '#app/models/email-outbox.server.ts'
import type { MailJob } from '#app/utils/env.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import type { MailWorkerEnv } from './env.ts'
import { STRANDED_AFTER_MS, sweepStrandedEmails } from './sweep.ts'

const testEnv: MailWorkerEnv = env

/** Records what the sweep puts on the queue, without a consumer picking it up mid-test. */
function recordingQueue() {
  const sent: MailJob[] = []
  const queue = {
    async send(body: MailJob) {
      sent.push(body)
    },
    async sendBatch(messages: Iterable<MessageSendRequest<MailJob>>) {
      for (const m of messages) sent.push(m.body)
    },
  } as unknown as Queue<MailJob>
  return { queue, sent }
}

const email = (to: string) => ({ template: 'school_welcome', to, subject: 'Welcome', text: 'Hi', html: '<p>Hi</p>' })

describe('stranded mail sweep', () => {
  it("re-enqueues every school's never-attempted queued rows older than 10 minutes, and nothing else", async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const strandedA = await enqueueEmail(db(), undefined, a.tenantId, email('a@example.com'))
    const strandedB = await enqueueEmail(db(), undefined, b.tenantId, email('b@example.com'))
    const sent = await enqueueEmail(db(), undefined, a.tenantId, email('sent@example.com'))
    await markEmailSent(db(), a.tenantId, sent, 'prov-1')
    const retrying = await enqueueEmail(db(), undefined, a.tenantId, email('retrying@example.com'))
    await markEmailAttemptFailed(db(), a.tenantId, retrying, 'Resend 500', false)
    const failed = await enqueueEmail(db(), undefined, b.tenantId, email('failed@example.com'))
    await markEmailAttemptFailed(db(), b.tenantId, failed, 'Resend 422', true)

    const later = Date.now() + STRANDED_AFTER_MS + 1_000
    const { queue, sent: jobs } = recordingQueue()
    const count = await sweepStrandedEmails({ DB: testEnv.DB, DB_SHARD_0: testEnv.DB_SHARD_0, DB_SHARD_1: testEnv.DB_SHARD_1, MAIL_QUEUE: queue }, later)

    expect(count).toBe(2)
    expect(jobs).toEqual(
      expect.arrayContaining([
        { outboxId: strandedA, tenantId: a.tenantId },
        { outboxId: strandedB, tenantId: b.tenantId },
      ]),
    )
    expect(jobs).toHaveLength(2)
  })

  it('leaves fresh rows alone', async () => {
    const school = await createTestSchool()
    await enqueueEmail(db(), undefined, school.tenantId, email('fresh@example.com'))
    const { queue, sent } = recordingQueue()
    expect(await sweepStrandedEmails({ DB: testEnv.DB, DB_SHARD_0: testEnv.DB_SHARD_0, DB_SHARD_1: testEnv.DB_SHARD_1, MAIL_QUEUE: queue }, Date.now() + STRANDED_AFTER_MS - 60_000)).toBe(0)
    expect(sent).toEqual([])
  })

  it('goes through the real queue binding to the consumer, which sends the row', async () => {
    const school = await createTestSchool()
    const id = await enqueueEmail(db(), undefined, school.tenantId, email('late@example.com'))

    expect(await sweepStrandedEmails(testEnv, Date.now() + STRANDED_AFTER_MS + 1_000)).toBeGreaterThanOrEqual(1)

    // Miniflare delivers the batch to this worker's queue() (outbox transport in development).
    await expect.poll(async () => (await getOutboxEmail(db(), school.tenantId, id))?.status, { timeout: 15_000, interval: 200 }).toBe('sent')
  })
})
