// /my/membership/card/fields?membership={id} (issue 25): a new card for a membership the school's
// provider charges through hosted fields (Braintree, Paylane, PayU's Secure Form). GET shows the
// provider's fields (its scripts allowed in this page's CSP only); POST {token} keeps the card at
// the provider and goes back to the panel. Only the membership's own student; anyone else's is 404.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { requireUser } from '#app/auth/auth.server.ts'
import { Alert, Card, PageTitle } from '#app/components/ui.tsx'
import { backToPanel } from '#app/membership/answers.server.ts'
import { cardFieldsPage, saveHostedCard } from '#app/membership/card-update.server.ts'
import { getMembershipForUser } from '#app/models/membership.server.ts'
import { HostedCardForm } from '#app/payments/components/hosted-card-form.tsx'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { PROVIDER_ORIGINS_MEMO_KEY } from '#app/utils/security.server.ts'
import { readFormFields } from '#app/utils/validation.ts'
import { useT } from '#app/utils/i18n-react.ts'

const NO_STORE = { 'Cache-Control': 'private, no-store' }
const TokenSchema = z.object({ token: z.string().trim().min(1).max(4096), membership: z.string().max(64).optional() })

export const meta: MetaFunction = ({ data }) => [{ title: (data as { pageTitle?: string } | undefined)?.pageTitle }, { name: 'robots', content: 'noindex' }]

async function membershipOf({ request, context }: Pick<LoaderFunctionArgs, 'request' | 'context'>, id: string | null) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context)
  const membership = id && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await getMembershipForUser(context.db, tenant.id, user.id, id) : undefined
  if (!membership) notFound()
  return { tenant, user, membership }
}

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args
  const { tenant, membership } = await membershipOf(args, new URL(request.url).searchParams.get('membership'))
  const locale = getLocale(request, context)
  const page = await cardFieldsPage(context, tenant.id, membership, locale, new URL(request.url).origin)
  if (!page.ok && page.problem === 'not_supported') throw backToPanel({ membership_error: 'card_not_supported', membership: membership.id }, membership.id)
  const t = getT(request, context)
  if (page.ok) context.memo.set(PROVIDER_ORIGINS_MEMO_KEY, page.page.origins)
  const provider = membership.provider ?? ''
  return Response.json(
    {
      membershipId: membership.id,
      provider,
      providerName: t(`payments.provider.${provider}`),
      product: membership.productTitle,
      available: page.ok,
      scripts: page.ok ? page.page.scripts : [],
      config: page.ok ? page.page.config : {},
      locale,
      pageTitle: `${t('cards.update.title', { product: membership.productTitle })} · ${tenant.name}`,
    },
    { headers: NO_STORE },
  )
}

export async function action(args: ActionFunctionArgs) {
  // A body that is not a form (JSON, broken multipart) is a wrong token like any other, never a 500.
  const form = (await readFormFields(args.request)) ?? {}
  const { tenant, user, membership } = await membershipOf(args, typeof form.membership === 'string' ? form.membership : new URL(args.request.url).searchParams.get('membership'))
  const parsed = TokenSchema.safeParse(form)
  if (!parsed.success) return Response.json({ error: 'cards.error.invalid' }, { status: 422, headers: NO_STORE })
  const saved = await saveHostedCard(args.context, tenant.id, user, membership, parsed.data.token, args.request.headers.get('CF-Connecting-IP') ?? '127.0.0.1')
  if (saved.ok) return backToPanel({ membership_notice: 'card_updated', membership: membership.id }, membership.id)
  if (saved.problem === 'not_supported') return backToPanel({ membership_error: 'card_not_supported', membership: membership.id }, membership.id)
  return Response.json({ error: `cards.update.error.${saved.problem}` }, { status: saved.problem === 'unavailable' ? 503 : 422, headers: NO_STORE })
}

type LoaderData = { membershipId: string; provider: string; providerName: string; product: string; available: boolean; scripts: string[]; config: Record<string, unknown>; locale: 'en' | 'pl' }

export default function MembershipCardFieldsRoute() {
  const data = useLoaderData<LoaderData>()
  const answer = useActionData<{ error?: string }>()
  const t = useT()
  return (
    <div className="mx-auto max-w-md space-y-6 px-4 py-10">
      <PageTitle subtitle={t('cards.update.intro')}>{t('cards.update.title', { product: data.product })}</PageTitle>
      <Card>
        {data.available ? (
          <HostedCardForm
            provider={data.provider}
            providerName={data.providerName}
            scripts={data.scripts}
            config={data.config}
            locale={data.locale}
            submitLabel={t('cards.update.submit')}
            errorKey={answer?.error ?? null}
            hidden={{ membership: data.membershipId }}
          />
        ) : (
          <Alert>{t('cards.update.error.unavailable')}</Alert>
        )}
      </Card>
      <p>
        <a href={`/panel#membership-${data.membershipId}`} className="text-sm font-semibold text-brand-700 underline">
          {t('panel.back', {})}
        </a>
      </p>
    </div>
  )
}
