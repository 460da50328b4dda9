// GET /panel/invoices/{transactionId} — the buyer's invoice as a PDF, fetched from the school's
// invoicing system with the school's credentials (inFakt and iFirma have no public link; the
// student never sees the keys). Only the buyer and the school's staff; another school's id, someone
// else's purchase or an invoice not issued yet is 404. Resource route.
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { InvoicingError } from '#app/invoicing/adapter.server.ts'
import { invoicingAdapter, isInvoiceProvider } from '#app/invoicing/registry.server.ts'
import { getActiveIntegrationOfKind, getBusinessIntegration, openBusinessCredentials } from '#app/models/business-integration.server.ts'
import { getInvoiceForTransaction } from '#app/models/invoice.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // Looked up in this school first: another school's id is 404 for everyone.
  const tx = params.transactionId ? await getTransaction(context.db, tenant.id, params.transactionId) : undefined
  if (!tx) notFound()
  const user = await requireUser(request, context)
  if (tx.userId !== user.id && user.role !== 'owner' && user.role !== 'admin') notFound()
  const invoice = await getInvoiceForTransaction(context.db, tenant.id, tx.id)
  if (!invoice || invoice.status !== 'issued' || !invoice.externalId || !isInvoiceProvider(invoice.provider)) notFound()

  // The integration that issued it; after a reconnect, the school's current one of the same system.
  const byId = invoice.integrationId ? await getBusinessIntegration(context.db, tenant.id, invoice.integrationId) : undefined
  const active = byId ?? (await getActiveIntegrationOfKind(context.db, tenant.id, 'invoice'))
  const integration = active && active.provider === invoice.provider ? active : undefined
  const env = context.cloudflare.env
  const credentials = integration && env.INTEGRATIONS_KEY ? await openBusinessCredentials(env.INTEGRATIONS_KEY, integration) : null
  if (!credentials) notFound()

  const t = getT(request, context)
  try {
    const pdf = await invoicingAdapter(env, invoice.provider, credentials).pdf(invoice.externalId)
    if (!pdf) notFound()
    const filename = `${(invoice.number ?? 'invoice').replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`
    return new Response(pdf, {
      headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `inline; filename="${filename}"`, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
    })
  } catch (error) {
    if (!(error instanceof InvoicingError)) throw error
    console.error(JSON.stringify({ event: 'invoice_pdf_failed', tenantId: tenant.id, transactionId: tx.id, error: error.message }))
    return new Response(t('integrations.error.unavailable', { provider: t(`integrations.provider.${invoice.provider}`) }), { status: 502, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
  }
}
