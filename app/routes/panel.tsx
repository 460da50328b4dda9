import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useFileSize } from '#app/components/file-upload.tsx'
import { Button, Card, PageTitle } from '#app/components/ui.tsx'
import { listUserProducts } from '#app/models/access.server.ts'
import { listFilesOfProducts } from '#app/models/product-file.server.ts'
import { listUserSessions } from '#app/models/session.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { fromNow } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const tenantId = context.site.kind === 'school' ? context.site.tenant.id : ''
  const now = Date.now()
  const [sessions, fileProducts] = await Promise.all([listUserSessions(context.db, tenantId, user.id), listUserProducts(context.db, tenantId, user.id, now, 'file')])
  const files = await listFilesOfProducts(context.db, tenantId, fileProducts.map((p) => p.id))
  return {
    title: getT(request, context)('panel.title'),
    user: { name: user.name },
    now,
    fileProducts: fileProducts.map((p) => ({
      id: p.id,
      title: p.title,
      description: p.description,
      files: (files.get(p.id) ?? []).map((f) => ({ id: f.id, filename: f.filename, size: f.size, kind: f.kind })),
    })),
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

/** "My files": the file products the student has access to, each file opened through /files/…. */
function MyFiles({ products }: { products: ReturnType<typeof useLoaderData<typeof loader>>['fileProducts'] }) {
  const t = useT()
  const size = useFileSize()
  return (
    <Card data-my-files>
      <h2 className="text-lg font-semibold">{t('files.panel.title')}</h2>
      {products.length === 0 ? <p className="mt-2 text-slate-600">{t('files.panel.empty')}</p> : null}
      {products.map((p) => (
        <div key={p.id} className="mt-4" data-file-product={p.title}>
          <h3 className="font-semibold">{p.title}</h3>
          {p.description ? <p className="mt-1 whitespace-pre-line text-sm text-slate-600">{p.description}</p> : null}
          {p.files.length === 0 ? <p className="mt-1 text-sm text-slate-500">{t('files.panel.no_files')}</p> : null}
          <ul className="mt-2 divide-y divide-slate-100">
            {p.files.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center justify-between gap-3 py-2" data-file-name={f.filename}>
                <span className="min-w-0 truncate text-sm">
                  {f.filename} <span className="text-slate-500">· {size(f.size)}</span>
                </span>
                <span className="flex gap-4 text-sm font-semibold">
                  {/* Plain links: the answer is a redirect to a short-lived signed URL. */}
                  {f.kind !== 'zip' ? (
                    <a href={`/files/${p.id}/${f.id}?mode=open`} target="_blank" rel="noopener noreferrer" className="text-brand-700 hover:underline">
                      {t('files.file.open')}
                    </a>
                  ) : null}
                  <a href={`/files/${p.id}/${f.id}`} className="text-brand-700 hover:underline" data-download>
                    {t('files.file.download')}
                  </a>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Card>
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
      <MyFiles products={data.fileProducts} />
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
