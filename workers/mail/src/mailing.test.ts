// The coursefront-mailing consumer with the pool's queue helpers, against the Mailchimp peer
// (workers/dev-peers/src/mailchimp.ts) through DEV_PEERS: redeliveries do nothing twice, one bad
// message never replays the good ones, the school's settings and a lead's consent are respected,
// 429/5xx are retried with backoff and refusals end 'failed' with the reason.
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mailingMembers, transactions } from '#app/db/schema.server.ts'
import { createBusinessIntegration } from '#app/models/business-integration.server.ts'
import { saveLead } from '#app/models/lead.server.ts'
import type { MailingJob } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { createTestSchool, db } from '#tests/factories.ts'
import type { MailWorkerEnv } from './env.ts'
import { createMailWorker } from './index.ts'
import { MAILING_MAX_DELIVERIES } from './mailing.ts'

const testEnv = env as unknown as MailWorkerEnv & { DEV_PEERS: Fetcher; INTEGRATIONS_KEY: string }
const KEY = 'c0ffee00c0ffee00c0ffee00c0ffee00-us21'
const LIST = 'c0de000001'

// Every Mailchimp call the worker makes, counted on its way to the peer.
const calls: { method: string; path: string }[] = []
const worker = createMailWorker({
  mailingFetch: (input, init) => {
    const req = new Request(input instanceof Request ? input.url : String(input), init)
    calls.push({ method: req.method, path: new URL(req.url).pathname })
    return testEnv.DEV_PEERS.fetch(req)
  },
})
const puts = () => calls.filter((c) => c.method === 'PUT').length

beforeEach(async () => {
  calls.length = 0
  await testEnv.DEV_PEERS.fetch('http://peers.internal/mailchimp/_peer/faults', { method: 'DELETE' })
})

let n = 0
const address = (label: string) => `${label}-${Date.now().toString(36)}-${++n}@example.com`

async function schoolWithMailchimp(settings: { subscribeBuyers?: boolean; subscribeLeads?: boolean; listId?: string; apiKey?: string } = {}) {
  const school = await createTestSchool()
  const integration = await createBusinessIntegration(db(), testEnv.INTEGRATIONS_KEY, school.tenantId, {
    provider: 'mailchimp',
    credentials: { apiKey: settings.apiKey ?? KEY },
    publicRef: '…ee00-us21',
    settings: { listId: settings.listId ?? LIST, listName: 'Newsletter', subscribeBuyers: settings.subscribeBuyers ?? true, subscribeLeads: settings.subscribeLeads ?? true },
  })
  return { ...school, integrationId: integration.id }
}

async function completedSale(tenantId: string, buyer: { name: string; email: string }) {
  const now = Date.now()
  const [row] = await db()
    .insert(transactions)
    .values({
      id: newId(),
      tenantId,
      hash: newId(20),
      productKind: 'course',
      productTitle: 'Course',
      currency: 'USD',
      unitAmount: 1000,
      totalAmount: 1000,
      status: 'completed',
      buyer: JSON.stringify(buyer),
      termsAcceptedAt: now,
      checkoutPath: '/checkout/x',
      completedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  return row!.id
}

async function lead(tenantId: string, email: string, consent: boolean) {
  return (await saveLead(db(), tenantId, { email, name: 'Lena', source: 'subpage:offer', fields: { name: 'Lena', email, consent } })).id
}

function batchOf(messages: { body: unknown; attempts?: number }[]) {
  return createMessageBatch(
    'coursefront-mailing',
    messages.map((m, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  )
}

async function deliver(batch: MessageBatch<unknown>) {
  const retrySpies = new Map(batch.messages.map((m) => [m.id, vi.spyOn(m, 'retry')]))
  const ctx = createExecutionContext()
  await worker.queue(batch, testEnv)
  const result = await getQueueResult(batch, ctx)
  return { ...result, retryMessages: result.retryMessages.map((r: { msgId: string }) => ({ msgId: r.msgId, delaySeconds: retrySpies.get(r.msgId)?.mock.calls[0]?.[0]?.delaySeconds })) }
}

async function peerMembers(emails: string[]) {
  const res = await testEnv.DEV_PEERS.fetch(`http://peers.internal/mailchimp/_peer/members?list_id=${LIST}`)
  const { members } = (await res.json()) as { members: Array<{ email_address: string; status: string; merge_fields: Record<string, string> }> }
  return members.filter((m) => emails.includes(m.email_address.toLowerCase()))
}

const memberRows = (tenantId: string) => db().select().from(mailingMembers).where(eq(mailingMembers.tenantId, tenantId))

describe('mailing queue consumer', () => {
  it('the same buyer job delivered three times: one Mailchimp call, one member, one row', async () => {
    const school = await schoolWithMailchimp()
    const email = address('buyer')
    const txId = await completedSale(school.tenantId, { name: 'Ada Lovelace', email })
    const job: MailingJob = { tenantId: school.tenantId, source: 'buyer', subjectId: txId }

    const results = [await deliver(batchOf([{ body: job }])), await deliver(batchOf([{ body: job, attempts: 2 }])), await deliver(batchOf([{ body: job, attempts: 3 }]))]

    expect(results.map((r) => r.explicitAcks)).toEqual([['msg-0'], ['msg-0'], ['msg-0']])
    expect(puts()).toBe(1)
    expect(await peerMembers([email])).toEqual([expect.objectContaining({ status: 'subscribed', merge_fields: { FNAME: 'Ada' } })])
    const rows = await memberRows(school.tenantId)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ email, source: 'buyer', status: 'subscribed', integrationId: school.integrationId, error: null })
    expect(rows[0].externalId).toMatch(/^[0-9a-f]{32}$/)
  })

  it('a batch of 10 with one malformed message and one school without an integration: the other 8 subscribed once, all acked', async () => {
    const school = await schoolWithMailchimp()
    const bare = await createTestSchool()
    const emails = Array.from({ length: 8 }, (_, i) => address(`p${i}`))
    const jobs: MailingJob[] = []
    for (const [i, email] of emails.entries()) {
      jobs.push(i % 2 === 0 ? { tenantId: school.tenantId, source: 'buyer', subjectId: await completedSale(school.tenantId, { name: `Buyer ${i}`, email }) } : { tenantId: school.tenantId, source: 'lead', subjectId: await lead(school.tenantId, email, true) })
    }
    const bareEmail = address('bare')
    const bareJob: MailingJob = { tenantId: bare.tenantId, source: 'buyer', subjectId: await completedSale(bare.tenantId, { name: 'Nobody', email: bareEmail }) }
    const bodies: unknown[] = [...jobs.slice(0, 4), { tenantId: school.tenantId, source: 'student' }, bareJob, ...jobs.slice(4)]

    const result = await deliver(batchOf(bodies.map((body) => ({ body }))))

    expect(result.explicitAcks).toHaveLength(10)
    expect(result.retryMessages).toEqual([])
    expect(puts()).toBe(8)
    expect((await peerMembers(emails)).map((m) => m.email_address).sort()).toEqual([...emails].sort())
    expect(await peerMembers([bareEmail])).toEqual([])
    const rows = await memberRows(school.tenantId)
    expect(rows.map((r) => r.status)).toEqual(Array(8).fill('subscribed'))
    expect(rows.filter((r) => r.source === 'lead')).toHaveLength(4)
    expect(await memberRows(bare.tenantId)).toEqual([])

    // The whole batch again (a redelivery): nothing new anywhere.
    const again = await deliver(batchOf(bodies.map((body) => ({ body, attempts: 2 }))))
    expect(again.explicitAcks).toHaveLength(10)
    expect(puts()).toBe(8)
    expect(await memberRows(school.tenantId)).toHaveLength(8)
  })

  it("respects the school's settings and a lead's consent", async () => {
    const noBuyers = await schoolWithMailchimp({ subscribeBuyers: false })
    const noLeads = await schoolWithMailchimp({ subscribeLeads: false })
    const both = await schoolWithMailchimp()
    const result = await deliver(
      batchOf([
        { body: { tenantId: noBuyers.tenantId, source: 'buyer', subjectId: await completedSale(noBuyers.tenantId, { name: 'A', email: address('a') }) } },
        { body: { tenantId: noBuyers.tenantId, source: 'lead', subjectId: await lead(noBuyers.tenantId, address('b'), true) } },
        { body: { tenantId: noLeads.tenantId, source: 'lead', subjectId: await lead(noLeads.tenantId, address('c'), true) } },
        { body: { tenantId: both.tenantId, source: 'lead', subjectId: await lead(both.tenantId, address('d'), false) } },
        { body: { tenantId: both.tenantId, source: 'lead', subjectId: 'no-such-lead' } },
      ]),
    )
    expect(result.explicitAcks).toHaveLength(5)
    expect(puts()).toBe(1)
    expect((await memberRows(noBuyers.tenantId)).map((r) => r.source)).toEqual(['lead'])
    expect(await memberRows(noLeads.tenantId)).toEqual([])
    expect(await memberRows(both.tenantId)).toEqual([])
  })

  it('retries a 429 with backoff (Retry-After wins), then subscribes on the next delivery', async () => {
    const school = await schoolWithMailchimp()
    const email = address('limited')
    const job = { tenantId: school.tenantId, source: 'buyer', subjectId: await completedSale(school.tenantId, { name: 'Lim', email }) }
    await testEnv.DEV_PEERS.fetch('http://peers.internal/mailchimp/_peer/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ count: 1, status: 429 }) })

    const first = await deliver(batchOf([{ body: job }]))
    expect(first.explicitAcks).toEqual([])
    // 30 s backoff of attempt 1, Retry-After 30 from the peer.
    expect(first.retryMessages).toEqual([{ msgId: 'msg-0', delaySeconds: 30 }])
    expect((await memberRows(school.tenantId))[0]).toMatchObject({ status: 'pending', error: expect.stringMatching(/Too Many Requests/) })

    const second = await deliver(batchOf([{ body: job, attempts: 2 }]))
    expect(second.explicitAcks).toEqual(['msg-0'])
    expect((await memberRows(school.tenantId))[0]).toMatchObject({ status: 'subscribed', error: null })
    expect(await peerMembers([email])).toHaveLength(1)
  })

  it('a 5xx on the last delivery ends failed; earlier ones back off exponentially', async () => {
    const school = await schoolWithMailchimp()
    const job = { tenantId: school.tenantId, source: 'buyer', subjectId: await completedSale(school.tenantId, { name: 'Sam', email: address('down') }) }
    await testEnv.DEV_PEERS.fetch('http://peers.internal/mailchimp/_peer/faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ count: 2, status: 503 }) })

    const third = await deliver(batchOf([{ body: job, attempts: 3 }]))
    expect(third.retryMessages).toEqual([{ msgId: 'msg-0', delaySeconds: 120 }])
    const last = await deliver(batchOf([{ body: job, attempts: MAILING_MAX_DELIVERIES }]))
    expect(last.explicitAcks).toEqual(['msg-0'])
    expect((await memberRows(school.tenantId))[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/Service Unavailable/) })
  })

  it('a refused key or a missing audience is final: acked, the reason on the member row, no retry', async () => {
    const badKey = await schoolWithMailchimp({ apiKey: 'deadbeefdeadbeefdeadbeefdeadbeef-us21' })
    const noList = await schoolWithMailchimp({ listId: 'ffffffffff' })
    const result = await deliver(
      batchOf([
        { body: { tenantId: badKey.tenantId, source: 'buyer', subjectId: await completedSale(badKey.tenantId, { name: 'K', email: address('k') }) } },
        { body: { tenantId: noList.tenantId, source: 'buyer', subjectId: await completedSale(noList.tenantId, { name: 'L', email: address('l') }) } },
      ]),
    )
    expect(result.explicitAcks).toEqual(['msg-0', 'msg-1'])
    expect(result.retryMessages).toEqual([])
    expect((await memberRows(badKey.tenantId))[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/API Key Invalid/) })
    expect((await memberRows(noList.tenantId))[0]).toMatchObject({ status: 'failed', error: expect.stringMatching(/Resource Not Found/) })
  })

  it('keeps schools apart: a job naming another school’s transaction subscribes nobody', async () => {
    const school = await schoolWithMailchimp()
    const other = await createTestSchool()
    const foreignTx = await completedSale(other.tenantId, { name: 'X', email: address('x') })
    const result = await deliver(batchOf([{ body: { tenantId: school.tenantId, source: 'buyer', subjectId: foreignTx } }]))
    expect(result.explicitAcks).toEqual(['msg-0'])
    expect(puts()).toBe(0)
    expect(await db().select().from(mailingMembers).where(and(eq(mailingMembers.tenantId, school.tenantId)))).toEqual([])
  })
})
