// POST /lead (seed 000 §7): a lead form block's values. Scripts (X-Requested-With: XMLHttpRequest
// or Accept: application/json) get {ok: true} / {ok: false, errors}; a native form post (no
// JavaScript) is sent back to the page: `?lead=sent` shows the success view, `?lead=invalid&invalid=…`
// marks the fields. Another school's block, a draft page or a non-lead block is 404.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { submitLead } from '#app/storefront/lead-submission.server.ts'
import { jsonAnswer, readBody } from '#app/storefront/search.server.ts'
import { actionOnlyLoader, clientIp, notFound, requireSchool } from '#app/utils/request.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'

export const loader = actionOnlyLoader

const wantsJson = (request: Request) => request.headers.get('X-Requested-With') === 'XMLHttpRequest' || (request.headers.get('Accept') ?? '').includes('application/json')

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return jsonAnswer({ ok: false }, 405)
  const json = wantsJson(request)
  const body = await readBody(request)
  if (!body) return json ? jsonAnswer({ ok: false, errors: { form: 'validation.invalid' } }, 400) : new Response('Bad Request', { status: 400 })
  const result = await submitLead({ db: context.db, queue: context.cloudflare.env.MAIL_QUEUE, mailingQueue: context.cloudflare.env.MAILING_QUEUE, origin: await schoolEmailOrigin(context) }, tenant, clientIp(request), body)
  if (!result.ok && result.status === 404) notFound()
  const blockId = String(body.block_id)
  if (json) return result.ok ? jsonAnswer({ ok: true }) : jsonAnswer({ ok: false, errors: result.errors }, result.status)
  const back = new URLSearchParams({ lead_block: blockId })
  if (result.ok) {
    if (result.redirectTo) return redirect(result.redirectTo, 303)
    back.set('lead', 'sent')
  } else {
    back.set('lead', result.status === 422 ? 'invalid' : 'failed')
    const fields = Object.keys(result.errors).filter((k) => /^[a-z][a-z0-9_]{0,39}$/.test(k))
    if (result.status === 422 && fields.length) back.set('invalid', fields.join(','))
  }
  return redirect(`${result.pagePath}?${back.toString()}#block-${encodeURIComponent(blockId)}`, 303)
}
