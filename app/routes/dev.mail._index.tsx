import { shardDbs } from '#app/db/shards.server.ts'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { PageTitle } from '#app/components/ui.tsx'
import { listOutboxForDevViewer } from '#app/models/email-outbox.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { notFound, requirePlatform } from '#app/utils/request.server.ts'

export const meta: MetaFunction = () => [{ title: 'Dev mail · Coursefront' }, { name: 'robots', content: 'noindex' }]

/** Development only: every mail of every school, so flows can be followed without a mail account. */
export async function loader({ context }: LoaderFunctionArgs) {
  requirePlatform(context)
  if (!isDevelopment(context.cloudflare.env)) notFound()
  return { mails: await listOutboxForDevViewer(shardDbs(context.cloudflare.env)) }
}

export default function DevMailIndex() {
  const { mails } = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div>
      <PageTitle subtitle={t('devmail.text')}>{t('devmail.title')}</PageTitle>
      {mails.length === 0 ? (
        <p className="text-slate-600">{t('devmail.empty')}</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-3">{t('devmail.created')}</th>
                <th scope="col" className="px-4 py-3">{t('devmail.to')}</th>
                <th scope="col" className="px-4 py-3">{t('devmail.subject')}</th>
                <th scope="col" className="px-4 py-3">{t('devmail.status')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {mails.map((m) => (
                <tr key={m.id}>
                  <td className="whitespace-nowrap px-4 py-3 font-mono text-xs">{formatDateTime(m.createdAt)}</td>
                  <td className="px-4 py-3">{m.toAddress}</td>
                  <td className="px-4 py-3">
                    <Link to={`/dev/mail/${m.id}`} className="font-medium text-brand-700 hover:underline">
                      {m.subject}
                    </Link>
                  </td>
                  <td className="px-4 py-3">{m.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}
