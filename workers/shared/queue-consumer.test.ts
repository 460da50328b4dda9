// The shared queue-consumer skeleton and backoff (workers/shared): plain message objects, no queue.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { exponentialBackoff, MAX_QUEUE_DELAY_SECONDS } from './backoff.ts'
import { consumeQueue, type QueueConsumer } from './queue-consumer.ts'

type FakeMessage = Message<unknown> & { ack: ReturnType<typeof vi.fn>; retry: ReturnType<typeof vi.fn> }

const message = (id: string, body: unknown, attempts = 1) => ({ id, body, attempts, timestamp: new Date(), ack: vi.fn(), retry: vi.fn() } as unknown as FakeMessage)
const batchOf = (...messages: FakeMessage[]) => ({ queue: 'test-queue', messages, ackAll: vi.fn(), retryAll: vi.fn() } as unknown as MessageBatch<unknown>)

const JobSchema = z.object({ jobId: z.string().min(1), tenantId: z.string().min(1) })
const backoff = exponentialBackoff({ baseSeconds: 60, maxSeconds: 60 * 60 })

function consumer(handle: QueueConsumer<typeof JobSchema>['handle']): QueueConsumer<typeof JobSchema> {
  return { schema: JobSchema, backoff, malformed: 'test_job_malformed', crashed: 'test_job_error', ids: (job, msg) => ({ tenantId: job.tenantId, jobId: job.jobId, messageId: msg.id }), handle }
}

/** The JSON lines logged through console.error / console.log while `run` runs. */
async function logged(run: () => Promise<void>) {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {})
  const info = vi.spyOn(console, 'log').mockImplementation(() => {})
  await run()
  const parse = (spy: typeof error) => spy.mock.calls.map((call) => JSON.parse(String(call[0])) as Record<string, unknown>)
  return { errors: parse(error), infos: parse(info) }
}

afterEach(() => vi.restoreAllMocks())

describe('consumeQueue', () => {
  it('acks and logs a message whose body does not fit the schema, without calling the handler', async () => {
    const handle = vi.fn()
    const bad = [message('m1', { jobId: '', tenantId: 't1' }), message('m2', 'not an object'), message('m3', null)]
    const { errors } = await logged(() => consumeQueue(batchOf(...bad), consumer(handle)))
    expect(handle).not.toHaveBeenCalled()
    for (const msg of bad) {
      expect(msg.ack).toHaveBeenCalledTimes(1)
      expect(msg.retry).not.toHaveBeenCalled()
    }
    expect(errors).toEqual([
      { event: 'test_job_malformed', messageId: 'm1' },
      { event: 'test_job_malformed', messageId: 'm2' },
      { event: 'test_job_malformed', messageId: 'm3' },
    ])
  })

  it('retries a message whose handler throws with the backoff delay of its attempt, and logs the error with its ids', async () => {
    const msg = message('m1', { jobId: 'j1', tenantId: 't1' }, 3)
    const { errors } = await logged(() =>
      consumeQueue(
        batchOf(msg),
        consumer(async () => {
          throw new Error('D1 is down')
        }),
      ),
    )
    expect(msg.ack).not.toHaveBeenCalled()
    expect(msg.retry).toHaveBeenCalledExactlyOnceWith({ delaySeconds: 240 })
    expect(errors).toEqual([{ event: 'test_job_error', tenantId: 't1', jobId: 'j1', messageId: 'm1', error: 'Error: D1 is down' }])
  })

  it('hands the parsed job (unknown keys dropped) to the handler and settles each message on its own', async () => {
    const seen: unknown[] = []
    const ok = message('ok', { jobId: 'j1', tenantId: 't1', extra: 'dropped' })
    const again = message('again', { jobId: 'j2', tenantId: 't1' }, 2)
    const later = message('later', { jobId: 'j3', tenantId: 't1' }, 1)
    const bad = message('bad', {})
    await logged(() =>
      consumeQueue(
        batchOf(ok, again, bad, later),
        consumer(async (job, { ack, retry, ids }) => {
          seen.push({ job, ids })
          if (job.jobId === 'j2') return retry()
          // A peer's Retry-After wins when it is longer; a handler may count attempts its own way.
          if (job.jobId === 'j3') return retry({ attempt: 4, retryAfterSeconds: 7200 })
          return ack()
        }),
      ),
    )
    expect(seen[0]).toEqual({ job: { jobId: 'j1', tenantId: 't1' }, ids: { tenantId: 't1', jobId: 'j1', messageId: 'ok' } })
    expect(ok.ack).toHaveBeenCalledTimes(1)
    expect(again.retry).toHaveBeenCalledExactlyOnceWith({ delaySeconds: 120 })
    expect(later.retry).toHaveBeenCalledExactlyOnceWith({ delaySeconds: 7200 })
    expect(bad.ack).toHaveBeenCalledTimes(1)
    for (const msg of [again, later]) expect(msg.ack).not.toHaveBeenCalled()
  })
})

describe('exponentialBackoff', () => {
  it('doubles from the base up to its cap; a longer Retry-After wins, within the queue’s 12 hours', () => {
    // The mail worker's numbers.
    const mail = exponentialBackoff({ baseSeconds: 30, maxSeconds: 15 * 60 })
    expect([1, 2, 3, 4, 5, 6].map((a) => mail(a))).toEqual([30, 60, 120, 240, 480, 900])
    expect(mail(0)).toBe(30)
    expect(mail(2, 600)).toBe(600)
    expect(mail(3, 5)).toBe(120)
    expect(mail(1, 10 ** 9)).toBe(MAX_QUEUE_DELAY_SECONDS)
    // The webhooks worker's: capped by the queue only.
    const webhooks = exponentialBackoff({ baseSeconds: 60, maxSeconds: MAX_QUEUE_DELAY_SECONDS })
    expect(webhooks(10)).toBe(30_720)
    expect(webhooks(20)).toBe(43_200)
  })
})
