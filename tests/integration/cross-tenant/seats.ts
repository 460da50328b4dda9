// Cross-tenant registry of the seats area (issue 8 item 7): the buyer's access-manager page and
// the seed's add/delete invitation calls. The victim purchase belongs to a buyer who is not the
// matrix's victim student, so that student (same school, not the buyer) is refused too.
import { createProduct } from '#app/models/product.server.ts'
import { inviteSeat } from '#app/models/access-invitation.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { createTestStudent, dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'panel_.seats.$hash': [
    { method: 'GET', path: (v) => `/panel/seats/${v.seatHash}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/panel/seats/${v.seatHash}`, form: { name: 'Hijacker', email: 'hijacker@example.com' } },
  ],
  // The purchase hash travels in the body, which a probe cannot address: seats.test.ts replays
  // this call with the victim's real hash from another school.
  'home_.access-manager.$courseId': [
    { method: 'POST', path: (v) => `/home/access-manager/${v.seatCourseId}`, form: { parent_transaction_id: 'victimhashunknown', name: 'Hijacker', email: 'hijacker@example.com' } },
  ],
  'home_.access-manager.$courseId.$invitationId': [
    { method: 'POST', path: (v) => `/home/access-manager/${v.seatCourseId}/${v.seatInvitationId}`, form: { _method: 'DELETE' }, control: { status: 302 } },
  ],
}

/** A completed 3-seat purchase of a course by a buyer of the victim school, with one 'sent' invitation. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const unique = crypto.randomUUID().slice(0, 8)
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: `Team course ${unique}`, published: true })
  const buyer = await createTestStudent(school.tenantId, { email: `seat-buyer-${unique}@example.com` })
  const tx = await createTransaction(dbOf(school.tenantId), school.tenantId, {
    userId: buyer.id,
    productId: course.id,
    productKind: 'course',
    productTitle: course.title,
    quantity: 3,
    currency: 'USD',
    unitAmount: 0,
    totalAmount: 0,
    buyer: JSON.stringify({ name: 'Seat Buyer', email: buyer.email }),
    termsAcceptedAt: Date.now(),
    checkoutPath: `/${course.slug}/checkout`,
  })
  await settleTransaction(dbOf(school.tenantId), school.tenantId, tx.id, { event: null, status: 'completed' })
  const invited = await inviteSeat(dbOf(school.tenantId), school.tenantId, { transactionId: tx.id, productId: course.id, name: 'Seat Holder', email: `seat-holder-${unique}@example.com` })
  if (!invited.ok) throw new Error(`victim seat: ${invited.reason}`)
  return { seatHash: tx.hash, seatCourseId: course.id, seatInvitationId: invited.invitation.id }
}
