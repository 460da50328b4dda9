// DELETE /home/access-manager/{courseId}/{invitationId} (seed 000 §7), or POST with
// `_method=DELETE` from the no-JS confirmation form: deletes an invitation while its status is
// 'sent' and revokes the access its seat gave. Only the purchase's buyer or the school's staff;
// another school's ids, an invitation of another course or a stranger get 404. Script calls get
// {deleted: true} or 422 {message}; a plain form gets a 303 back to /panel/seats/{hash}.
import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { readFields } from '#app/comments/api.server.ts'
import { deleteInvitation, getInvitation } from '#app/models/access-invitation.server.ts'
import { getTransaction } from '#app/models/transaction.server.ts'
import { requireSeatManager, seatNotFound } from '#app/seats/seats.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'

export const loader = actionOnlyLoader

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const script = isDataRequest(request)
  const fields = request.method === 'POST' ? (await readFields(request))?.fields ?? {} : {}
  const method = request.method === 'POST' && fields._method?.toUpperCase() === 'DELETE' ? 'DELETE' : request.method
  // Looked up in this school first: another school's ids are 404 before sign-in.
  const invitation = await getInvitation(context.db, tenant.id, String(params.invitationId ?? '').slice(0, 64))
  if (!invitation || invitation.productId !== params.courseId) seatNotFound(script)
  const tx = await getTransaction(context.db, tenant.id, invitation.transactionId)
  if (!tx) seatNotFound(script)
  if (method !== 'DELETE') return noStoreJson({ message: 'Method Not Allowed' }, 405)
  await requireSeatManager(request, context, tx)
  const back = `/panel/seats/${tx.hash}`
  const deleted = await deleteInvitation(context.db, tenant.id, invitation.id)
  if (!deleted) return script ? noStoreJson({ message: getT(request, context)('seats.error.not_deletable') }, 422) : redirect(`${back}?error=not_deletable`, 303)
  return script ? noStoreJson({ deleted: true }) : redirectWithFlash(request, back, { done: 'deleted', message: 'seats.deleted' }, { status: 303 })
}
