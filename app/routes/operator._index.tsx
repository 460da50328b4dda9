// The operator dashboard (issue 27 §1): how the platform is doing across every school — schools,
// GMV and platform fees per currency per day, sales, failing custom domains, queue health and
// recent errors. Aggregates only (app/models/platform-stats.server.ts). The school list that used
// to live here is /operator/schools; its old addresses (search, filter, the suspend notice) are
// sent there.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { redirect } from '@remix-run/cloudflare'
import { Form, useLoaderData } from '@remix-run/react'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { Button, PageTitle } from '#app/components/ui.tsx'
import { shardDbs } from '#app/db/shards.server.ts'
import { getPlatformDashboard } from '#app/models/platform-stats.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { DashboardPage } from '#app/operator/dashboard/dashboard-page.tsx'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

/** Query parameters of the school list when it lived at /operator. */
const LIST_PARAMS = ['q', 'status', 'page', 'changed', 'to']

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const url = new URL(request.url)
  if (LIST_PARAMS.some((p) => url.searchParams.has(p))) throw redirect(`/operator/schools${url.search}`)
  const now = Date.now()
  const dashboard = await getPlatformDashboard(context.control, shardDbs(context.cloudflare.env), now)
  return {
    title: `${getT(request, context)('operator.dashboard.title')} · Coursefront`,
    operator: { name: operator.name },
    now,
    dashboard,
  }
}

export default function OperatorDashboard() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <OperatorNav />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageTitle subtitle={t('operator.dashboard.intro', { days: data.dashboard.days })}>{t('operator.dashboard.title')}</PageTitle>
        <Form method="post" action="/operator/logout">
          <Button type="submit" variant="secondary">
            {t('nav.logout')} ({data.operator.name})
          </Button>
        </Form>
      </div>
      <DashboardPage data={data.dashboard} locale={locale} now={data.now} />
    </div>
  )
}
