// /payments/{provider}/{integrationId}/card/{hash} (issue 25): the card page of a checkout paid
// through a provider's hosted fields (Braintree, Paylane, PayU's Secure Form for memberships).
// GET: the pending transaction's summary and the provider's fields (its scripts allowed in this
// page's CSP only). POST {token}: the sale with that one-time token, then the provider's API
// decides and the buyer goes on to the pending page. Only the buyer (and the school's staff) may
// open it, like /transaction/{hash}; another school's, provider's or integration's is 404.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { readBuyerTransaction } from '#app/checkout/pending.server.ts'
import { Alert, Card, PageTitle } from '#app/components/ui.tsx'
import { HostedCardForm } from '#app/payments/components/hosted-card-form.tsx'
import { loadCardPage, payWithHostedToken } from '#app/payments/providers/hosted-fields.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { PROVIDER_ORIGINS_MEMO_KEY, type ProviderOrigins } from '#app/utils/security.server.ts'
import { readFormFields } from '#app/utils/validation.ts'
import { useT } from '#app/utils/i18n-react.ts'

const NO_STORE = { 'Cache-Control': 'private, no-store' }
const TokenSchema = z.object({ token: z.string().trim().min(1).max(4096) })

export const meta: MetaFunction = ({ data }) => [{ title: (data as { pageTitle?: string } | undefined)?.pageTitle }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  await readBuyerTransaction(request, context, params.hash ?? '')
  const locale = getLocale(request, context)
  const card = await loadCardPage(context, tenant.id, params, locale, new URL(request.url).origin)
  if (!card) notFound()
  if (card.kind === 'done') throw redirect(`/transaction/${card.hash}/pending`, { status: 303, headers: NO_STORE })
  const t = getT(request, context)
  const providerName = t(`payments.provider.${params.provider}`)
  const tx = card.tx
  if (card.kind === 'page') context.memo.set(PROVIDER_ORIGINS_MEMO_KEY, card.page.origins satisfies ProviderOrigins)
  return Response.json(
    {
      provider: params.provider!,
      providerName,
      available: card.kind === 'page',
      scripts: card.kind === 'page' ? card.page.scripts : [],
      config: card.kind === 'page' ? card.page.config : {},
      locale,
      amount: formatMoney(tx.totalAmount, tx.currency, locale),
      product: tx.quantity > 1 ? `${tx.productTitle} × ${tx.quantity}` : tx.productTitle,
      checkoutPath: tx.checkoutPath ?? '/',
      pageTitle: `${t('cards.pay.title')} · ${tenant.name}`,
    },
    { headers: NO_STORE },
  )
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  await readBuyerTransaction(request, context, params.hash ?? '')
  // A body that is not a form (JSON, broken multipart) is a wrong token like any other, never a 500.
  const parsed = TokenSchema.safeParse((await readFormFields(request)) ?? {})
  if (!parsed.success) return Response.json({ error: 'cards.error.invalid' }, { status: 422, headers: NO_STORE })
  const outcome = await payWithHostedToken(context, tenant.id, params, parsed.data.token, request)
  if (!outcome) notFound()
  if (outcome.kind === 'done') throw redirect(`/transaction/${outcome.hash}/pending`, { status: 303, headers: NO_STORE })
  if (outcome.kind === 'redirect') throw redirect(outcome.url, { status: 303, headers: NO_STORE })
  // A declined card: the issuer's reason in the seed's words when the provider gives it; the buyer may try another card here.
  if (outcome.kind === 'declined') return Response.json({ error: outcome.declineReason ? `payment.failure.${outcome.declineReason}` : 'cards.error.declined' }, { status: 422, headers: NO_STORE })
  return Response.json({ error: `cards.error.${outcome.kind}` }, { status: outcome.kind === 'unavailable' ? 503 : 422, headers: NO_STORE })
}

type LoaderData = { provider: string; providerName: string; available: boolean; scripts: string[]; config: Record<string, unknown>; locale: 'en' | 'pl'; amount: string; product: string; checkoutPath: string }

export default function HostedCardPaymentRoute() {
  const data = useLoaderData<LoaderData>()
  const answer = useActionData<{ error?: string }>()
  const t = useT()
  return (
    <div className="mx-auto max-w-md space-y-6 px-4 py-10">
      <PageTitle subtitle={t('cards.pay.summary', { product: data.product, amount: data.amount })}>{t('cards.pay.title')}</PageTitle>
      <Card>
        {data.available ? (
          <HostedCardForm
            provider={data.provider}
            providerName={data.providerName}
            scripts={data.scripts}
            config={data.config}
            locale={data.locale}
            submitLabel={t('cards.pay.submit', { amount: data.amount })}
            errorKey={answer?.error ?? null}
          />
        ) : (
          <Alert>{t('cards.error.page', { provider: data.providerName })}</Alert>
        )}
      </Card>
      <p>
        <a href={data.checkoutPath} className="text-sm font-semibold text-brand-700 underline">
          {t('cards.back')}
        </a>
      </p>
    </div>
  )
}
