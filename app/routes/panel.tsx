import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { Button, Card, PageTitle } from '#app/components/ui.tsx'
import { listUserSessions } from '#app/models/session.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { fromNow } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const tenantId = context.site.kind === 'school' ? context.site.tenant.id : ''
  const sessions = await listUserSessions(context.db, tenantId, user.id)
  return {
    title: getT(request, context)('panel.title'),
    user: { name: user.name },
    now: Date.now(),
    sessions: sessions.map((s) => ({ ...s, current: s.id === user.sessionId })),
  }
}

function describeDevice(userAgent: string | null) {
  if (!userAgent) return null
  const browser = /Firefox\//.test(userAgent) ? 'Firefox' : /Edg\//.test(userAgent) ? 'Edge' : /Chrome\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : null
  const os = /Windows/.test(userAgent) ? 'Windows' : /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Mac OS X/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : null
  return [browser, os].filter(Boolean).join(' · ') || null
}

function SessionRow({ session, now }: { session: ReturnType<typeof useLoaderData<typeof loader>>['sessions'][number]; now: number }) {
  const t = useT()
  const locale = useLocale()
  const fetcher = useFetcher()
  const busy = fetcher.state !== 'idle'
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-session-id={session.id}>
      <div>
        <p className="font-medium">
          {describeDevice(session.userAgent) ?? t('panel.sessions.unknown_device')}
          {session.current ? <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">{t('panel.sessions.current')}</span> : null}
        </p>
        <p className="text-sm text-slate-500">{t('panel.sessions.last_active', { when: fromNow(session.lastVerifiedAt, locale, now) })}</p>
      </div>
      <fetcher.Form method="post" action={`/panel/sessions/${session.id}`}>
        <Button type="submit" variant="secondary" disabled={busy}>
          {t('panel.sessions.revoke')}
        </Button>
      </fetcher.Form>
    </li>
  )
}

export default function PanelPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <PageTitle>{t('panel.hello', { name: data.user.name })}</PageTitle>
      <Card>
        <h2 className="text-lg font-semibold">{t('panel.courses.title')}</h2>
        <p className="mt-2 text-slate-600">{t('panel.courses.empty')}</p>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('panel.sessions.title')}</h2>
        <p className="mt-1 text-sm text-slate-600">
          {t('panel.sessions.text')} {t('panel.sessions.count', { count: data.sessions.length })}
        </p>
        <ul className="mt-3 divide-y divide-slate-100">
          {data.sessions.map((s) => (
            <SessionRow key={s.id} session={s} now={data.now} />
          ))}
        </ul>
      </Card>
    </div>
  )
}
