// Every school's custom domains for the operators (issue 27 §3): state, age, last check and the
// last problem or error, failing ones first; filter by state, search by hostname, paged. "Check
// again" asks the domains worker exactly as the school's own domain page does (service binding
// DOMAINS), needs `domains.check` and leaves a `domain.check` audit row on the school.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Pager } from '#app/components/pager.tsx'
import { Button, PageTitle } from '#app/components/ui.tsx'
import { DOMAIN_STATUSES } from '#app/db/schema.server.ts'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { getDomainForOperator, listDomainsForOperator } from '#app/models/platform-stats.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { permissionsOf } from '#app/operator/permissions.ts'
import { fromNow } from '#app/utils/dates.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { parseForm, parseWith } from '#app/utils/validation.ts'

const PAGE_SIZE = 50

const FilterShape = {
  status: z.enum(DOMAIN_STATUSES).optional().catch(undefined),
  q: z.string().trim().toLowerCase().max(253).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
}
const FilterSchema = z.object(FilterShape)
// The list's filter travels with the form, so the operator lands back on the same page.
const CheckSchema = z.object({ intent: z.literal('check'), domainId: z.string().min(1).max(64), ...FilterShape })

type Filters = z.infer<typeof FilterSchema>

function listPath({ status, q, page }: { status?: string; q?: string; page?: number }) {
  const query = new URLSearchParams()
  if (status) query.set('status', status)
  if (q) query.set('q', q)
  if (page && page > 1) query.set('page', String(page))
  const search = query.toString()
  return search ? `/operator/domains?${search}` : '/operator/domains'
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const parsed = parseWith(FilterSchema, Object.fromEntries(new URL(request.url).searchParams))
  const filters: Filters = parsed.ok ? parsed.data : {}
  const page = filters.page ?? 1
  const { rows, total } = await listDomainsForOperator(context.control, { status: filters.status, query: filters.q || undefined, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })
  return {
    title: `${getT(request, context)('operator.domains.title')} · Coursefront`,
    now: Date.now(),
    status: filters.status ?? '',
    q: filters.q ?? '',
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    // The statuses travel with the data: the schema module is server-only.
    statuses: [...DOMAIN_STATUSES],
    canCheck: permissionsOf(operator.role)['domains.check'],
    domains: rows,
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Signed in first (a stranger is sent to the login, never told whether a domain exists).
  await requireOperator(request, context)
  const parsed = await parseForm(CheckSchema, request)
  if (!parsed.ok) throw new Response('Bad Request', { status: 400 })
  const { domainId, ...filters } = parsed.data
  const domain = (await getDomainForOperator(context.control, domainId)) ?? notFound()
  const operator = await requireOperator(request, context, 'domains.check', { tenantId: domain.tenantId })
  const result = await domainsService(context.cloudflare.env, domain.tenantId).check(domain.id)
  const after = result.ok ? { status: result.body.domain.status, problem: result.body.domain.problem, lastError: result.body.domain.lastError } : { error: result.error }
  await audit(context, request, { tenantId: domain.tenantId, actor: operatorActor(operator), action: 'domain.check', target: domain.hostname, before: { status: domain.status }, after })
  const t = getT(request, context)
  if (!result.ok) {
    if (result.status === 404) notFound()
    return redirectWithFlash(request, listPath(filters), {
      done: 'check_failed',
      message: 'operator.domains.check_failed',
      values: { hostname: domain.hostname, error: t(result.error) },
      tone: 'info',
    })
  }
  // Routing may have changed (a domain turned active or failed): forget the school's hosts in this isolate.
  context.siteCache.invalidateTenant(domain.tenantId)
  context.siteCache.invalidateHost(domain.hostname)
  return redirectWithFlash(request, listPath(filters), {
    done: 'checked',
    message: 'operator.domains.checked',
    values: { hostname: domain.hostname, status: t(`domains.status.${result.body.domain.status}`) },
  })
}

export default function OperatorDomains() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  const busy = useNavigation().state === 'submitting'
  const filters = { status: data.status || undefined, q: data.q || undefined }
  return (
    <div className="space-y-6">
      <OperatorNav />
      <PageTitle subtitle={t('operator.domains.count', { count: data.total })}>{t('operator.domains.title')}</PageTitle>
      <FlashMessage />
      <Form method="get" className="flex flex-wrap items-end gap-3" role="search">
        <label className="flex-1">
          <span className="mb-1 block text-sm font-medium text-slate-700">{t('operator.domains.search')}</span>
          <input type="search" name="q" defaultValue={data.q} maxLength={253} className="w-full rounded-md border border-slate-300 bg-white px-3 py-2" />
        </label>
        <label>
          <span className="mb-1 block text-sm font-medium text-slate-700">{t('operator.domains.col.state')}</span>
          <select name="status" defaultValue={data.status} className="rounded-md border border-slate-300 bg-white px-3 py-2">
            <option value="">{t('operator.domains.state_all')}</option>
            {data.statuses.map((status) => (
              <option key={status} value={status}>
                {t(`domains.status.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" variant="secondary">
          {t('common.search')}
        </Button>
      </Form>
      {data.domains.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-domains-empty>
          {t('operator.domains.empty')}
        </p>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
          <DataTable
            caption={t('operator.domains.caption')}
            rows={data.domains}
            rowKey={(d) => d.id}
            rowProps={(d) => ({ 'data-domain': d.hostname, 'data-state': d.status })}
            columns={[
              { key: 'hostname', header: t('operator.domains.col.hostname'), className: 'font-mono text-xs', cell: (d) => d.hostname },
              {
                key: 'school',
                header: t('operator.col.name'),
                cell: (d) => (
                  <Link to={`/operator/schools/${d.tenantId}`} className="text-brand-700 hover:underline">
                    {d.schoolName}
                  </Link>
                ),
              },
              {
                key: 'state',
                header: t('operator.domains.col.state'),
                cell: (d) => (
                  <span
                    className={
                      d.status === 'active'
                        ? 'rounded bg-emerald-100 px-2 py-0.5 text-emerald-800'
                        : d.status === 'failed'
                        ? 'rounded bg-red-100 px-2 py-0.5 text-red-800'
                        : 'rounded bg-amber-100 px-2 py-0.5 text-amber-800'
                    }
                  >
                    {t(`domains.status.${d.status}`)}
                  </span>
                ),
              },
              { key: 'age', header: t('operator.domains.col.age'), cell: (d) => fromNow(d.createdAt, locale, data.now) },
              {
                key: 'checked',
                header: t('operator.domains.col.last_check'),
                cell: (d) =>
                  d.lastCheckedAt === null ? t('operator.domains.never_checked') : `${fromNow(d.lastCheckedAt, locale, data.now)} · ${t('operator.domains.checks', { count: d.checkCount })}`,
              },
              {
                key: 'problem',
                header: t('operator.domains.col.problem'),
                cellProps: () => ({ 'data-domain-problem': true }),
                cell: (d) =>
                  d.problem || d.lastError ? (
                    <>
                      {d.problem ? <span className="block">{t(d.problem)}</span> : null}
                      {d.lastError ? <span className="block font-mono text-xs text-slate-600">{d.lastError}</span> : null}
                    </>
                  ) : (
                    <span className="text-slate-500">—</span>
                  ),
              },
              data.canCheck && {
                key: 'actions',
                header: t('operator.col.actions'),
                srOnlyHeader: true,
                cell: (d) => (
                  <Form method="post">
                    <input type="hidden" name="intent" value="check" />
                    <input type="hidden" name="domainId" value={d.id} />
                    {filters.status ? <input type="hidden" name="status" value={filters.status} /> : null}
                    {filters.q ? <input type="hidden" name="q" value={filters.q} /> : null}
                    {data.page > 1 ? <input type="hidden" name="page" value={data.page} /> : null}
                    <Button type="submit" variant="secondary" disabled={busy} aria-label={t('operator.domains.check_label', { hostname: d.hostname })}>
                      {t('domains.check_again')}
                    </Button>
                  </Form>
                ),
              },
            ]}
          />
        </div>
      )}
      <Pager page={data.page} pageCount={data.pages} href={(page) => listPath({ ...filters, page })} />
    </div>
  )
}
