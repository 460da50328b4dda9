// Dead letters for the operators (issue 27 §4): every message a queue gave up on (events, webhook
// deliveries, invoices, mail, mailing), recorded by the workers' dead letter consumers. Filter by
// queue, status and school; redeliver one, or all open letters of a school; discard with a reason.
// Every role reads; only `dead_letters.manage` changes anything (a crafted POST gets 403, audited).
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Pager } from '#app/components/pager.tsx'
import { Button, cx, FieldError, PageTitle } from '#app/components/ui.tsx'
import { schoolNames } from '#app/models/cross-shard.server.ts'
import { DEAD_LETTER_QUEUES, DEAD_LETTER_STATUSES, DISCARD_REASON_MAX, getDeadLetter, listDeadLettersForOperator, type DeadLetterQueue, type DeadLetterStatus } from '#app/models/dead-letter.server.ts'
import { getTenantById, getTenantBySlug } from '#app/models/tenant.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { discardAsOperator, redeliverAllOfSchoolAsOperator, redeliverAsOperator } from '#app/operator/dead-letters/redeliver.server.ts'
import { operatorCan } from '#app/operator/permissions.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { parseWith, readFormFields, text, type FieldErrors } from '#app/utils/validation.ts'

const PAGE_SIZE = 50
const PATH = '/operator/dead-letters'

const QuerySchema = z.object({
  queue: z.enum(DEAD_LETTER_QUEUES).optional().catch(undefined),
  status: z.enum(DEAD_LETTER_STATUSES).optional().catch(undefined),
  school: z
    .string()
    .trim()
    .toLowerCase()
    .max(63)
    .regex(/^[a-z0-9-]*$/)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
})

// A letter is named by its school and id together: another school's id finds nothing (404).
const letterRef = { letterId: z.string().min(1).max(64), tenantId: z.string().max(64) }
const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('redeliver'), ...letterRef }),
  z.object({ intent: z.literal('redeliver_all'), tenantId: z.string().min(1).max(64) }),
  z.object({ intent: z.literal('discard'), ...letterRef, reason: text({ max: DISCARD_REASON_MAX, min: 3 }) }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const query = QuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const page = query.page ?? 1
  const slug = query.school || ''
  const school = slug ? (await getTenantBySlug(context.control, slug)) ?? null : null
  const filter = { queue: query.queue ?? null, status: query.status ?? null, tenantId: school?.id ?? null }
  const unknownSchool = Boolean(slug) && !school
  const [{ rows, total }, open] = await Promise.all([
    unknownSchool ? { rows: [], total: 0 } : listDeadLettersForOperator(context.control, filter, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    school ? listDeadLettersForOperator(context.control, { status: 'open', tenantId: school.id }, { limit: 1, offset: 0 }) : null,
  ])
  const names = await schoolNames(context.control, rows.map((r) => r.tenantId).filter(Boolean))
  return {
    title: `${getT(request, context)('dead_letters.title')} · Coursefront`,
    filters: { queue: query.queue ?? '', status: query.status ?? '', school: slug },
    queues: [...DEAD_LETTER_QUEUES],
    statuses: [...DEAD_LETTER_STATUSES],
    unknownSchool,
    school: school ? { id: school.id, name: school.name, slug: school.slug, open: open?.total ?? 0 } : null,
    canManage: operatorCan(operator.role, 'dead_letters.manage'),
    discardMax: DISCARD_REASON_MAX,
    page,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    total,
    rows: rows.map((r) => {
      const named = names.get(r.tenantId)
      return {
        id: r.id,
        queue: r.queue,
        tenantId: r.tenantId,
        school: named ? { id: named.id, name: named.name, slug: named.slug } : null,
        reason: r.reason,
        attempts: r.attempts,
        body: r.body,
        status: r.status,
        createdAt: r.createdAt,
        resolvedBy: r.resolvedBy,
        resolvedAt: r.resolvedAt,
        discardReason: r.discardReason,
      }
    }),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, 'dead_letters.manage')
  const fields = await readFormFields(request)
  if (!fields) throw new Response('Bad Request', { status: 400 })
  const parsed = parseWith(ActionSchema, fields)
  if (!parsed.ok) {
    // Only the discard reason is typed by a person; anything else is a crafted request.
    if (fields.intent === 'discard' && parsed.errors.reason && !parsed.errors.letterId && !parsed.errors.tenantId) {
      return data({ letterId: fields.letterId ?? '', errors: parsed.errors as FieldErrors, reason: (fields.reason ?? '').slice(0, DISCARD_REASON_MAX) }, { status: 400 })
    }
    throw new Response('Bad Request', { status: 400 })
  }
  const back = `${PATH}${new URL(request.url).search}`
  const input = parsed.data

  if (input.intent === 'redeliver_all') {
    const school = await getTenantById(context.control, input.tenantId)
    if (!school) throw new Response('Not Found', { status: 404 })
    const counts = await redeliverAllOfSchoolAsOperator(context, request, operator, school.id)
    const skipped = counts.already + counts.stale + counts.unavailable + counts.invalid
    return redirectWithFlash(request, back, { done: 'redelivered_all', message: 'dead_letters.done.all', values: { redelivered: counts.redelivered, skipped }, tone: skipped ? 'info' : 'success' })
  }

  const letter = await getDeadLetter(context.control, input.tenantId, input.letterId)
  if (!letter) throw new Response('Not Found', { status: 404 })
  if (input.intent === 'redeliver') {
    const outcome = await redeliverAsOperator(context, request, operator, letter)
    return redirectWithFlash(request, back, { done: outcome, message: `dead_letters.done.${outcome}`, tone: outcome === 'redelivered' ? 'success' : 'info' })
  }
  const discarded = await discardAsOperator(context, request, operator, letter, input.reason)
  return redirectWithFlash(
    request,
    back,
    discarded ? { done: 'discarded', message: 'dead_letters.done.discarded' } : { done: 'discard_already', message: 'dead_letters.done.discard_already', tone: 'info' },
  )
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>['rows'][number]

const STATUS_TONE: Record<DeadLetterStatus, string> = {
  open: 'bg-amber-100 text-amber-800',
  redelivered: 'bg-emerald-100 text-emerald-800',
  discarded: 'bg-slate-100 text-slate-700',
}

export default function OperatorDeadLetters() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  const queueName = (queue: DeadLetterQueue) => t(`dead_letters.queue.${queue}`)
  const schoolName = (row: Row) => row.school?.name ?? t(row.tenantId ? 'dead_letters.deleted_school' : 'dead_letters.no_school')
  const pageLink = (page: number) => {
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries(data.filters)) if (value) query.set(key, value)
    query.set('page', String(page))
    return `${PATH}?${query}`
  }
  const filtered = Boolean(data.filters.queue || data.filters.status || data.filters.school)
  return (
    <div className="space-y-6">
      <OperatorNav />
      <PageTitle subtitle={t('dead_letters.intro')}>{t('dead_letters.title')}</PageTitle>
      <FlashMessage />
      <Form method="get" action={PATH} className="flex flex-wrap items-end gap-3" data-dead-letters-filter>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('dead_letters.filter.queue')}</span>
          <select name="queue" defaultValue={data.filters.queue} className="rounded-md border border-slate-300 bg-white px-3 py-2">
            <option value="">{t('dead_letters.filter.all_queues')}</option>
            {data.queues.map((queue) => (
              <option key={queue} value={queue}>
                {queueName(queue)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('dead_letters.filter.status')}</span>
          <select name="status" defaultValue={data.filters.status} className="rounded-md border border-slate-300 bg-white px-3 py-2">
            <option value="">{t('dead_letters.filter.all_statuses')}</option>
            {data.statuses.map((status) => (
              <option key={status} value={status}>
                {t(`dead_letters.status.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('dead_letters.filter.school')}</span>
          <input name="school" defaultValue={data.filters.school} maxLength={63} className="rounded-md border border-slate-300 bg-white px-3 py-2" />
        </label>
        <Button type="submit" variant="secondary">
          {t('dead_letters.filter.submit')}
        </Button>
        {filtered ? (
          <Link to={PATH} className="py-2 text-sm text-brand-700 hover:underline">
            {t('dead_letters.filter.clear')}
          </Link>
        ) : null}
        <span className="py-2 text-sm text-slate-600" data-dead-letters-count={data.total}>
          {t('dead_letters.count', { count: data.total })}
        </span>
      </Form>
      {data.unknownSchool ? (
        <p role="status" className="text-sm text-red-700">
          {t('dead_letters.filter.unknown_school', { slug: data.filters.school })}
        </p>
      ) : null}
      {data.school && data.school.open > 0 ? (
        <section className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4" data-dead-letters-school={data.school.slug}>
          <p className="text-sm text-amber-900">{t('dead_letters.redeliver_all_intro', { count: data.school.open, school: data.school.name })}</p>
          {data.canManage ? (
            <Form method="post">
              <input type="hidden" name="intent" value="redeliver_all" />
              <input type="hidden" name="tenantId" value={data.school.id} />
              <Button type="submit" disabled={busy} data-redeliver-all>
                {t('dead_letters.redeliver_all', { school: data.school.name })}
              </Button>
            </Form>
          ) : null}
        </section>
      ) : null}
      {data.rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-dead-letters-empty>
          {t(filtered ? 'dead_letters.empty_filtered' : 'dead_letters.empty')}
        </p>
      ) : (
        <div className="rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
          <DataTable
            data-dead-letters
            caption={t('dead_letters.caption')}
            rows={data.rows}
            rowKey={(r) => r.id}
            rowProps={(r) => ({ 'data-dead-letter': r.id, 'data-dead-letter-queue': r.queue, 'data-dead-letter-status': r.status })}
            columns={[
              { key: 'queue', header: t('dead_letters.col.queue'), className: 'whitespace-nowrap', cell: (r) => queueName(r.queue) },
              {
                key: 'school',
                header: t('dead_letters.col.school'),
                cell: (r) =>
                  r.school ? (
                    <>
                      <Link to={`/operator/schools/${r.school.id}`} className="font-medium text-brand-700 hover:underline">
                        {r.school.name}
                      </Link>
                      {data.school ? null : (
                        <div className="text-xs">
                          <Link to={`${PATH}?school=${encodeURIComponent(r.school.slug)}`} className="text-slate-600 hover:underline" aria-label={`${t('dead_letters.only_school')}: ${r.school.name}`}>
                            {t('dead_letters.only_school')}
                          </Link>
                        </div>
                      )}
                    </>
                  ) : (
                    <span className="text-slate-500">{schoolName(r)}</span>
                  ),
              },
              {
                key: 'reason',
                header: t('dead_letters.col.reason'),
                cell: (r) => (
                  <>
                    <p className="max-w-md break-words">{r.reason}</p>
                    <details className="text-xs text-slate-600">
                      <summary className="cursor-pointer">{t('dead_letters.message')}</summary>
                      <pre className="mt-1 max-w-md overflow-x-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2">{r.body}</pre>
                    </details>
                  </>
                ),
              },
              { key: 'attempts', header: t('dead_letters.col.attempts'), className: 'text-right', cell: (r) => r.attempts },
              { key: 'received', header: t('dead_letters.col.received'), className: 'whitespace-nowrap', cell: (r) => formatDateTime(r.createdAt) },
              {
                key: 'status',
                header: t('dead_letters.col.status'),
                cell: (r) => (
                  <>
                    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', STATUS_TONE[r.status])}>{t(`dead_letters.status.${r.status}`)}</span>
                    {r.resolvedBy && r.resolvedAt ? <div className="text-xs text-slate-500">{t('dead_letters.resolved', { who: r.resolvedBy, date: formatDateTime(r.resolvedAt) })}</div> : null}
                    {r.discardReason ? <div className="max-w-xs break-words text-xs text-slate-500">{t('dead_letters.discard_reason_shown', { reason: r.discardReason })}</div> : null}
                  </>
                ),
              },
              data.canManage && {
                key: 'actions',
                header: t('dead_letters.col.actions'),
                cell: (r) =>
                  r.status === 'open' ? <LetterActions row={r} discardMax={data.discardMax} schoolName={schoolName(r)} queueName={queueName(r.queue)} busy={busy} actionData={actionData} /> : null,
              },
            ]}
          />
        </div>
      )}
      <Pager page={data.page} pageCount={data.pages} href={pageLink} />
    </div>
  )
}

type ActionData = { letterId: string; errors: FieldErrors; reason: string } | undefined

function LetterActions({ row, discardMax, schoolName, queueName, busy, actionData }: { row: Row; discardMax: number; schoolName: string; queueName: string; busy: boolean; actionData: ActionData }) {
  const t = useT()
  const failed = actionData?.letterId === row.id ? actionData : undefined
  const reasonId = `discard-reason-${row.id}`
  const errorId = `${reasonId}-error`
  return (
    <div className="flex min-w-56 flex-col gap-2">
      <Form method="post">
        <input type="hidden" name="intent" value="redeliver" />
        <input type="hidden" name="letterId" value={row.id} />
        <input type="hidden" name="tenantId" value={row.tenantId} />
        <Button type="submit" disabled={busy} aria-label={t('dead_letters.redeliver_label', { queue: queueName, school: schoolName })} data-redeliver>
          {t('dead_letters.redeliver')}
        </Button>
      </Form>
      <Form method="post" className="space-y-1">
        <input type="hidden" name="intent" value="discard" />
        <input type="hidden" name="letterId" value={row.id} />
        <input type="hidden" name="tenantId" value={row.tenantId} />
        <label htmlFor={reasonId} className="block text-xs font-medium text-slate-700">
          {t('dead_letters.discard_reason')}
        </label>
        <div className="flex gap-2">
          <input
            id={reasonId}
            name="reason"
            required
            minLength={3}
            maxLength={discardMax}
            defaultValue={failed?.reason}
            aria-invalid={failed?.errors.reason ? true : undefined}
            aria-describedby={failed?.errors.reason ? errorId : undefined}
            className={cx('w-full rounded-md border bg-white px-2 py-1 text-sm', failed?.errors.reason ? 'border-red-500' : 'border-slate-300')}
          />
          <Button type="submit" variant="secondary" disabled={busy} data-discard>
            {t('dead_letters.discard')}
          </Button>
        </div>
        <FieldError id={errorId} name="reason" error={failed?.errors.reason} />
      </Form>
    </div>
  )
}
