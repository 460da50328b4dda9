import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { SetupChecklist } from '#app/shell/components/dashboard-checklist.tsx'
import { DashboardFigures } from '#app/shell/components/dashboard-figures.tsx'
import { DASHBOARD_DAYS, getDashboard } from '#app/models/dashboard.server.ts'
import { listTenantDomains } from '#app/models/domain.server.ts'
import { awaitsSignupConfirmation } from '#app/models/signup-confirmation.server.ts'
import { countUsersByRole, listUsers } from '#app/models/user.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  const [dashboard, domains, counts, students, team, confirmPending] = await Promise.all([
    getDashboard(context, tenant),
    listTenantDomains(context.control, tenant.id),
    countUsersByRole(context.db, tenant.id),
    listUsers(context.db, tenant.id, { role: 'student', limit: 20 }),
    listUsers(context.db, tenant.id, { limit: 20 }).then((all) => all.filter((u) => u.role !== 'student')),
    user.role === 'owner' ? awaitsSignupConfirmation(context.db, tenant.id, user.id) : false,
  ])
  const port = new URL(request.url).port
  return {
    title: `${getT(request, context)('home.title')} · ${tenant.name}`,
    school: tenant.name,
    currency: tenant.currency,
    // The setup checklist and the last 30 days (issue 23 item 2), first on the page.
    setup: dashboard.setup,
    missingPage: dashboard.missingPage,
    figures: { since: dashboard.since, days: DASHBOARD_DAYS, revenue: dashboard.revenue, sales: dashboard.sales, newStudents: dashboard.newStudents },
    domains: domains.map((d) => ({ hostname: d.hostname, kind: d.kind, status: d.verificationStatus, port })),
    // The owner has not confirmed the address they signed up with (issue 19 §4): a banner and a resend button.
    confirm: confirmPending ? { email: user.email } : null,
    studentCount: counts.student ?? 0,
    students,
    team,
  }
}

function ConfirmBanner({ confirm }: { confirm: { email: string } | null }) {
  const t = useT()
  const [params] = useSearchParams()
  const outcome = params.get('confirm')
  if (!confirm) return null
  return (
    <Card data-confirm-email>
      <h2 className="text-lg font-semibold">{t('limits.confirm_banner.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('limits.confirm_banner.text', { email: confirm.email })}</p>
      {outcome === 'sent' || outcome === 'limited' ? (
        <div className="mt-3" data-confirm-outcome={outcome} role="status">
          <Alert tone={outcome === 'sent' ? 'success' : undefined}>{t(outcome === 'sent' ? 'limits.confirm_banner.sent' : 'limits.confirm_banner.limited', { email: confirm.email })}</Alert>
        </div>
      ) : null}
      <Form method="post" action="/home/confirm-email" className="mt-3">
        <Button type="submit" variant="secondary">
          {t('limits.confirm_banner.resend')}
        </Button>
      </Form>
    </Card>
  )
}

export default function InstructorHome() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('home.live', { name: data.school })}>{t('home.title')}</PageTitle>
      <ConfirmBanner confirm={data.confirm} />
      <SetupChecklist setup={data.setup} missingPage={data.missingPage} />
      <DashboardFigures data={data.figures} currency={data.currency} locale={locale} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="text-lg font-semibold">{t('home.addresses')}</h2>
          <ul className="mt-3 space-y-2">
            {data.domains.map((d) => (
              <li key={d.hostname} className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="text-sm text-slate-500">{t(d.kind === 'custom' ? 'home.address.custom' : 'home.address.subdomain')}</span>
                <span className="font-mono text-sm">
                  {d.hostname}
                  {d.port ? `:${d.port}` : ''}
                  {d.status === 'active' ? null : <span className="ml-2 text-amber-700">({t(`domains.status.${d.status}`)})</span>}
                </span>
              </li>
            ))}
          </ul>
          {/* The other panel pages are in the sidebar; this one belongs with the addresses above. */}
          <Link to="/home/settings/domain" className="mt-4 inline-block text-sm font-semibold text-brand-700 hover:underline">
            {t('dashboard.addresses.manage')} →
          </Link>
        </Card>
        <Card>
          <h2 className="text-lg font-semibold">{t('home.team.title')}</h2>
          <ul className="mt-3 space-y-2">
            {data.team.map((u) => (
              <li key={u.id} className="flex justify-between gap-2 text-sm">
                <span>
                  {u.name} <span className="text-slate-500">({u.email})</span>
                </span>
                <span className="text-slate-500">{t(`role.${u.role}`)}</span>
              </li>
            ))}
          </ul>
        </Card>
      </div>
      <Card>
        <h2 className="text-lg font-semibold">
          {t('home.students.title')} <span className="text-sm font-normal text-slate-500">· {t('home.students.count', { count: data.studentCount })}</span>
        </h2>
        {data.students.length === 0 ? (
          <p className="mt-2 text-slate-600">{t('home.students.empty')}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100">
            {data.students.map((s) => (
              <li key={s.id} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                <span>
                  {s.name} <span className="text-slate-500">({s.email})</span>
                </span>
                <span className="text-slate-500">{t('date.joined', { date: formatDate(s.createdAt, locale) })}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}
