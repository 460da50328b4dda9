import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { Alert, Button, Card, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { addPeerDnsRecord, deletePeerDnsRecord, listPeerDnsRecords } from '#app/dev/dns-peer.server.ts'
import { DNS_RECORD_TYPES } from '#app/dev/dns-record-types.ts'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { listUnfinishedCustomDomainsForDevTools } from '#app/models/domain.server.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { notFound, requirePlatform } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseForm, text } from '#app/utils/validation.ts'

const DevDnsSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add'), type: z.enum(DNS_RECORD_TYPES), name: text({ max: 253 }), value: text({ max: 500 }) }),
  z.object({ intent: z.literal('delete'), id: z.string().min(1).max(100) }),
  z.object({ intent: z.literal('set_all'), tenantId: z.string().min(1).max(100), domainId: z.string().min(1).max(100) }),
])

export const meta: MetaFunction = () => [{ title: 'Dev DNS · Coursefront' }, { name: 'robots', content: 'noindex' }]

/** Development only: play the creator's DNS provider so the whole domain flow runs locally. */
export async function loader({ context }: LoaderFunctionArgs) {
  requirePlatform(context)
  const { env } = context.cloudflare
  if (!isDevelopment(env)) notFound()
  const [records, unfinished] = await Promise.all([listPeerDnsRecords(env), listUnfinishedCustomDomainsForDevTools(context.control)])
  return { records, unfinished }
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePlatform(context)
  const { env } = context.cloudflare
  if (!isDevelopment(env)) notFound()
  const parsed = await parseForm(DevDnsSchema, request)
  if (!parsed.ok) return formError(parsed.errors, parsed.values)
  const input = parsed.data
  if (input.intent === 'add') {
    await addPeerDnsRecord(env, { type: input.type, name: input.name.toLowerCase().replace(/\.$/, ''), value: input.value })
  } else if (input.intent === 'delete') {
    await deletePeerDnsRecord(env, input.id)
  } else {
    const list = await domainsService(env, input.tenantId).list()
    const domain = list.ok ? list.body.domains.find((d) => d.id === input.domainId) : undefined
    if (!domain) notFound()
    // A CNAME for a subdomain, or the A/AAAA records for an apex, plus every TXT record.
    const wanted = domain.records.filter((r) => (domain.apex ? r.type !== 'CNAME' : r.type !== 'A' && r.type !== 'AAAA'))
    for (const r of wanted) if (!r.seen) await addPeerDnsRecord(env, { type: r.type, name: r.name, value: r.value })
  }
  return redirect('/dev/dns')
}

export default function DevDns() {
  const { records, unfinished } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('devdns.text')}>{t('devdns.title')}</PageTitle>
      {records === null ? <Alert>{t('devdns.unavailable')}</Alert> : null}
      {unfinished.length ? (
        <Card>
          <h2 className="mb-3 text-lg font-semibold">{t('devdns.pending')}</h2>
          <ul className="space-y-2">
            {unfinished.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono">
                  {d.hostname} <span className="text-sm text-slate-500">({t(`domains.status.${d.status}`)})</span>
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="set_all" />
                  <input type="hidden" name="tenantId" value={d.tenantId} />
                  <input type="hidden" name="domainId" value={d.id} />
                  <Button type="submit" variant="secondary">
                    {t('devdns.set_all', { hostname: d.hostname })}
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card>
        <h2 className="mb-3 text-lg font-semibold">{t('devdns.records')}</h2>
        {records && records.length === 0 ? <p className="text-slate-600">{t('devdns.empty')}</p> : null}
        {records && records.length ? (
          <table className="min-w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3">{t('devdns.type')}</th>
                <th scope="col" className="py-1 pr-3">{t('devdns.name')}</th>
                <th scope="col" className="py-1 pr-3">{t('devdns.value')}</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {records.map((r) => (
                <tr key={r.id}>
                  <td className="py-2 pr-3 font-mono">{r.type}</td>
                  <td className="py-2 pr-3 font-mono break-all">{r.name}</td>
                  <td className="py-2 pr-3 font-mono break-all">{r.value}</td>
                  <td className="py-2 text-right">
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="id" value={r.id} />
                      <Button type="submit" variant="secondary">
                        {t('devdns.delete')}
                      </Button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <Form method="post" className="mt-6 grid gap-3 sm:grid-cols-[8rem_1fr_1fr_auto] sm:items-end" noValidate>
          <input type="hidden" name="intent" value="add" />
          <SelectField label={t('devdns.type')} name="type" options={DNS_RECORD_TYPES.map((v) => ({ value: v, label: v }))} error={actionData?.errors?.type} />
          <Field label={t('devdns.name')} name="name" placeholder="kurs.example-school.test" error={actionData?.errors?.name} />
          <Field label={t('devdns.value')} name="value" error={actionData?.errors?.value} />
          <Button type="submit">{t('devdns.add')}</Button>
        </Form>
      </Card>
    </div>
  )
}
