import { audit, staffActor } from '#app/audit/audit.server.ts'
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { DomainSettingsPage } from '#app/domains/components/domain-settings-page.tsx'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { checkCustomHostname } from '#app/domains/hostname.ts'
import { isHostnameTakenFor } from '#app/models/domain.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { domainFlash, isDomainDone } from '#app/domains/domain-flash.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'

const AddDomainSchema = z.object({ hostname: z.string().max(400) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  // Arrived through a sign-in hand-over from another host of the school: its message as a flash.
  const handedOver = new URL(request.url).searchParams
  const flash = handedOver.get('flash')
  if (isDomainDone(flash)) throw redirectWithFlash(request, '/home/settings/domain', domainFlash(flash, (handedOver.get('host') ?? '').slice(0, 253)))
  // Viewing the page re-checks pending domains (at most every 5 s), so the status is live.
  const result = await domainsService(context.cloudflare.env, tenant.id).list({ refresh: true })
  // A check may just have activated a domain: let this isolate see it at once.
  if (result.ok) for (const d of result.body.domains) context.siteCache.invalidateHost(d.hostname)
  const url = new URL(request.url)
  return {
    title: `${getT(request, context)('domains.title')} · ${tenant.name}`,
    port: url.port,
    domains: result.ok ? result.body.domains : [],
    serviceError: result.ok ? null : result.error,
    now: Date.now(),
  }
}

export const action = staffAction({
  intents: (intent) => ({
    default: intent(AddDomainSchema, async ({ hostname }, { tenant, user, request, context }) => {
      // Checked here for a fast answer in the page's language; the worker checks again.
      const check = checkCustomHostname(hostname, context.cloudflare.env.PLATFORM_HOST)
      if (!check.ok) return formError({ hostname: { key: check.error } }, { hostname })
      // Another school's unproven claim does not block; the ownership TXT decides (the worker).
      if (await isHostnameTakenFor(context.control, tenant.id, check.hostname)) return formError({ hostname: { key: 'domains.error.taken' } }, { hostname }, 409)
      const result = await domainsService(context.cloudflare.env, tenant.id).add(check.hostname)
      if (!result.ok) return formError({ hostname: { key: result.error } }, { hostname }, result.status >= 500 ? 502 : result.status)
      context.siteCache.invalidateHost(check.hostname)
      await audit(context, request, { tenantId: tenant.id, actor: staffActor(user), action: 'domain.add', target: check.hostname, after: { hostname: check.hostname } })
      throw redirectWithFlash(request, '/home/settings/domain', domainFlash('added', check.hostname))
    }),
  }),
})

export default function DomainSettings() {
  return <DomainSettingsPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />
}
