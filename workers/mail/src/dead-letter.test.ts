import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { enqueueEmail, markEmailAttemptFailed } from '#app/models/email-outbox.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import { dlqBatch, lettersOf, runQueue } from '../../shared/dead-letter-test-support.ts'
import { MAIL_DLQ, MAILING_DLQ } from './dead-letter.ts'
import type { MailWorkerEnv } from './env.ts'
import worker from './index.ts'

const testEnv: MailWorkerEnv = env

describe('dead letter queues of the mail worker', () => {
  it('a dead-lettered e-mail job is recorded once, with the outbox row’s last error and attempts', async () => {
    const school = await createTestSchool()
    const outboxId = await enqueueEmail(db(), undefined, school.tenantId, { template: 'password_reset', to: 'dlq@example.com', subject: 'Reset', text: 'Reset', html: '<p>Reset</p>' })
    await markEmailAttemptFailed(db(), school.tenantId, outboxId, 'Resend: HTTP 500', false)
    const job = { outboxId, tenantId: school.tenantId }
    const id = `dlq-mail-${outboxId}`

    const first = await runQueue(worker, dlqBatch(MAIL_DLQ, [job], { id }), testEnv)
    const again = await runQueue(worker, dlqBatch(MAIL_DLQ, [job], { id }), testEnv)

    expect(first.acks).toEqual([id])
    expect(again.acks).toEqual([id])
    const letters = await lettersOf(testEnv, school.tenantId, 'mail')
    expect(letters).toHaveLength(1)
    expect(letters[0]).toMatchObject({ messageId: id, reason: 'Resend: HTTP 500', attempts: 1, status: 'open' })
    expect(JSON.parse(letters[0]!.body)).toEqual(job)
  })

  it('a dead-lettered mailing job is recorded once, with the queue’s attempts', async () => {
    const school = await createTestSchool()
    const job = { tenantId: school.tenantId, source: 'lead', subjectId: `lead-${crypto.randomUUID()}` }
    const id = `dlq-mailing-${job.subjectId}`

    await runQueue(worker, dlqBatch(MAILING_DLQ, [job], { id }), testEnv)
    const again = await runQueue(worker, dlqBatch(MAILING_DLQ, [job], { id }), testEnv)

    expect(again.acks).toEqual([id])
    const letters = await lettersOf(testEnv, school.tenantId, 'mailing')
    expect(letters).toHaveLength(1)
    expect(letters[0]).toMatchObject({ messageId: id, reason: 'retries exhausted', attempts: 6, status: 'open' })
    expect(JSON.parse(letters[0]!.body)).toEqual(job)
    expect(await lettersOf(testEnv, school.tenantId, 'mail')).toEqual([])
  })
})
