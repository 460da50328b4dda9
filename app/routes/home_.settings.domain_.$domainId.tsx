import { audit, staffActor } from '#app/audit/audit.server.ts'
import { redirect } from '@remix-run/cloudflare'
import { z } from 'zod'
import { domainsService, type ServiceResult } from '#app/domains/domains-service.server.ts'
import { createAuthToken } from '#app/models/auth-token.server.ts'
import { getTenantDomain } from '#app/models/domain.server.ts'
import { staffAction, type IntentContext } from '#app/auth/staff.server.ts'
import { DOMAIN_DONE, domainFlash } from '#app/domains/domain-flash.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader, notFound } from '#app/utils/request.server.ts'

const ConfirmSchema = z.object({ confirm: z.string().max(20).optional() })

export const loader = actionOnlyLoader

type Ctx = IntentContext<NonNullable<Awaited<ReturnType<typeof getTenantDomain>>>>
type Intent = 'check' | 'set_primary' | 'unset_primary' | 'remove'

/** After a change: back to the domains page with what happened, handing the creator over when the next page is on another host. */
async function changed(intent: Intent, result: ServiceResult<unknown>, { tenant, user, request, context, loaded: domain }: Ctx) {
  const back = (query: Record<string, string>) => redirect(`/home/settings/domain?${new URLSearchParams(query)}`)
  if (!result.ok) return back({ error: result.error })
  // Routing changed: forget this school's hosts in this isolate (others follow within the TTL).
  context.siteCache.invalidateTenant(tenant.id)
  context.siteCache.invalidateHost(domain.hostname)
  if (intent === 'remove') await audit(context, request, { tenantId: tenant.id, actor: staffActor(user), action: 'domain.remove', target: domain.hostname, before: { hostname: domain.hostname, status: domain.verificationStatus } })
  const done = DOMAIN_DONE[intent]
  // Session cookies are host-only: when the creator's next page lives on another host (the new
  // primary, or the subdomain after removing the host they are on), hand them over signed in.
  const current = context.site.hostname
  const nextHost =
    intent === 'set_primary' && domain.hostname !== current
      ? domain.hostname
      : intent === 'remove' && domain.hostname === current
        ? `${tenant.slug}.${context.cloudflare.env.PLATFORM_HOST}`
        : null
  if (nextHost) {
    const token = await createAuthToken(context.db, tenant.id, user.id, 'login_handover')
    const target = new URL(request.url)
    target.hostname = nextHost
    target.pathname = '/auth/handover'
    // A flash cookie cannot cross hosts: the domains page there turns `flash` into one.
    target.search = new URLSearchParams({ token, next: `/home/settings/domain?${new URLSearchParams({ flash: done, host: domain.hostname })}` }).toString()
    return redirect(target.toString())
  }
  return redirectWithFlash(request, '/home/settings/domain', domainFlash(done, domain.hostname))
}

/** Check again, make primary, remove. The id is looked up in this school first: another school's id is 404. */
export const action = staffAction({
  load: async (tenant, { context, params }) => (await getTenantDomain(context.control, tenant.id, params.domainId ?? '')) ?? notFound(),
  intents: (intent) => ({
    remove: intent(ConfirmSchema, async (input, ctx) => {
      // Seed 001 §5: deletion requires typing DELETE.
      if (input.confirm !== 'DELETE') return redirect(`/home/settings/domain?${new URLSearchParams({ error: 'domains.error.confirm_delete' })}`)
      return changed('remove', await domainsService(ctx.context.cloudflare.env, ctx.tenant.id).remove(ctx.loaded.id), ctx)
    }),
    check: intent(ConfirmSchema, async (_input, ctx) => changed('check', await domainsService(ctx.context.cloudflare.env, ctx.tenant.id).check(ctx.loaded.id), ctx)),
    set_primary: intent(ConfirmSchema, async (_input, ctx) => changed('set_primary', await domainsService(ctx.context.cloudflare.env, ctx.tenant.id).setPrimary(ctx.loaded.id, true), ctx)),
    unset_primary: intent(ConfirmSchema, async (_input, ctx) => changed('unset_primary', await domainsService(ctx.context.cloudflare.env, ctx.tenant.id).setPrimary(ctx.loaded.id, false), ctx)),
  }),
})
