// Moving one school to another shard (issue 26 §1, ADR 033): the operator starts the move and
// each POST advances it a bounded number of batches (the cron advances it too); the page shows
// where it is. The work itself is app/shards/move-school.server.ts. Not nested in the school's
// page (`$tenantId_`): that page has no outlet.
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { shardCount } from '#app/db/shards.server.ts'
import { latestSchoolMove, openSchoolMove } from '#app/models/school-move.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { OperatorNav } from '#app/operator/components/operator-nav.tsx'
import { advanceSchoolMove, moveWaitsUntil, SchoolMoveError, settleMsOf, shardTables, startSchoolMove } from '#app/shards/move-school.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { parseForm } from '#app/utils/validation.ts'

/** Batches one operator request does: each reads or writes at most BATCH_SIZE rows. */
const ADVANCE_BATCHES = 20
const BATCH_SIZE = 100

const ActionSchema = z.discriminatedUnion('intent', [z.object({ intent: z.literal('start'), toShard: z.coerce.number().int().min(0).max(1000) }), z.object({ intent: z.literal('advance') })])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context)
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const move = await latestSchoolMove(context.control, tenant.id)
  return {
    title: `${tenant.name} · ${getT(request, context)('operator.move.title')} · Coursefront`,
    school: { id: tenant.id, name: tenant.name, shard: tenant.shard, frozen: tenant.movingSince !== null },
    shards: Array.from({ length: shardCount(context.cloudflare.env) }, (_, shard) => shard),
    move: move
      ? {
          id: move.id,
          phase: move.phase,
          from: move.fromShard,
          to: move.toShard,
          startedAt: move.startedAt,
          finishedAt: move.finishedAt,
          error: move.error,
          tablesVerified: Object.keys(move.progress.verified).length,
          tables: shardTables().length,
          rowsCopied: sum(move.progress.copied),
          rowsVerified: Object.values(move.progress.verified).reduce((a, v) => a + v.source.rows, 0),
          rowsDeleted: sum(move.progress.deleted),
          waitsUntil: move.finishedAt === null && moveWaitsUntil(move, settleMsOf(context.cloudflare.env)) > Date.now() ? moveWaitsUntil(move, settleMsOf(context.cloudflare.env)) : null,
        }
      : null,
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireOperator(request, context, 'schools.move', { tenantId: params.tenantId })
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) throw new Response('Bad Request', { status: 400 })
  const env = context.cloudflare.env
  const back = `/operator/schools/${tenant.id}/move`
  let moveId: string
  if (parsed.data.intent === 'start') {
    try {
      moveId = (await startSchoolMove(env, tenant.id, parsed.data.toShard)).id
    } catch (error) {
      if (error instanceof SchoolMoveError) return data({ error: `operator.move.error.${error.code}` }, { status: 400 })
      throw error
    }
  } else {
    const open = await openSchoolMove(context.control, tenant.id)
    if (!open) return data({ error: 'operator.move.error.no_move' }, { status: 400 })
    moveId = open.id
  }
  await advanceSchoolMove(env, moveId, { maxBatches: ADVANCE_BATCHES, batchSize: BATCH_SIZE, settleMs: settleMsOf(env) })
  // This isolate sees the freeze and the switch at once; others within the cache TTL.
  context.siteCache.invalidateTenant(tenant.id)
  return redirectWithFlash(request, back, parsed.data.intent === 'start' ? { done: 'move_started', message: 'operator.move.started' } : { done: 'move_advanced', message: 'operator.move.advanced' })
}

export default function OperatorSchoolMove() {
  const { school, shards, move } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const t = useT()
  const busy = useNavigation().state === 'submitting'
  const running = move !== null && move.finishedAt === null
  const targets = shards.filter((shard) => shard !== school.shard)
  return (
    <div className="space-y-6">
      <OperatorNav />
      <Link to={`/operator/schools/${school.id}`} className="text-sm text-brand-700 hover:underline">
        {t('operator.move.back')}
      </Link>
      <PageTitle subtitle={t('operator.move.intro')}>
        {school.name} · {t('operator.move.title')}
      </PageTitle>
      <FlashMessage />
      {answer && 'error' in answer ? <Alert>{t(answer.error)}</Alert> : null}
      <Card className="space-y-3" data-move-school={school.id}>
        <p data-move-current-shard={school.shard}>{t('operator.move.current', { shard: school.shard })}</p>
        {school.frozen ? <Alert tone="info">{t('operator.move.frozen')}</Alert> : null}
        {running ? (
          <Form method="post" className="space-y-2">
            <input type="hidden" name="intent" value="advance" />
            <Button type="submit" disabled={busy}>
              {t('operator.move.advance')}
            </Button>
            <p className="text-sm text-slate-600">{t('operator.move.cron')}</p>
          </Form>
        ) : targets.length === 0 ? (
          <p>{t('operator.move.single_shard')}</p>
        ) : (
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="start" />
            <label className="flex flex-col gap-1">
              <span className="text-sm font-medium">{t('operator.move.target')}</span>
              <select name="toShard" className="rounded-md border border-slate-300 bg-white px-3 py-2">
                {targets.map((shard) => (
                  <option key={shard} value={shard}>
                    {t('operator.move.shard', { shard })}
                  </option>
                ))}
              </select>
            </label>
            <Button type="submit" disabled={busy}>
              {t('operator.move.start')}
            </Button>
          </Form>
        )}
      </Card>
      <Card className="space-y-2" data-move-progress={move?.phase ?? 'none'}>
        <h2 className="text-lg font-semibold">{t('operator.move.latest')}</h2>
        {move ? (
          <ul className="space-y-1 text-sm">
            <li>{t('operator.move.from_to', { from: move.from, to: move.to })}</li>
            <li data-move-phase={move.phase}>{t('operator.move.phase', { phase: t(`operator.move.phase.${move.phase}`) })}</li>
            <li>{t('operator.move.started_at', { date: formatDateTime(move.startedAt) })}</li>
            {move.finishedAt ? <li>{t('operator.move.finished_at', { date: formatDateTime(move.finishedAt) })}</li> : null}
            {move.waitsUntil ? <li data-move-waiting>{t('operator.move.waiting', { date: formatDateTime(move.waitsUntil) })}</li> : null}
            <li>{t('operator.move.rows_copied', { count: move.rowsCopied })}</li>
            <li>{t('operator.move.tables', { done: move.tablesVerified, total: move.tables })}</li>
            <li>{t('operator.move.rows_verified', { count: move.rowsVerified })}</li>
            <li>{t('operator.move.rows_deleted', { count: move.rowsDeleted })}</li>
            {move.error ? <li className="text-red-700">{t('operator.move.last_error', { error: move.error })}</li> : null}
          </ul>
        ) : (
          <p>{t('operator.move.none')}</p>
        )}
      </Card>
    </div>
  )
}
