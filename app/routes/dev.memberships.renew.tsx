// POST /dev/memberships/renew (development only, platform host): run the membership renewals now,
// optionally as if it were `now` (ms since the epoch), so a tester can jump ahead in time without
// waiting for the cron, and optionally for one membership only (`membership_id`: the panel's
// data-membership-billing), so other memberships of the database are left alone. Answers JSON with what happened (app/membership/membership-billing.server.ts).
//   curl -X POST -H 'Origin: http://localhost:8787' -d now=1893456000000 http://localhost:8787/dev/memberships/renew
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { runMembershipRenewals } from '#app/membership/membership-billing.server.ts'
import { isDevelopment } from '#app/utils/env.server.ts'
import { notFound, requirePlatform } from '#app/utils/request.server.ts'

// Up to year 2200: anything else is a typo, not a time.
const RenewSchema = z.object({
  now: z.coerce.number().int().min(0).max(7_258_118_400_000).optional(),
  membership_id: z.string().regex(/^[a-z0-9]{1,64}$/).optional(),
})

const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } })

export async function loader({ context }: LoaderFunctionArgs) {
  requirePlatform(context)
  if (!isDevelopment(context.cloudflare.env)) notFound()
  return new Response(null, { status: 405, headers: { Allow: 'POST' } })
}

async function readInput(request: Request): Promise<unknown> {
  if ((request.headers.get('Content-Type') ?? '').includes('application/json')) return request.json().catch(() => null)
  const form = await request.formData().catch(() => null)
  if (!form) return {}
  const fields: Record<string, string> = {}
  for (const name of ['now', 'membership_id']) {
    const value = form.get(name)
    if (typeof value === 'string' && value.trim()) fields[name] = value.trim()
  }
  return fields
}

export async function action({ request, context }: ActionFunctionArgs) {
  requirePlatform(context)
  const { env } = context.cloudflare
  if (!isDevelopment(env)) notFound()
  const parsed = RenewSchema.safeParse((await readInput(request)) ?? {})
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => String(i.path[0])))
    const errors: Record<string, string> = {}
    if (fields.has('now')) errors.now = 'now must be a time in milliseconds since 1970-01-01'
    if (fields.has('membership_id')) errors.membership_id = 'membership_id must be a membership id'
    return json({ errors }, 400)
  }
  const report = await runMembershipRenewals(env, parsed.data.now ?? Date.now(), { membershipId: parsed.data.membership_id })
  return json(report)
}
