import { shardDbs } from '#app/db/shards.server.ts'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { getOutboxForDevViewer } from '#app/models/email-outbox.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { notFound, requirePlatform } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.mail.subject ?? 'Dev mail' }, { name: 'robots', content: 'noindex' }]

export async function loader({ context, params }: LoaderFunctionArgs) {
  requirePlatform(context)
  if (!isDevelopment(context.cloudflare.env)) notFound()
  const mail = await getOutboxForDevViewer(shardDbs(context.cloudflare.env), params.id ?? '')
  if (!mail) notFound()
  return { mail }
}

/** The HTML body is shown in a sandboxed frame (no scripts, no same-origin access). */
export default function DevMailMessage() {
  const { mail } = useLoaderData<typeof loader>()
  const t = useT()
  const links = Array.from(mail.textBody.matchAll(/https?:\/\/\S+/g), (m) => m[0])
  return (
    <div className="space-y-4">
      <Link to="/dev/mail" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('devmail.back')}
      </Link>
      <PageTitle>{mail.subject}</PageTitle>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">{t('devmail.to')}</dt>
        <dd>{mail.toAddress}</dd>
        <dt className="text-slate-500">{t('devmail.created')}</dt>
        <dd>{formatDateTime(mail.createdAt)}</dd>
        <dt className="text-slate-500">{t('devmail.status')}</dt>
        <dd>{mail.status}</dd>
      </dl>
      <Card>
        <pre className="whitespace-pre-wrap font-sans text-sm" data-testid="mail-text">{mail.textBody}</pre>
        {links.length ? (
          <ul className="mt-4 space-y-1">
            {links.map((href) => (
              <li key={href}>
                <a href={href} className="break-all font-medium text-brand-700 underline">
                  {href}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
      <iframe title={mail.subject} sandbox="" srcDoc={mail.htmlBody} className="h-96 w-full rounded-xl border border-slate-200 bg-white" />
    </div>
  )
}
