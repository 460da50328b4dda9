// /home/settings/payments/guide?provider={provider} (issue 25): how to connect a payment provider — what the
// creator needs from the provider's panel, the notification URL, test credentials — from
// docs/payments/{provider}.md (the same file the repository's docs link to), rendered with the
// app's sanitising markdown. Staff of the school only; an unknown provider is 404.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { requireStaff } from '#app/auth/staff.server.ts'
import { paymentGuide } from '#app/payments/guides.server.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { useT } from '#app/utils/i18n-react.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const provider = new URL(args.request.url).searchParams.get('provider') ?? ''
  const guide = /^[a-z0-9]{2,12}$/.test(provider) ? paymentGuide(provider) : null
  if (!guide) notFound()
  const t = getT(args.request, args.context)
  const name = t(`payments.provider.${provider}`)
  return { provider, name, html: renderMarkdown(guide), pageTitle: `${t('payments.guide.title', { provider: name })} · ${tenant.name}` }
}

export default function PaymentGuideRoute() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <PageTitle>{t('payments.guide.title', { provider: data.name })}</PageTitle>
      <p>
        <Link to="/home/settings/payments" className="text-sm font-semibold text-brand-700 underline">
          {t('payments.guide.back')}
        </Link>
      </p>
      <Card>
        <div className="prose max-w-none text-sm" data-provider-guide-body={data.provider} dangerouslySetInnerHTML={{ __html: data.html }} />
      </Card>
    </div>
  )
}
