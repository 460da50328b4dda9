// /transaction/{hash}: the pending-transaction page (seed 000 widget 13, §4 "Transaction polling",
// §8). It polls POST /transaction/{hash}/pending every 5 s; without JavaScript a meta refresh and a
// link keep it current. Only the buyer and the school's staff; another school's hash is 404.
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { PendingStatus } from '#app/checkout/components/pending-status.tsx'
import { pendingHeaders, pendingView, readBuyerTransaction } from '#app/checkout/pending.server.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, tx } = await readBuyerTransaction(request, context, params.hash ?? '')
  const view = await pendingView(context, tenant.id, tx)
  return data({ ...view, title: getT(request, context)('checkout.pending.title'), locale: tenant.language }, { headers: pendingHeaders(request, view.status) })
}

export default function PendingPage() {
  const d = useLoaderData<typeof loader>()
  return <PendingStatus initial={d} locale={d.locale} />
}
