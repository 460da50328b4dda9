// "A new student registers" (seed 001 §6 notification preferences, issue 23 §11): every owner of
// the school gets an e-mail through the outbox when the preference is on (the default). Called
// from each path that creates a student account. A failure here never undoes the registration.
import type { AppLoadContext } from '@remix-run/cloudflare'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { newStudentEmail } from '#app/mail/auth-mail.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { listOwnerRecipients } from '#app/models/lead.server.ts'
import { getNotificationPrefs } from '#app/models/page-settings.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'
import { emailUrl } from '#app/utils/school-origin.server.ts'

export async function notifyOwnersOfNewStudent(context: AppLoadContext, tenant: Pick<SchoolTenant, 'id' | 'name' | 'language'>, student: { id: string; name: string; email: string }) {
  try {
    const [prefs, owners] = await Promise.all([getNotificationPrefs(context.db, tenant.id), listOwnerRecipients(context.db, tenant.id)])
    if (!prefs.registration || owners.length === 0) return 0
    const url = emailUrl(await schoolEmailOrigin(context, tenant.id), `/home/students/${encodeURIComponent(student.id)}`)
    for (const owner of owners) {
      await enqueueEmail(context.db, context.cloudflare.env.MAIL_QUEUE, tenant.id, newStudentEmail({ locale: tenant.language, school: tenant.name, to: owner.email, student, url }))
    }
    return owners.length
  } catch (error) {
    console.error(JSON.stringify({ event: 'notify_new_student_failed', tenantId: tenant.id, error: String(error) }))
    return 0
  }
}
