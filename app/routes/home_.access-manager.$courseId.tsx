// POST /home/access-manager/{courseId} {course_id, parent_transaction_id, name, email} (seed 000
// §7, seed 001 paths): invite one person to a seat of a multi-seat purchase, identified by the
// purchase's hash. Only its buyer or the school's staff; anything else — another school's course
// or hash, a hash of another course, a stranger — is 404. Script calls get 201 {invitation,
// licences_left} or 422/409 {message, errors}; a plain form gets a 303 back to /panel/seats/{hash}.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { readFields } from '#app/comments/api.server.ts'
import { licencesLeft, listInvitations } from '#app/models/access-invitation.server.ts'
import { errorCode, errorsForScript, findSeatPurchase, inviteToSeat, requireSeatManager, SeatInviteSchema, seatNotFound } from '#app/seats/seats.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'
import { parseWith } from '#app/utils/validation.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const script = isDataRequest(request)
  const courseId = String(params.courseId ?? '').slice(0, 64)
  const fields = (await readFields(request))?.fields ?? {}
  // The purchase is looked up in this school first: another school's ids are 404 before sign-in.
  const tx = await findSeatPurchase(context, tenant.id, fields.parent_transaction_id ?? '')
  if (!tx || tx.productId !== courseId || (fields.course_id && fields.course_id !== courseId)) seatNotFound(script)
  if (request.method !== 'POST') return noStoreJson({ message: 'Method Not Allowed' }, 405)
  await requireSeatManager(request, context, tx)
  const back = `/panel/seats/${tx.hash}`
  const t = getT(request, context)
  const parsed = parseWith(SeatInviteSchema, fields)
  if (!parsed.ok) return script ? noStoreJson(errorsForScript(t, parsed.errors), 422) : redirect(`${back}?error=invalid`, 303)
  const answer = await inviteToSeat(context, new URL(request.url).origin, tenant, tx, parsed.data)
  if (!answer.ok) return script ? noStoreJson(errorsForScript(t, answer.errors), answer.status === 409 ? 422 : answer.status) : redirect(`${back}?error=${errorCode(answer.errors)}`, 303)
  if (!script) return redirectWithFlash(request, back, { done: 'invited', message: 'seats.invited_generic' }, { status: 303 })
  const invitations = await listInvitations(context.db, tenant.id, tx.id)
  const invitation = invitations.find((i) => i.id === answer.invitationId)
  return noStoreJson(
    {
      invitation: invitation
        ? {
            id: invitation.id,
            name: invitation.name,
            email: invitation.email,
            status: invitation.status,
          }
        : { id: answer.invitationId, email: answer.email, status: 'sent' },
      licences_left: licencesLeft(tx.quantity, invitations.length),
    },
    201,
  )
}
