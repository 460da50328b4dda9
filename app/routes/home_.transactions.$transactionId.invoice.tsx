// POST /home/transactions/{id}/invoice — the owner's Retry (seed 001 §4 "Invoice attempt can be
// retried"): a failed invoice goes back to pending and the sale's student.paid event is queued
// for the invoicing worker again (which finds an invoice the system already has by our
// reference). Also issues one for a completed sale that has none while a system is connected.
// Resource route: GET leads back to the transaction. Another school's id is 404.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { getActiveIntegrationOfKind } from '#app/models/business-integration.server.ts'
import { getInvoiceForTransaction, getPaidEventForTransaction, recordInvoiceFailure, reopenFailedInvoice } from '#app/models/invoice.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

async function requireTransaction(context: LoaderFunctionArgs['context'], tenantId: string, id: string | undefined) {
  const tx = id ? await getTransaction(context.db, tenantId, id) : undefined
  if (!tx) notFound()
  return tx
}

export async function loader(args: LoaderFunctionArgs) {
  const tenant = requireSchool(args.context)
  const tx = await requireTransaction(args.context, tenant.id, args.params.transactionId)
  await requireStaff(args)
  throw redirect(`/home/transactions/${tx.id}`)
}

export async function action(args: ActionFunctionArgs) {
  const { context } = args
  const tenant = requireSchool(context)
  const tx = await requireTransaction(context, tenant.id, args.params.transactionId)
  await requireStaff(args)
  const back = (notice: string) => redirect(`/home/transactions/${tx.id}?invoice=${notice}`, 303)

  if (!(await getActiveIntegrationOfKind(context.db, tenant.id, 'invoice'))) throw back('not_connected')
  const [invoice, event] = await Promise.all([getInvoiceForTransaction(context.db, tenant.id, tx.id), getPaidEventForTransaction(context.db, tenant.id, tx.id)])
  if (!event || tx.status !== 'completed') throw back('nothing_to_retry')
  if (invoice) {
    if (!(await reopenFailedInvoice(context.db, tenant.id, tx.id))) throw back('nothing_to_retry')
  }
  const queue = context.cloudflare.env.INVOICING_QUEUE
  try {
    if (!queue) throw new Error('INVOICING_QUEUE is not bound')
    await queue.send({ eventId: event.id, tenantId: tenant.id, type: 'student.paid' })
  } catch (error) {
    console.error(JSON.stringify({ event: 'invoice_retry_queue_failed', tenantId: tenant.id, transactionId: tx.id, error: String(error) }))
    // Back to failed: nothing will pick a pending invoice up.
    if (invoice) await recordInvoiceFailure(context.db, tenant.id, invoice, `Retry could not be queued (${String(error).slice(0, 200)})`, true)
    throw back('queue_unavailable')
  }
  throw back('retried')
}
