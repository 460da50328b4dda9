// The invitation e-mails of students an instructor added or imported (issue 5 §4): the model
// creates the students and their tokens, this use case mails each one the link, through the outbox.
import type { ShardDb } from '#app/db/client.server.ts'
import type { Tenant } from '#app/db/schema.server.ts'
import { invitationEmail } from '#app/mail/templates.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import type { InvitedStudent } from '#app/models/student.server.ts'
import type { MailJob } from '#app/utils/env.server.ts'

/**
 * Email each new student the link to `/invitation/{token}`, in the school's language. `origin` must be
 * the school's configured one (`schoolEmailOrigin`, app/utils/school-origin.server.ts), never the request's (issue 19 §6).
 */
export async function sendInvitations(db: ShardDb, queue: Queue<MailJob> | undefined, tenant: Pick<Tenant, 'id' | 'name' | 'language'>, origin: string, invited: InvitedStudent[]) {
  for (const student of invited) {
    const url = new URL(`/invitation/${student.token}`, origin).toString()
    await enqueueEmail(db, queue, tenant.id, invitationEmail({ locale: tenant.language, school: tenant.name, name: student.name, to: student.email, url }))
  }
}
