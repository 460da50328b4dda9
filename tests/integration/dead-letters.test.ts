// Issue 27 §4: dead letters. The workers' dead letter consumers record every message a queue gave
// up on in the control plane; /operator/dead-letters lists them with their school, reason and
// attempts, redelivers one (or all open letters of a school) exactly once, and discards one with a
// required reason. Redelivery and discard need `dead_letters.manage` (admin): other roles see the
// list without the buttons and a crafted POST gets 403 with an `operator.forbidden` audit row.
import { createMessageBatch } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { recordAppEvent } from '#app/models/app-event.server.ts'
import { claimDeliveryAttempt, createDeliveriesForEvent, createWebhook, getWebhookDelivery, recordDeliveryAttempt, redeliverWebhookDelivery } from '#app/models/webhook.server.ts'
import { recordDeadLetter } from '#app/models/dead-letter.server.ts'
import { getInvoiceForTransaction } from '#app/models/invoice.server.ts'
import { appFetch, control, createTestOperator, createTestSchool, db, dbOf, flashOf, PLATFORM, type TestSchool } from '#tests/factories.ts'
import { INVOICING_DLQ, INVOICING_QUEUE, type InvoicingWorkerEnv } from '../../workers/invoicing/src/env.ts'
import invoicingWorker from '../../workers/invoicing/src/index.ts'
import { connectInvoicing, failNextCreates, paidSale, peerInvoices } from '../../workers/invoicing/src/test-support.ts'
import { dlqBatch, runQueue } from '../../workers/shared/dead-letter-test-support.ts'
import { processDeadLetterBatch } from '../../workers/webhooks/src/dead-letter.ts'
import type { WebhooksWorkerEnv } from '../../workers/webhooks/src/env.ts'

const bindings = env as unknown as { DB: D1Database; INTEGRATIONS_KEY: string }
const PATH = '/operator/dead-letters'

async function textOf(res: Response | Promise<Response>) {
  return (await (await res).text())
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/<!-- -->/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
}

type LetterRow = { id: string; queue: string; tenant_id: string; status: string; reason: string; attempts: number; resolved_by: string | null; discard_reason: string | null }
const lettersOf = async (tenantId: string) =>
  (
    await bindings.DB.prepare('SELECT id, queue, tenant_id, status, reason, attempts, resolved_by, discard_reason FROM dead_letters WHERE tenant_id = ? ORDER BY created_at, id')
      .bind(tenantId)
      .all<LetterRow>()
  ).results
const auditOf = async (tenantId: string, action: string) =>
  (
    await bindings.DB.prepare('SELECT actor_id, action, target, after FROM audit_log WHERE tenant_id = ? AND action = ? ORDER BY created_at, rowid')
      .bind(tenantId, action)
      .all<{ actor_id: string; target: string; after: string | null }>()
  ).results

/** Records what the console puts on a queue (passed over the app's binding for one request). */
function recordingQueue({ fail = false } = {}) {
  const sent: unknown[] = []
  const queue = {
    async send(body: unknown) {
      if (fail) throw new Error('queue unavailable')
      sent.push(body)
    },
    async sendBatch(messages: Iterable<{ body: unknown }>) {
      for (const m of messages) sent.push(m.body)
    },
  }
  return { queue, sent }
}
const withQueue = (binding: string, queue: unknown) => ({ [binding]: queue } as unknown as Record<string, string>)

/**
 * A webhook delivery that failed (HTTP 503, twice) and then dead-lettered: the queue hands the
 * message to the webhooks worker's dead letter consumer, which marks the row dead and records it.
 */
async function deadWebhookDelivery(school: TestSchool) {
  const db = dbOf(school)
  const created = await createWebhook(db, bindings.INTEGRATIONS_KEY, school.tenantId, { event: 'student.paid', url: 'http://webhooks.dev-peers.internal/webhook-receiver/dead-letters' })
  if (!created.ok) throw new Error('webhook')
  const eventId = await recordAppEvent(db, school.tenantId, 'student.paid', `txn-${crypto.randomUUID()}`, { totalAmount: 100, currency: 'PLN' })
  if (!eventId) throw new Error('event')
  const [row] = await createDeliveriesForEvent(db, school.tenantId, { id: eventId, type: 'student.paid' })
  for (const seen of [0, 1]) {
    await claimDeliveryAttempt(db, school.tenantId, row.id, seen)
    await recordDeliveryAttempt(db, school.tenantId, row.id, { delivered: false, statusCode: 503, durationMs: 5, error: 'HTTP 503' })
  }
  const job = { deliveryId: row.id, tenantId: school.tenantId }
  const batch = createMessageBatch('coursefront-webhook-deliveries-dlq', [{ id: `dlq-${row.id}`, timestamp: new Date(), attempts: 1, body: job }])
  await processDeadLetterBatch(batch, env as unknown as WebhooksWorkerEnv)
  const [letter] = await lettersOf(school.tenantId)
  if (!letter) throw new Error('no letter recorded')
  return { deliveryId: row.id, job, letter }
}

/** A letter of another queue, recorded as its worker would. */
async function letterOf(school: TestSchool, queue: 'events' | 'mail', body: Record<string, string>) {
  await recordDeadLetter(control(), { queue, messageId: `dlq-${crypto.randomUUID()}`, tenantId: school.tenantId, body: JSON.stringify(body), reason: 'retries exhausted', attempts: 6 })
}

describe('dead letters in the operator console', () => {
  it('a webhook delivery that dead-letters appears in the console and is redelivered exactly once', async () => {
    const name = `Dead Letter School ${crypto.randomUUID().slice(0, 6)}`
    const school = await createTestSchool({ name })
    const { deliveryId, job, letter } = await deadWebhookDelivery(school)
    expect(letter).toMatchObject({ queue: 'webhook-deliveries', status: 'open', reason: 'HTTP 503', attempts: 2 })
    expect(await getWebhookDelivery(dbOf(school), school.tenantId, deliveryId)).toMatchObject({ status: 'dead' })
    const admin = await createTestOperator({ role: 'admin' })

    const page = await textOf(appFetch(PLATFORM, `${PATH}?school=${school.slug}`, { cookie: admin.cookie }))
    const row = page.slice(page.indexOf(`data-dead-letter="${letter.id}"`), page.indexOf('</tr>', page.indexOf(`data-dead-letter="${letter.id}"`)))
    expect(row).toContain('Webhook deliveries')
    expect(row).toContain(`href="/operator/schools/${school.tenantId}"`)
    expect(row).toContain(name)
    expect(row).toContain('HTTP 503')
    expect(row).toContain('data-redeliver')
    expect(page).toContain('<caption')

    // Two operators' clicks at once, then a late third: one message, one reset, one audit row.
    const { queue, sent } = recordingQueue()
    const post = () =>
      appFetch(PLATFORM, `${PATH}?school=${school.slug}`, {
        cookie: admin.cookie,
        form: { intent: 'redeliver', letterId: letter.id, tenantId: school.tenantId },
        vars: withQueue('WEBHOOK_DELIVERIES_QUEUE', queue),
      })
    const answers = await Promise.all([post(), post()])
    const late = await post()

    expect([...answers, late].map((r) => r.status)).toEqual([302, 302, 302])
    expect(answers[0]!.headers.get('Location')).toBe(`${PATH}?school=${school.slug}`)
    expect(sent).toEqual([job])
    expect([...answers, late].map((r) => flashOf(r)?.done).sort()).toEqual(['already', 'already', 'redelivered'])
    expect(await getWebhookDelivery(dbOf(school), school.tenantId, deliveryId)).toMatchObject({ status: 'pending', attempts: 2 })
    expect(await lettersOf(school.tenantId)).toMatchObject([{ id: letter.id, status: 'redelivered', resolved_by: expect.stringContaining(admin.email) }])
    const audited = await auditOf(school.tenantId, 'dead_letter.redeliver')
    expect(audited).toEqual([
      { actor_id: admin.id, action: 'dead_letter.redeliver', target: `webhook-deliveries:dlq-${deliveryId}`, after: JSON.stringify({ status: 'redelivered', queue: 'webhook-deliveries' }) },
    ])

    // Redelivered letters keep their row, without buttons.
    const after = await textOf(appFetch(PLATFORM, `${PATH}?school=${school.slug}&status=redelivered`, { cookie: admin.cookie }))
    expect(after).toContain(`data-dead-letter="${letter.id}"`)
    expect(after).toContain('data-dead-letter-status="redelivered"')
    expect(after).not.toContain('data-redeliver')
  })

  it('sends nothing when the delivery is no longer dead, or when the queue refuses: the letter stays open', async () => {
    const school = await createTestSchool()
    const { deliveryId, letter } = await deadWebhookDelivery(school)
    const admin = await createTestOperator({ role: 'admin' })
    const redeliver = (queue: unknown) =>
      appFetch(PLATFORM, PATH, { cookie: admin.cookie, form: { intent: 'redeliver', letterId: letter.id, tenantId: school.tenantId }, vars: withQueue('WEBHOOK_DELIVERIES_QUEUE', queue) })

    // The events queue refuses: nothing sent, the letter open again, no audit row.
    await letterOf(school, 'events', { eventId: 'evt-9', tenantId: school.tenantId, type: 'student.paid' })
    const eventsLetter = (await lettersOf(school.tenantId)).find((l) => l.queue === 'events')!
    const broken = recordingQueue({ fail: true })
    const refused = await appFetch(PLATFORM, PATH, {
      cookie: admin.cookie,
      form: { intent: 'redeliver', letterId: eventsLetter.id, tenantId: school.tenantId },
      vars: withQueue('EVENTS_QUEUE', broken.queue),
    })
    expect(flashOf(refused)?.done).toBe('unavailable')
    expect((await lettersOf(school.tenantId)).find((l) => l.id === eventsLetter.id)).toMatchObject({ status: 'open', resolved_by: null })

    // The owner redelivered it from /home meanwhile: the console does not send it a second time.
    const owner = recordingQueue()
    const webhookId = (await getWebhookDelivery(dbOf(school), school.tenantId, deliveryId))!.webhookId
    expect(await redeliverWebhookDelivery(dbOf(school), owner.queue as unknown as Queue<{ deliveryId: string; tenantId: string }>, school.tenantId, webhookId, deliveryId)).toEqual({
      ok: true,
      queued: true,
    })
    const { queue, sent } = recordingQueue()
    const stale = await redeliver(queue)
    expect(flashOf(stale)?.done).toBe('stale')
    expect(sent).toEqual([])
    expect(owner.sent).toHaveLength(1)
    expect((await lettersOf(school.tenantId)).find((l) => l.id === letter.id)).toMatchObject({ status: 'open' })
    expect(await auditOf(school.tenantId, 'dead_letter.redeliver')).toEqual([])
  })

  it('an invoice that dead-lettered is reopened and sent again once from the console, and the invoicing worker then issues it', async () => {
    // The invoicing system answered 502 and the queue gave up: the invoice ends failed, the letter open.
    const sale = await paidSale()
    const tenantId = sale.school.tenantId
    const invoicingEnv = env as unknown as InvoicingWorkerEnv
    await connectInvoicing(tenantId, 'fakturownia')
    await failNextCreates('fakturownia', 1, 502)
    await runQueue(invoicingWorker, createMessageBatch(INVOICING_QUEUE, [{ id: `first-${sale.tx.id}`, timestamp: new Date(), attempts: 1, body: sale.job }]), invoicingEnv)
    await runQueue(invoicingWorker, dlqBatch(INVOICING_DLQ, [sale.job], { id: `dlq-invoice-${sale.tx.id}` }), invoicingEnv)
    const invoice = () => getInvoiceForTransaction(db(), tenantId, sale.tx.id)
    expect(await invoice()).toMatchObject({ status: 'failed', attempts: 1 })
    const [letter] = await lettersOf(tenantId)
    expect(letter).toMatchObject({ queue: 'invoicing', status: 'open', attempts: 1 })
    const admin = await createTestOperator({ role: 'admin' })
    const redeliver = (queue: unknown) =>
      appFetch(PLATFORM, PATH, { cookie: admin.cookie, form: { intent: 'redeliver', letterId: letter!.id, tenantId }, vars: withQueue('INVOICING_QUEUE', queue) })

    // The queue refuses the send: the reopened invoice is failed again, saying why; the letter stays open.
    const broken = recordingQueue({ fail: true })
    expect(flashOf(await redeliver(broken.queue))?.done).toBe('unavailable')
    expect(await invoice()).toMatchObject({ status: 'failed', error: expect.stringContaining('Redelivery could not be queued') })
    expect(await lettersOf(tenantId)).toMatchObject([{ id: letter!.id, status: 'open' }])

    // Two clicks at once: the invoice is pending again and one message goes to the invoicing queue.
    const { queue, sent } = recordingQueue()
    const answers = await Promise.all([redeliver(queue), redeliver(queue)])
    expect(answers.map((r) => flashOf(r)?.done).sort()).toEqual(['already', 'redelivered'])
    expect(sent).toEqual([sale.job])
    expect(await invoice()).toMatchObject({ status: 'pending' })

    // The invoicing worker takes that message: the invoice is issued, once, at the invoicing system.
    const taken = await runQueue(invoicingWorker, createMessageBatch(INVOICING_QUEUE, [{ id: `again-${sale.tx.id}`, timestamp: new Date(), attempts: 1, body: sent[0] }]), invoicingEnv)
    expect(taken.retries).toEqual([])
    expect(await invoice()).toMatchObject({ status: 'issued', error: null })
    expect(await peerInvoices('fakturownia', sale.tx.hash)).toHaveLength(1)
    expect(await auditOf(tenantId, 'dead_letter.redeliver')).toHaveLength(1)
  })

  it('redeliver all for a school sends each of its open letters once, and no other school’s', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    await letterOf(school, 'events', { eventId: 'evt-1', tenantId: school.tenantId, type: 'student.paid' })
    await letterOf(school, 'mail', { outboxId: 'out-1', tenantId: school.tenantId })
    await letterOf(other, 'mail', { outboxId: 'out-2', tenantId: other.tenantId })
    const admin = await createTestOperator({ role: 'admin' })
    const events = recordingQueue()
    const mail = recordingQueue()
    const vars = { ...withQueue('EVENTS_QUEUE', events.queue), ...withQueue('MAIL_QUEUE', mail.queue) }

    const page = await textOf(appFetch(PLATFORM, `${PATH}?school=${school.slug}`, { cookie: admin.cookie }))
    expect(page).toContain('data-redeliver-all')
    expect(page).toContain('2 letters')
    const first = await appFetch(PLATFORM, PATH, { cookie: admin.cookie, form: { intent: 'redeliver_all', tenantId: school.tenantId }, vars })
    const again = await appFetch(PLATFORM, PATH, { cookie: admin.cookie, form: { intent: 'redeliver_all', tenantId: school.tenantId }, vars })

    expect(first.status).toBe(302)
    expect(flashOf(first)?.values).toEqual({ redelivered: 2, skipped: 0 })
    expect(flashOf(again)?.values).toEqual({ redelivered: 0, skipped: 0 })
    expect(events.sent).toEqual([{ eventId: 'evt-1', tenantId: school.tenantId, type: 'student.paid' }])
    expect(mail.sent).toEqual([{ outboxId: 'out-1', tenantId: school.tenantId }])
    expect((await lettersOf(school.tenantId)).map((l) => l.status)).toEqual(['redelivered', 'redelivered'])
    expect((await lettersOf(other.tenantId)).map((l) => l.status)).toEqual(['open'])
    expect(await auditOf(school.tenantId, 'dead_letter.redeliver')).toHaveLength(2)
  })

  it('discarding needs a reason (EN and PL field errors), then records who and why', async () => {
    const school = await createTestSchool()
    await letterOf(school, 'mail', { outboxId: 'out-3', tenantId: school.tenantId })
    const [letter] = await lettersOf(school.tenantId)
    const admin = await createTestOperator({ role: 'admin' })
    const discard = (reason: string, headers?: HeadersInit) =>
      appFetch(PLATFORM, PATH, { cookie: admin.cookie, form: { intent: 'discard', letterId: letter!.id, tenantId: school.tenantId, reason }, headers })

    const blank = await discard('   ')
    expect(blank.status).toBe(400)
    expect(await textOf(blank)).toMatch(/data-field-error="reason"[^>]*>This field is required</)
    const polish = await discard('', { 'Accept-Language': 'pl' })
    expect(polish.status).toBe(400)
    expect(await textOf(polish)).toMatch(/data-field-error="reason"[^>]*>To pole jest wymagane</)
    expect((await lettersOf(school.tenantId))[0]).toMatchObject({ status: 'open', discard_reason: null })

    const done = await discard('The outbox row was deleted by the owner')
    expect(done.status).toBe(302)
    expect(flashOf(done)?.done).toBe('discarded')
    expect((await lettersOf(school.tenantId))[0]).toMatchObject({ status: 'discarded', discard_reason: 'The outbox row was deleted by the owner' })
    expect(await auditOf(school.tenantId, 'dead_letter.discard')).toMatchObject([{ actor_id: admin.id, target: expect.stringMatching(/^mail:dlq-/) }])
    // A second discard (or a redelivery) of a discarded letter changes nothing.
    expect(flashOf(await discard('again'))?.done).toBe('discard_already')
    const { queue, sent } = recordingQueue()
    await appFetch(PLATFORM, PATH, { cookie: admin.cookie, form: { intent: 'redeliver', letterId: letter!.id, tenantId: school.tenantId }, vars: withQueue('MAIL_QUEUE', queue) })
    expect(sent).toEqual([])
  })

  it('a support operator sees the list without buttons; a crafted POST gets 403 and an audit row', async () => {
    const school = await createTestSchool()
    await letterOf(school, 'events', { eventId: 'evt-2', tenantId: school.tenantId, type: 'student.registered' })
    const [letter] = await lettersOf(school.tenantId)
    const support = await createTestOperator({ role: 'support' })

    const page = await textOf(appFetch(PLATFORM, `${PATH}?school=${school.slug}`, { cookie: support.cookie }))
    expect(page).toContain(`data-dead-letter="${letter!.id}"`)
    expect(page).not.toContain('data-redeliver')
    expect(page).not.toContain('data-discard')

    const { queue, sent } = recordingQueue()
    const res = await appFetch(PLATFORM, PATH, { cookie: support.cookie, form: { intent: 'redeliver', letterId: letter!.id, tenantId: school.tenantId }, vars: withQueue('EVENTS_QUEUE', queue) })
    expect(res.status).toBe(403)
    expect(sent).toEqual([])
    expect((await lettersOf(school.tenantId))[0]!.status).toBe('open')
    const forbidden = await bindings.DB.prepare("SELECT target, after FROM audit_log WHERE actor_id = ? AND action = 'operator.forbidden'").bind(support.id).all<{ target: string; after: string }>()
    expect(forbidden.results).toMatchObject([{ target: 'dead_letters.manage' }])
    expect(JSON.parse(forbidden.results[0]!.after)).toMatchObject({ role: 'support', method: 'POST', path: PATH })
  })

  it('answers 404 for another school’s letter and 400 for a crafted form, never 5xx', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    await letterOf(school, 'mail', { outboxId: 'out-4', tenantId: school.tenantId })
    const [letter] = await lettersOf(school.tenantId)
    const admin = await createTestOperator({ role: 'admin' })
    const post = (form: Record<string, string>) => appFetch(PLATFORM, PATH, { cookie: admin.cookie, form })

    expect((await post({ intent: 'redeliver', letterId: letter!.id, tenantId: other.tenantId })).status).toBe(404)
    expect((await post({ intent: 'discard', letterId: letter!.id, tenantId: other.tenantId, reason: 'not mine' })).status).toBe(404)
    expect((await post({ intent: 'redeliver_all', tenantId: 'no-such-school' })).status).toBe(404)
    expect((await post({ intent: 'explode', letterId: letter!.id, tenantId: school.tenantId })).status).toBe(400)
    expect((await post({ intent: 'redeliver', letterId: 'x'.repeat(500), tenantId: school.tenantId })).status).toBe(400)
    const raw = await appFetch(PLATFORM, PATH, { cookie: admin.cookie, method: 'POST', body: '{"intent":', headers: { 'Content-Type': 'application/json' } })
    expect(raw.status).toBeLessThan(500)
    expect((await lettersOf(school.tenantId))[0]!.status).toBe('open')
    // Odd filters are ignored, not errors.
    expect((await appFetch(PLATFORM, `${PATH}?queue=nope&status=%00&page=-3&school=%3Cscript%3E`, { cookie: admin.cookie })).status).toBe(200)
  })

  it('shows an empty state, and the page in Polish', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const admin = await createTestOperator({ role: 'admin' })

    const empty = await textOf(appFetch(PLATFORM, `${PATH}?school=${school.slug}`, { cookie: admin.cookie }))
    expect(empty).toContain('data-dead-letters-empty')
    expect(empty).toContain('No dead letters match these filters.')

    await letterOf(school, 'mail', { outboxId: 'out-5', tenantId: school.tenantId })
    const polish = await textOf(appFetch(PLATFORM, `${PATH}?school=${school.slug}`, { cookie: admin.cookie, headers: { 'Accept-Language': 'pl' } }))
    expect(polish).toContain('Martwe wiadomości')
    expect(polish).toContain('Wyślij ponownie')
    expect(polish).toContain('Powód odrzucenia')
    expect(polish).toContain('1 wiadomość')
    expect(polish).toContain('Otwarta')
  })

  it('is for operators only: signed out → login', async () => {
    const res = await appFetch(PLATFORM, PATH)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('/operator/login')
  })
})
