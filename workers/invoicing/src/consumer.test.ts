import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it, vi } from 'vitest'
import { getInvoiceForTransaction } from '#app/models/invoice.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { db } from '#tests/factories.ts'
import { backoffSeconds, MAX_DELIVERIES } from './consumer.ts'
import { INVOICING_DLQ, INVOICING_QUEUE, type InvoicingWorkerEnv } from './env.ts'
import defaultWorker, { createInvoicingWorker } from './index.ts'
import { COMPANY, connectInvoicing, failNextCreates, paidSale, peerInvoices } from './test-support.ts'

const testEnv = env as unknown as InvoicingWorkerEnv & { DEV_PEERS: Fetcher }

function batchOf(messages: { body: unknown; attempts?: number }[], queue = INVOICING_QUEUE) {
  return createMessageBatch(
    queue,
    messages.map((m, i) => ({ id: `msg-${i}`, timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  )
}

async function deliver(batch: MessageBatch<unknown>, worker: Pick<typeof defaultWorker, 'queue'> = defaultWorker) {
  const retrySpies = new Map(batch.messages.map((m) => [m.id, vi.spyOn(m, 'retry')]))
  const ctx = createExecutionContext()
  await worker.queue(batch, testEnv)
  const result = await getQueueResult(batch, ctx)
  return {
    acks: [...result.explicitAcks].sort(),
    retries: result.retryMessages.map((r: { msgId: string }) => ({ msgId: r.msgId, delaySeconds: retrySpies.get(r.msgId)?.mock.calls[0]?.[0]?.delaySeconds })),
  }
}

const state = async (tenantId: string, transactionId: string) => ({
  invoice: await getInvoiceForTransaction(db(), tenantId, transactionId),
  invoiceStatus: (await getTransaction(db(), tenantId, transactionId))?.invoiceStatus,
})

describe('invoicing queue consumer', () => {
  it('issues one Fakturownia invoice for an event delivered three times (separately and in one batch)', async () => {
    const sale = await paidSale({ vatRate: 23, unitAmount: 12300 })
    await connectInvoicing(sale.school.tenantId, 'fakturownia')

    const first = await deliver(batchOf([{ body: sale.job }]))
    const second = await deliver(batchOf([{ body: sale.job, attempts: 2 }]))
    const third = await deliver(batchOf([{ body: sale.job }, { body: sale.job }, { body: sale.job }]))

    expect(first.acks).toEqual(['msg-0'])
    expect(second.acks).toEqual(['msg-0'])
    expect(third.acks).toEqual(['msg-0', 'msg-1', 'msg-2'])
    const issued = await peerInvoices('fakturownia', sale.tx.hash)
    expect(issued).toHaveLength(1)
    expect(issued[0]).toMatchObject({ gross_total: 12300, reference: sale.tx.hash })
    const { invoice, invoiceStatus } = await state(sale.school.tenantId, sale.tx.id)
    expect(invoiceStatus).toBe('issued')
    expect(invoice).toMatchObject({ status: 'issued', provider: 'fakturownia', number: issued[0]!.number, externalId: String(issued[0]!.id), attempts: 1, error: null })
    expect(invoice?.number).toMatch(/^FV \d+\/\d+\/\d{4}$/)
    expect(invoice?.url).toMatch(/^https:\/\/coursefront-dev\.fakturownia\.pl\/invoice\/[0-9a-f]{32}$/)
  })

  it('a batch of 10 with one malformed message and one that throws: the other 8 invoiced once, the thrown one on redelivery', async () => {
    const first = await paidSale()
    const school = first.school
    await connectInvoicing(school.tenantId, 'infakt')
    const sales = [first, ...(await Promise.all(Array.from({ length: 8 }, () => paidSale({ school }))))]
    const throwing = sales[4]!
    // A connection that breaks while the answer is read (not an adapter error): the consumer throws for this message only.
    const breaking = createInvoicingWorker({
      fetch: async (input, init) => {
        const body = typeof init?.body === 'string' ? init.body : ''
        if (body.includes(throwing.tx.hash)) return new Response(new ReadableStream({ start: (c) => c.error(new Error('connection reset')) }), { status: 201 })
        return testEnv.DEV_PEERS.fetch(new Request(input instanceof Request ? input.url : String(input), init))
      },
    })
    const bodies = sales.map((s) => ({ body: s.job as unknown }))
    bodies.splice(7, 0, { body: { eventId: 42, tenantId: school.tenantId } })

    const result = await deliver(batchOf(bodies), breaking)

    expect(bodies).toHaveLength(10)
    expect(result.retries).toEqual([{ msgId: 'msg-4', delaySeconds: 60 }])
    expect(result.acks).toEqual(['msg-0', 'msg-1', 'msg-2', 'msg-3', 'msg-5', 'msg-6', 'msg-7', 'msg-8', 'msg-9'])
    const invoices = await peerInvoices('infakt', undefined)
    const mine = (s: (typeof sales)[number]) => invoices.filter((i) => i.reference === `Zamówienie ${s.tx.hash}`)
    expect(sales.map((s) => mine(s).length)).toEqual([1, 1, 1, 1, 0, 1, 1, 1, 1])
    expect(await state(school.tenantId, throwing.tx.id)).toMatchObject({ invoiceStatus: 'pending', invoice: { status: 'pending', attempts: 1 } })

    // Redelivered (with the whole batch again, as a replay would): only the thrown one is issued now.
    const again = await deliver(batchOf(bodies.map((b) => ({ ...b, attempts: 2 }))))
    expect(again.retries).toEqual([])
    expect(sales.map((s) => mine(s).length)).toEqual([1, 1, 1, 1, 0, 1, 1, 1, 1])
    const after = await peerInvoices('infakt', undefined)
    expect(sales.map((s) => after.filter((i) => i.reference === `Zamówienie ${s.tx.hash}`).length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1])
    expect(await state(school.tenantId, throwing.tx.id)).toMatchObject({ invoiceStatus: 'issued', invoice: { status: 'issued', attempts: 2 } })
  })

  it('a 503 keeps the invoice pending and retries with backoff; the next delivery issues it once', async () => {
    const sale = await paidSale()
    await connectInvoicing(sale.school.tenantId, 'fakturownia')
    await failNextCreates('fakturownia', 1, 503)

    const first = await deliver(batchOf([{ body: sale.job }]))
    expect(first.retries).toEqual([{ msgId: 'msg-0', delaySeconds: 60 }])
    const pending = await state(sale.school.tenantId, sale.tx.id)
    expect(pending).toMatchObject({ invoiceStatus: 'pending', invoice: { status: 'pending', attempts: 1 } })
    expect(pending.invoice?.error).toContain('HTTP 503')

    const second = await deliver(batchOf([{ body: sale.job, attempts: 2 }]))
    expect(second.acks).toEqual(['msg-0'])
    expect(await peerInvoices('fakturownia', sale.tx.hash)).toHaveLength(1)
    expect(await state(sale.school.tenantId, sale.tx.id)).toMatchObject({ invoiceStatus: 'issued', invoice: { status: 'issued', attempts: 2, error: null } })
  })

  it('finds the invoice a lost answer already created instead of issuing a second one', async () => {
    const sale = await paidSale()
    await connectInvoicing(sale.school.tenantId, 'ifirma', { login: 'coursefront-dev', invoiceKey: 'C0FFEE0123456789' })
    const withAddress = await paidSale({ school: sale.school, invoiceDetails: { ...COMPANY } })
    // The create reaches iFirma, but its answer is lost on the way back.
    const losing = createInvoicingWorker({
      fetch: async (input, init) => {
        const res = await testEnv.DEV_PEERS.fetch(new Request(input instanceof Request ? input.url : String(input), init))
        if (init?.method === 'POST') throw new Error('socket hang up')
        return res
      },
    })
    const lost = await deliver(batchOf([{ body: withAddress.job }]), losing)
    expect(lost.retries).toEqual([{ msgId: 'msg-0', delaySeconds: 60 }])
    expect(await peerInvoices('ifirma', withAddress.tx.hash)).toHaveLength(1)

    const retried = await deliver(batchOf([{ body: withAddress.job, attempts: 2 }]))
    expect(retried.acks).toEqual(['msg-0'])
    const issued = await peerInvoices('ifirma', withAddress.tx.hash)
    expect(issued).toHaveLength(1)
    expect(await state(sale.school.tenantId, withAddress.tx.id)).toMatchObject({ invoiceStatus: 'issued', invoice: { status: 'issued', number: issued[0]!.number, attempts: 2 } })
  })

  it('fails at once, with the reason, when the system refuses the credentials', async () => {
    const sale = await paidSale()
    await connectInvoicing(sale.school.tenantId, 'fakturownia', { account: 'coursefront-dev', apiToken: 'wrong-token' })

    const result = await deliver(batchOf([{ body: sale.job }]))

    expect(result.acks).toEqual(['msg-0'])
    const { invoice, invoiceStatus } = await state(sale.school.tenantId, sale.tx.id)
    expect(invoiceStatus).toBe('failed')
    expect(invoice?.error).toBe('Fakturownia: You must be logged in to gain access to this site (HTTP 401)')
    expect(await peerInvoices('fakturownia', sale.tx.hash)).toHaveLength(0)
  })

  it('gives up on the last delivery the queue allows', async () => {
    const sale = await paidSale()
    await connectInvoicing(sale.school.tenantId, 'infakt')
    await failNextCreates('infakt', 1, 500)

    const result = await deliver(batchOf([{ body: sale.job, attempts: MAX_DELIVERIES }]))

    expect(result.acks).toEqual(['msg-0'])
    expect(await state(sale.school.tenantId, sale.tx.id)).toMatchObject({ invoiceStatus: 'failed', invoice: { status: 'failed' } })
  })

  it('the dead letter queue marks a still-pending invoice failed with the reason', async () => {
    const sale = await paidSale()
    await connectInvoicing(sale.school.tenantId, 'fakturownia')
    await failNextCreates('fakturownia', 1, 502)
    await deliver(batchOf([{ body: sale.job }]))

    const dead = await deliver(batchOf([{ body: sale.job }, { body: 'garbage' }], INVOICING_DLQ))

    expect(dead.acks).toEqual(['msg-0', 'msg-1'])
    const { invoice, invoiceStatus } = await state(sale.school.tenantId, sale.tx.id)
    expect(invoiceStatus).toBe('failed')
    expect(invoice?.error).toMatch(/^Gave up after the queue retried it\. Last error: Fakturownia: .*HTTP 502/)
  })

  it('acks events of schools without an invoicing system, and of another school, without touching anything', async () => {
    const sale = await paidSale()
    const other = await paidSale()
    await connectInvoicing(other.school.tenantId, 'fakturownia')

    const result = await deliver(batchOf([{ body: sale.job }, { body: { ...sale.job, tenantId: other.school.tenantId } }]))

    expect(result.acks).toEqual(['msg-0', 'msg-1'])
    expect(await state(sale.school.tenantId, sale.tx.id)).toEqual({ invoice: undefined, invoiceStatus: 'none' })
    expect(await peerInvoices('fakturownia', sale.tx.hash)).toHaveLength(0)
  })
})

describe('backoffSeconds', () => {
  it('doubles from a minute and caps at an hour', () => {
    expect([1, 2, 3, 4, 5, 6].map(backoffSeconds)).toEqual([60, 120, 240, 480, 960, 1920])
    expect(backoffSeconds(10)).toBe(3600)
  })
})
