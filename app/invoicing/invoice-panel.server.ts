// What /home/transactions/{id} shows about the sale's invoice (issue 9 item 2): status, number and
// link from the invoices row, the system's reason when it failed, and whether Retry applies.
import type { ShardDb } from '#app/db/client.server.ts'
import { getActiveIntegrationOfKind } from '#app/models/business-integration.server.ts'
import { getInvoiceForTransaction } from '#app/models/invoice.server.ts'
import type { Transaction } from '#app/models/transaction.server.ts'

export type InvoicePanelData = {
  transactionId: string
  status: 'none' | 'pending' | 'issued' | 'failed'
  provider: string | null
  number: string | null
  url: string | null
  error: string | null
  attempts: number
  /** A failed invoice, or a completed sale without one while a system is connected. */
  canRetry: boolean
}

export async function loadInvoicePanel(db: ShardDb, tenantId: string, tx: Pick<Transaction, 'id' | 'status' | 'invoiceStatus'>): Promise<InvoicePanelData> {
  const [invoice, integration] = await Promise.all([getInvoiceForTransaction(db, tenantId, tx.id), getActiveIntegrationOfKind(db, tenantId, 'invoice')])
  const status = invoice?.status ?? tx.invoiceStatus
  return {
    transactionId: tx.id,
    status,
    provider: invoice?.provider ?? null,
    number: invoice?.number ?? null,
    // The school's PDF route (owners may open it too): works for every system and in development.
    url: invoice?.status === 'issued' && invoice.externalId ? `/panel/invoices/${tx.id}` : null,
    error: status === 'failed' || status === 'pending' ? (invoice?.error ?? null) : null,
    attempts: invoice?.attempts ?? 0,
    canRetry: !!integration && tx.status === 'completed' && (status === 'failed' || (status === 'none' && !invoice)),
  }
}
