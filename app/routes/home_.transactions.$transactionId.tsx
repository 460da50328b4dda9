// One transaction of the school (issue 8 item 8): the order's figures, the buyer's, invoice and
// shipping snapshots, the consent times and the provider events that moved it; for the owner, the
// refund form of a sale collected through Coursefront (issue 18).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { TransactionDetail } from '#app/payments/components/transaction-detail.tsx'
import { loadInvoicePanel } from '#app/invoicing/invoice-panel.server.ts'
import { getTransactionDetail } from '#app/models/transaction-report.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { request, context, params } = args
  const tenant = requireSchool(context)
  // Looked up in this school first: another school's id is 404 for everyone.
  const transaction = await getTransactionDetail(context.db, tenant.id, params.transactionId ?? '')
  if (!transaction) notFound()
  const { user } = await requireStaff(args)
  const { hash: _hash, ...shown } = transaction
  const invoicePanel = await loadInvoicePanel(context.db, tenant.id, transaction)
  return { title: `${transaction.productTitle} · ${getT(request, context)('money.transactions.title')} · ${tenant.name}`, transaction: shown, invoicePanel, canRefund: user.role === 'owner' }
}

export default function TransactionPage() {
  return <TransactionDetail data={useLoaderData<typeof loader>()} />
}
