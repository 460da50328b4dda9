// The staff's notifications (issue 7 item 7): new comments, replies and reviews by students,
// newest first, unread highlighted; opening one marks it read and follows its link; "mark all as
// read". Each staff member sees only their own rows.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { Button, Card, cx, PageTitle } from '#app/components/ui.tsx'
import { countUnreadNotifications, listNotifications, markAllNotificationsRead, openNotification } from '#app/models/notification.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { formatDateTime, fromNow } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, safeRedirect } from '#app/utils/validation.ts'
import { Pager } from '#app/components/pager.tsx'

const ListQuery = z.object({ page: z.coerce.number().int().min(1).max(1_000_000).catch(1) })
const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('mark_all_read') }),
  z.object({ intent: z.literal('open'), id: z.string().trim().min(1).max(64) }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  const query = ListQuery.parse({ page: new URL(request.url).searchParams.get('page') ?? 1 })
  const [list, unread] = await Promise.all([listNotifications(context.db, tenant.id, user.id, { page: query.page }), countUnreadNotifications(context.db, tenant.id, user.id)])
  return {
    title: `${getT(request, context)('engagement.notifications.title')} · ${tenant.name}`,
    now: Date.now(),
    unread,
    page: list.page,
    pageCount: list.pageCount,
    notifications: list.notifications.map((n) => ({ id: n.id, kind: n.kind, actorName: n.actorName, excerpt: n.excerpt, createdAt: n.createdAt, read: n.readAt !== null })),
  }
}

// Not a staffAction: every refused form here, an unknown intent included, answers 422.
export async function action(args: ActionFunctionArgs) {
  const { tenant, user } = await requireStaff(args)
  const { request, context } = args
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values, 422)
  if (parsed.data.intent === 'mark_all_read') {
    const changed = await markAllNotificationsRead(context.db, tenant.id, user.id)
    return { ok: true, changed }
  }
  const link = await openNotification(context.db, tenant.id, user.id, parsed.data.id)
  if (link === null) notFound()
  throw redirect(safeRedirect(link, '/home/notifications', request), 303)
}

export default function NotificationsPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('engagement.notifications.intro')}>{t('engagement.notifications.title')}</PageTitle>
      <Card className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600" data-unread-count={data.unread}>
            {t('engagement.notifications.unread', { count: data.unread })}
          </p>
          {data.unread > 0 ? (
            <Form method="post">
              <input type="hidden" name="intent" value="mark_all_read" />
              <Button type="submit" variant="secondary" data-mark-all-read>
                {t('engagement.notifications.mark_all')}
              </Button>
            </Form>
          ) : null}
        </div>
        {data.notifications.length === 0 ? (
          <p className="text-slate-600">{t('engagement.notifications.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100 overflow-hidden rounded-lg border border-slate-100" data-notifications>
            {data.notifications.map((n) => (
              <li key={n.id} className={cx('px-4 py-3', n.read ? 'bg-white' : 'bg-sky-50')} data-notification={n.id} data-read={n.read ? 'yes' : 'no'}>
                <Form method="post" className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
                  <input type="hidden" name="intent" value="open" />
                  <input type="hidden" name="id" value={n.id} />
                  <div className="min-w-0">
                    <p className={cx('text-sm', n.read ? 'text-slate-700' : 'font-semibold text-slate-900')}>
                      {!n.read ? <span className="sr-only">{t('engagement.notifications.unread_label')}: </span> : null}
                      {t(`engagement.notifications.kind.${n.kind}`, { name: n.actorName || '—' })}
                    </p>
                    {n.excerpt ? <p className="mt-0.5 truncate text-sm text-slate-600">“{n.excerpt}”</p> : null}
                    <p className="mt-0.5 text-xs text-slate-600">
                      <time dateTime={new Date(n.createdAt).toISOString()} title={formatDateTime(n.createdAt)}>
                        {fromNow(n.createdAt, locale, data.now)}
                      </time>
                    </p>
                  </div>
                  <button type="submit" className="shrink-0 self-start rounded-md text-sm font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600" data-notification-open>
                    {t('engagement.notifications.open')}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <Pager page={data.page} pageCount={data.pageCount} href={(p) => `?page=${p}`} />
      </Card>
    </div>
  )
}
