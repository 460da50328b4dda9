// Shared by the webhooks worker's tests: a school with webhooks to the dev peers' receiver, events,
// queue batches, and a look at what the receiver got.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { vi } from 'vitest'
import type { WebhookEvent } from '#app/db/schema.server.ts'
import { recordAppEvent } from '#app/models/app-event.server.ts'
import { createWebhook, type WebhookDeliveryJob } from '#app/models/webhook.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import type { WebhooksWorkerEnv } from './env.ts'

export const testEnv = env as unknown as WebhooksWorkerEnv
const peers = () => testEnv.DEV_PEERS!

let counter = 0
export const uniqueInbox = () => `inbox-${Date.now().toString(36)}-${++counter}`
export const receiverUrl = (inbox: string) => `http://webhooks.dev-peers.internal/webhook-receiver/${inbox}`

export type Received = { headers: Record<string, string>; body: string; status: number }

export async function received(inbox: string): Promise<Received[]> {
  const res = await peers().fetch(`${receiverUrl(inbox)}/_log`)
  return ((await res.json()) as { requests: Received[] }).requests
}

/** The receiver answers `fail` failures with `status`, then 200s ('always': failures forever). */
export async function planReceiver(inbox: string, plan: { fail: number | 'always'; status?: number; delayMs?: number }) {
  const res = await peers().fetch(`${receiverUrl(inbox)}/_plan`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(plan) })
  if (!res.ok) throw new Error(`plan: ${res.status} ${await res.text()}`)
}

export async function schoolWithWebhook(event: WebhookEvent = 'student.paid', url?: string) {
  const school = await createTestSchool()
  const inbox = uniqueInbox()
  const created = await createWebhook(db(), testEnv.INTEGRATIONS_KEY!, school.tenantId, { event, url: url ?? receiverUrl(inbox) })
  if (!created.ok) throw new Error('webhook')
  return { school, inbox, webhook: created.webhook, secret: created.secret }
}

export async function paidEvent(tenantId: string, subject = `txn-${++counter}`) {
  const id = await recordAppEvent(db(), tenantId, 'student.paid', subject, { transactionId: subject, totalAmount: 12300, currency: 'PLN', buyer: { name: 'Ada', email: 'ada@example.com' } })
  if (!id) throw new Error('event')
  return id
}

export async function registeredEvent(tenantId: string, userId = `usr-${++counter}`) {
  const id = await recordAppEvent(db(), tenantId, 'student.registered', userId, { userId, name: 'Ada', email: `${userId}@example.com` })
  if (!id) throw new Error('event')
  return id
}

/** Records what is put on the deliveries queue, without a consumer picking it up mid-test. */
export function recordingQueue() {
  const sent: WebhookDeliveryJob[] = []
  const queue = {
    async send(body: WebhookDeliveryJob) {
      sent.push(body)
    },
    async sendBatch(messages: Iterable<MessageSendRequest<WebhookDeliveryJob>>) {
      for (const m of messages) sent.push(m.body)
    },
  } as unknown as Queue<WebhookDeliveryJob>
  return { queue, sent }
}

export function batchOf(queue: string, messages: { body: unknown; attempts?: number }[]) {
  return createMessageBatch(
    queue,
    messages.map((m, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  )
}

/** Runs the handler and reports acks/retries; the requested delays are read from spies (the pool's fake batch does not keep them). */
export async function run(handler: { queue: (batch: MessageBatch<unknown>, env: WebhooksWorkerEnv) => Promise<unknown> }, batch: MessageBatch<unknown>, environment: WebhooksWorkerEnv = testEnv) {
  const retrySpies = new Map(batch.messages.map((m) => [m.id, vi.spyOn(m, 'retry')]))
  const ctx = createExecutionContext()
  await handler.queue(batch, environment)
  const result = await getQueueResult(batch, ctx)
  return {
    ...result,
    explicitAcks: [...result.explicitAcks].sort(),
    retryMessages: (result.retryMessages as { msgId: string }[]).map((r) => ({ msgId: r.msgId, delaySeconds: retrySpies.get(r.msgId)?.mock.calls[0]?.[0]?.delaySeconds as number | undefined })),
  }
}
