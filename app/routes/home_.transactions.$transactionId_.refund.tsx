// POST /home/transactions/{id}/refund (issue 18): the owner refunds a sale the platform collected,
// through its provider (app/payments/refund.server.ts); back to the transaction with the outcome.
// Another school's transaction is 404. Owners only: a refund moves the school's money.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getTransaction } from '#app/models/transaction.server.ts'
import { refundSale } from '#app/payments/refund.server.ts'
import { requireOwner } from '#app/auth/staff.server.ts'
import { actionOnlyLoader, notFound, requireSchool } from '#app/utils/request.server.ts'

const RefundSchema = z.object({ confirm: z.literal('yes') })

export const loader = actionOnlyLoader

export async function action(args: ActionFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  const tx = await getTransaction(context.db, tenant.id, params.transactionId ?? '')
  if (!tx) notFound()
  await requireOwner(args)
  const back = `/home/transactions/${tx.id}`
  if (!RefundSchema.safeParse(Object.fromEntries(await request.formData())).success) return redirect(`${back}?refund=error.confirm`)
  const outcome = await refundSale(context, tenant.id, tx.id)
  if (!outcome.ok) console.warn(JSON.stringify({ event: 'refund_failed', tenantId: tenant.id, transactionId: tx.id, reason: outcome.reason }))
  return redirect(`${back}?refund=${outcome.ok ? 'done' : `error.${outcome.reason}`}`)
}
