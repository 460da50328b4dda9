// The access manager of a multi-seat purchase (issue 8 item 7, seed 000 widget 15 and §5): the
// course, licences left (quantity minus invitations, never below 0), the invitations with their
// status, a name + email form that invites, and deleting a 'sent' invitation after a confirmation.
// Without JavaScript the delete link opens a confirmation card whose plain form posts
// `_method=DELETE` to /home/access-manager/{courseId}/{invitationId}; with it a confirm dialog
// sends the DELETE. Only the buyer and the school's staff; anything else is 404.
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { SeatsManager, type ActionAnswer } from '#app/seats/components/seats-manager.tsx'
import { licencesLeft, listInvitations, syncAcceptedInvitations } from '#app/models/access-invitation.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { inviteToSeat, requireSeatPurchase, SeatInviteSchema } from '#app/seats/seats.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseWith, readFormFields } from '#app/utils/validation.ts'

/** What a redirect back from /home/access-manager may say (anything else is ignored; done comes as a flash). */
const BackSchema = z.object({
  error: z.enum(['invalid', 'no_licences', 'duplicate', 'not_paid', 'not_deletable']).optional().catch(undefined),
  delete: z.string().max(64).optional().catch(undefined),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { tenant, tx } = await requireSeatPurchase(request, context, params.hash ?? '')
  await syncAcceptedInvitations(context.db, tenant.id, tx.id)
  const [product, invitations] = await Promise.all([getProduct(context.db, tenant.id, tx.productId), listInvitations(context.db, tenant.id, tx.id)])
  const back = BackSchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const confirm = invitations.find((i) => i.id === back.delete && i.status === 'sent')
  return {
    title: `${getT(request, context)('seats.title')} · ${tx.productTitle}`,
    hash: tx.hash,
    courseId: tx.productId,
    product: {
      title: product?.title ?? tx.productTitle,
      watch: product?.published ? `/${product.slug}/watch` : null,
    },
    quantity: tx.quantity,
    left: licencesLeft(tx.quantity, invitations.length),
    paid: tx.status === 'completed',
    invitations: invitations.map((i) => ({
      id: i.id,
      name: i.name,
      email: i.email,
      status: i.status,
    })),
    confirm: confirm ? { id: confirm.id, email: confirm.email } : null,
    error: back.error ?? null,
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { tenant, tx } = await requireSeatPurchase(request, context, params.hash ?? '')
  const input = await readFormFields(request)
  if (!input) return formError({ form: { key: 'validation.invalid' } }, {}, 400)
  const values = {
    name: (input.name ?? '').slice(0, 500),
    email: (input.email ?? '').slice(0, 500),
  }
  const parsed = parseWith(SeatInviteSchema, input)
  if (!parsed.ok) return formError(parsed.errors, values, 422)
  const answer = await inviteToSeat(context, new URL(request.url).origin, tenant, tx, parsed.data)
  if (!answer.ok) return formError(answer.errors, values, answer.status)
  return { ok: true as const, invited: answer.email }
}

export default function SeatsPage() {
  return <SeatsManager data={useLoaderData<typeof loader>()} action={useActionData<ActionAnswer>()} />
}
