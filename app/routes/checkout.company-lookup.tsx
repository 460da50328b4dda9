// GET /checkout/company-lookup?nip=… or ?vat=… (issue 25): the checkout's "Fill from the register".
// A school's page asks with the number the buyer typed; the answer fills fields the buyer can still
// edit, and nothing here is needed to place an order (typing works without it, and without JS).
//   200 {ok: true, company: {name, street, postalCode, city, country}}
//   200 {ok: false, reason: 'not_found'}        the register has no such number
//   422 {ok: false, reason: 'checksum'}         not a valid NIP / EU VAT number (no register asked)
//   503 {ok: false, reason: 'unavailable'}      GUS/VIES could not answer (never cached)
//   429 {ok: false, reason: 'unavailable'}      + Retry-After: this IP asked too often (ADR 024)
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { lookupCompany } from '#app/checkout/company-lookup/lookup.server.ts'
import { clientIp, requireSchool } from '#app/utils/request.server.ts'

const QuerySchema = z.object({ nip: z.string().trim().max(40).optional(), vat: z.string().trim().max(40).optional() }).refine((q) => !!q.nip !== !!q.vat, 'exactly one of nip, vat')

const answer = (body: unknown, status: number, headers: Record<string, string> = {}) => Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } })

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireSchool(context)
  const url = new URL(request.url)
  const query = QuerySchema.safeParse({ nip: url.searchParams.get('nip') || undefined, vat: url.searchParams.get('vat') || undefined })
  if (!query.success) return answer({ ok: false, reason: 'checksum' }, 422)
  const result = await lookupCompany({ dbs: context, env: context.cloudflare.env, ip: clientIp(request) }, query.data)
  if (result.ok) {
    const { name, street, postalCode, city, country } = result.company
    return answer({ ok: true, company: { name, street, postalCode, city, country } }, 200)
  }
  if (result.retryAfter) return answer({ ok: false, reason: result.reason }, 429, { 'Retry-After': String(result.retryAfter) })
  return answer({ ok: false, reason: result.reason }, result.reason === 'checksum' ? 422 : result.reason === 'unavailable' ? 503 : 200)
}
