// One webhook: its target, event and state, the delivery log (status, response code, duration,
// attempts, time; newest first, paged) and the owner's actions: send test event, redeliver a
// failed delivery, enable/disable, delete (typing DELETE). Another school's id is 404; every
// action redirects back (PRG) with its seed message.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { Pager } from '#app/components/pager.tsx'
import { Alert, Button, Card, cx, Field, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { deleteWebhook, getWebhook, listWebhookDeliveries, redeliverWebhookDelivery, scheduleTestDelivery, setWebhookEnabled } from '#app/models/webhook.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formatDate, formatDateTime } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { isCappedTarget, shownDelivery } from '#app/webhooks/delivery-outcome.ts'
import { deliveriesQueue } from '#app/webhooks/forms.server.ts'

const ListQuery = z.object({ page: z.coerce.number().int().min(1).max(1_000_000).catch(1) })
const NoInput = z.object({})
const RedeliverSchema = z.object({ deliveryId: z.string().trim().min(1).max(64) })
const DeleteSchema = z.object({ confirm: z.string().optional() })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

const loadWebhook = async (tenant: { id: string }, { context, params }: Pick<LoaderFunctionArgs, 'context' | 'params'>) =>
  (await getWebhook(context.db, tenant.id, String(params.webhookId ?? '').slice(0, 64))) ?? notFound()

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args
  // Another school's id: 404 for everyone, before sign-in is asked for.
  const tenant = requireSchool(context)
  const webhook = await loadWebhook(tenant, args)
  await requireStaff(args)
  const url = new URL(request.url)
  const query = ListQuery.parse({ page: url.searchParams.get('page') ?? 1 })
  const log = await listWebhookDeliveries(context.db, tenant.id, webhook.id, { page: query.page })
  const capped = isCappedTarget(webhook.url)
  return {
    title: `${webhook.url} · ${getT(request, context)('webhooks.title')}`,
    webhook: { id: webhook.id, event: webhook.event, url: webhook.url, enabled: webhook.enabled, secretHint: webhook.secretHint, createdAt: webhook.createdAt },
    page: log.page,
    pageCount: log.pageCount,
    // Issue 19 §8: a private/loopback target (development only) shows an outcome class only; no
    // row ever shows the stored error text itself, only its catalogue message.
    deliveries: log.deliveries.map((d) =>
      shownDelivery(
        {
          id: d.id,
          eventId: d.eventId,
          eventType: d.eventType,
          isTest: d.isTest,
          status: d.status,
          attempts: d.attempts,
          lastStatusCode: d.lastStatusCode,
          lastDurationMs: d.lastDurationMs,
          lastError: d.lastError,
          time: d.deliveredAt ?? d.updatedAt,
        },
        capped,
      ),
    ),
  }
}

type Done = 'test' | 'redeliver' | 'enabled' | 'disabled'
const back = (request: Request, webhookId: string, done: Done) => redirectWithFlash(request, `/home/webhooks/${webhookId}`, { done, message: `webhooks.done.${done}` }, { status: 303 })

export const action = staffAction({
  // Another school's id: 404 for everyone, before sign-in is asked for.
  load: loadWebhook,
  intents: (intent) => ({
    test: intent(NoInput, async (_input, { tenant, request, context, loaded: webhook }) => {
      await scheduleTestDelivery(context.db, deliveriesQueue(context), tenant.id, webhook)
      throw back(request, webhook.id, 'test')
    }),
    redeliver: intent(RedeliverSchema, async ({ deliveryId }, { tenant, request, context, loaded: webhook }) => {
      const result = await redeliverWebhookDelivery(context.db, deliveriesQueue(context), tenant.id, webhook.id, deliveryId)
      if (!result.ok && result.reason === 'not_found') notFound()
      if (!result.ok) return formError({ form: { key: 'webhooks.error.not_redeliverable' } }, {}, 409)
      throw back(request, webhook.id, 'redeliver')
    }),
    enable: intent(NoInput, async (_input, { tenant, request, context, loaded: webhook }) => {
      await setWebhookEnabled(context.db, tenant.id, webhook.id, true)
      throw back(request, webhook.id, 'enabled')
    }),
    disable: intent(NoInput, async (_input, { tenant, request, context, loaded: webhook }) => {
      await setWebhookEnabled(context.db, tenant.id, webhook.id, false)
      throw back(request, webhook.id, 'disabled')
    }),
    delete: intent(DeleteSchema, async ({ confirm }, { tenant, request, context, loaded: webhook }) => {
      if (confirm?.trim() !== 'DELETE') return formError({ confirm: { key: 'webhooks.error.confirm' } }, {}, 422)
      await deleteWebhook(context.db, tenant.id, webhook.id)
      throw redirectWithFlash(request, '/home/webhooks', { done: 'deleted', message: 'webhooks.done.deleted' }, { status: 303 })
    }),
  }),
})

type Delivery = ReturnType<typeof useLoaderData<typeof loader>>['deliveries'][number]

/** What the log shows: a pending row with attempts is retrying; failed and dead (retries used up) are both "Failed". */
function statusOf(d: Delivery) {
  if (d.status === 'pending') return d.attempts > 0 ? 'retrying' : 'pending'
  return d.status === 'delivered' ? 'delivered' : 'failed'
}

const BADGE: Record<string, string> = {
  pending: 'bg-slate-100 text-slate-700',
  retrying: 'bg-amber-100 text-amber-800',
  delivered: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
}

export default function WebhookPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<{ errors: FieldErrors }>()
  const navigation = useNavigation()
  const t = useT()
  const field = useFieldMessage()
  const locale = useLocale()
  const busy = navigation.state !== 'idle'
  const errors = action?.errors ?? {}
  const w = data.webhook
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/home/webhooks" className="font-semibold text-brand-700 hover:underline">
          ← {t('webhooks.back')}
        </Link>
      </p>
      <PageTitle subtitle={`${t(`webhooks.event.${w.event}`)} · ${t('webhooks.secret.hint', { hint: w.secretHint })} · ${t('webhooks.created_at', { date: formatDate(w.createdAt, locale) })}`}>
        <span className="break-all">{w.url}</span>
      </PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      {errors.form ? <Alert>{field(errors.form)}</Alert> : null}
      <Card className="flex flex-wrap items-center gap-3" data-webhook-state={w.enabled ? 'enabled' : 'disabled'}>
        <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', w.enabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-600')}>{w.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}</span>
        <Form method="post">
          <input type="hidden" name="intent" value="test" />
          <Button type="submit" disabled={busy || !w.enabled} data-webhook-test>
            {t('webhooks.send_test')}
          </Button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value={w.enabled ? 'disable' : 'enable'} />
          <Button type="submit" variant="secondary" disabled={busy} data-webhook-toggle>
            {w.enabled ? t('webhooks.disable') : t('webhooks.enable')}
          </Button>
        </Form>
      </Card>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('webhooks.deliveries')}</h2>
        {data.deliveries.length === 0 ? (
          <p className="text-slate-600">{t('webhooks.deliveries.empty')}</p>
        ) : (
          <DataTable
            data-webhook-deliveries
            rows={data.deliveries}
            rowKey={(d) => d.id}
            rowProps={(d) => ({ 'data-delivery-row': d.id, 'data-delivery-status': statusOf(d) })}
            columns={[
              {
                key: 'status',
                header: t('webhooks.col.status'),
                cell: (d) => (
                  <>
                    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', BADGE[statusOf(d)])}>{t(`webhooks.status.${statusOf(d)}`)}</span>
                    {d.outcome && statusOf(d) !== 'delivered' ? (
                      <span className="mt-1 block max-w-xs text-xs text-slate-600" data-delivery-outcome>
                        {t(d.outcome.key, { code: d.outcome.code ?? '' })}
                      </span>
                    ) : null}
                  </>
                ),
              },
              {
                key: 'event',
                header: t('webhooks.col.event'),
                cell: (d) => (
                  <>
                    {t(`webhooks.event.${d.eventType}`)}
                    {d.isTest ? <span className="ml-1 rounded bg-sky-100 px-1 text-xs text-sky-800">{t('webhooks.test_event')}</span> : null}
                  </>
                ),
              },
              { key: 'code', header: t('webhooks.col.code'), className: 'font-mono', cellProps: () => ({ 'data-delivery-code': true }), cell: (d) => d.lastStatusCode ?? '—' },
              { key: 'duration', header: t('webhooks.col.duration'), cell: (d) => (d.lastDurationMs === null ? '—' : t('webhooks.duration_ms', { ms: d.lastDurationMs })) },
              { key: 'attempts', header: t('webhooks.col.attempts'), cellProps: () => ({ 'data-delivery-attempts': true }), cell: (d) => d.attempts },
              { key: 'time', header: t('webhooks.col.time'), className: 'whitespace-nowrap', cell: (d) => formatDateTime(d.time) },
              {
                key: 'actions',
                header: t('webhooks.col.actions'),
                cell: (d) =>
                  statusOf(d) === 'failed' ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="redeliver" />
                      <input type="hidden" name="deliveryId" value={d.id} />
                      <Button type="submit" variant="secondary" className="px-2 py-1 text-xs" disabled={busy} data-delivery-redeliver>
                        {t('webhooks.redeliver')}
                      </Button>
                    </Form>
                  ) : null,
              },
            ]}
          />
        )}
        <Pager page={data.page} pageCount={data.pageCount} href={(page) => `/home/webhooks/${w.id}?page=${page}`} />
      </Card>
      <Card>
        <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end" data-webhook-delete-form>
          <input type="hidden" name="intent" value="delete" />
          <Field label={t('webhooks.delete_confirm')} name="confirm" autoComplete="off" error={errors.confirm} className="flex-1" />
          <Button type="submit" variant="danger" disabled={busy} data-webhook-delete>
            {t('webhooks.delete')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
