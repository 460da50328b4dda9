import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { getInvoiceForTransaction } from '#app/models/invoice.server.ts'
import { createMessageBatch } from 'cloudflare:test'
import { db } from '#tests/factories.ts'
import { dlqBatch, lettersOf, runQueue } from '../../shared/dead-letter-test-support.ts'
import { INVOICING_DLQ, INVOICING_QUEUE, type InvoicingWorkerEnv } from './env.ts'
import worker from './index.ts'
import { connectInvoicing, failNextCreates, paidSale } from './test-support.ts'

const testEnv = env as unknown as InvoicingWorkerEnv

describe('dead letter queue of the invoicing worker', () => {
  it('marks the pending invoice failed and records the message once, with the invoice’s error as the reason', async () => {
    const sale = await paidSale()
    await connectInvoicing(sale.school.tenantId, 'fakturownia')
    await failNextCreates('fakturownia', 1, 502)
    await runQueue(worker, createMessageBatch(INVOICING_QUEUE, [{ id: `first-${sale.tx.id}`, timestamp: new Date(), attempts: 1, body: sale.job }]), testEnv)
    const id = `dlq-invoice-${sale.tx.id}`

    const first = await runQueue(worker, dlqBatch(INVOICING_DLQ, [sale.job], { id }), testEnv)
    const again = await runQueue(worker, dlqBatch(INVOICING_DLQ, [sale.job], { id }), testEnv)

    expect(first.acks).toEqual([id])
    expect(again.acks).toEqual([id])
    const invoice = await getInvoiceForTransaction(db(), sale.school.tenantId, sale.tx.id)
    expect(invoice).toMatchObject({ status: 'failed', attempts: 1 })
    const letters = await lettersOf(testEnv, sale.school.tenantId, 'invoicing')
    expect(letters).toHaveLength(1)
    expect(letters[0]).toMatchObject({ messageId: id, reason: invoice!.error, attempts: 1, status: 'open' })
    expect(letters[0]!.reason).toMatch(/^Gave up after the queue retried it\. Last error: Fakturownia: .*HTTP 502/)
    expect(JSON.parse(letters[0]!.body)).toEqual(sale.job)
  })
})
