// Cross-tenant registry of certificates (issue 24 item 2): a course's certificate settings, the
// student's PDF and the public verification page. Revoke/restore/toggle take their ids in the form
// of /home/certificates (no URL parameter); another school's ids there are covered in
// tests/integration/certificates.test.ts.
import { insertCertificateOnce, saveCertificateSettings } from '#app/models/certificate.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.certificates.$courseId': [
    { method: 'GET', path: (v) => `/home/certificates/${v.certificateCourseId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/certificates/${v.certificateCourseId}`, form: { intent: 'save', enabled: 'off', signatureName: 'Hijacked' } },
  ],
  'panel_.certificates.$certificateId': [{ method: 'GET', path: (v) => `/panel/certificates/${v.certificateId}`, control: { status: 302 } }],
  'certificates.$certificateId': [{ method: 'GET', path: (v) => `/certificates/${v.certificateId}`, control: { status: 200 } }],
}

/** A course of the victim school with certificates on, and a certificate issued to its student. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const course = await createProduct(dbOf(school.tenantId), school.tenantId, { kind: 'course', title: 'Victim certified course', published: true })
  await saveCertificateSettings(dbOf(school.tenantId), school.tenantId, course.id, { enabled: true, language: null, signatureName: 'Victim Signer' })
  const { certificate } = await insertCertificateOnce(dbOf(school.tenantId), school.tenantId, {
    productId: course.id,
    userId: school.studentId,
    studentName: 'Victim Student',
    courseTitle: course.title,
    language: 'en',
  })
  return { certificateCourseId: course.id, certificateId: certificate.id }
}
