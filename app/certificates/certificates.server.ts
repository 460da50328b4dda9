// Certificates of completion (issue 24 item 2): the rule, issuing (idempotent), the offers shown in
// the student's panel and the player, and the PDF (rendered once in the Worker, kept in R2, later
// downloads read from R2). The verification link is built from the school's stored primary
// address, never from a request's Host.
import type { Env } from '#app/utils/env.server.ts'
import type { ShardDb } from '#app/db/client.server.ts'
import { controlDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import { getSchoolTimeZoneSetting } from '#app/models/stats.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import {
  getCertificateSettings,
  getCourseCompletion,
  getStudentCertificate,
  insertCertificateOnce,
  isCourseComplete,
  listEnabledCertificateCourses,
  setCertificatePdfKey,
  type Certificate,
} from '#app/models/certificate.server.ts'
import { getCourseAccess } from '#app/models/course-access.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { schoolEmailOriginById } from '#app/models/school-address.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { getUserById } from '#app/models/user.server.ts'
import { formatCertificateDate } from './certificate-dates.ts'
import { renderCertificatePdf, type CertificateImage } from './pdf.server.ts'

export type CertificateEnv = DatabaseEnv & Pick<Env, 'MEDIA' | 'ENVIRONMENT' | 'PLATFORM_HOST' | 'PUBLIC_PORT'>

export type CertificateOffer = {
  productId: string
  courseTitle: string
  courseSlug: string
  state: 'issued' | 'in_progress'
  certificateId?: string
  issuedAt?: number
  revoked?: boolean
  revokedAt?: number | null
  /** While in progress: what is left to do. */
  lecturesLeft?: number
  examsLeft?: number
}

/**
 * Issues the student's certificate for the course when certificates are on and the rule holds;
 * returns the certificate (an earlier one, revoked or not, is returned as it is) or null.
 */
export async function issueCertificateIfEligible(db: ShardDb, env: CertificateEnv, tenantId: string, userId: string, productId: string): Promise<Certificate | null> {
  const existing = await getStudentCertificate(db, tenantId, userId, productId)
  if (existing) return existing
  const settings = await getCertificateSettings(db, tenantId, productId)
  if (!settings?.enabled) return null
  if (!isCourseComplete(await getCourseCompletion(db, tenantId, userId, productId))) return null
  const [product, user, tenant] = await Promise.all([getProduct(db, tenantId, productId, 'course'), getUserById(db, tenantId, userId), getTenantById(controlDb(env), tenantId)])
  if (!product || !user || !tenant) return null
  const { certificate } = await insertCertificateOnce(db, tenantId, {
    productId,
    userId,
    studentName: user.name.trim() || user.email,
    courseTitle: product.title,
    language: settings.language ?? tenant.language,
  })
  return certificate
}

function toOffer(course: { productId: string; title: string; slug: string }, certificate: Certificate | null, left?: { lecturesLeft: number; examsLeft: number }): CertificateOffer {
  const base = { productId: course.productId, courseTitle: course.title, courseSlug: course.slug }
  if (certificate) return { ...base, state: 'issued', certificateId: certificate.id, issuedAt: certificate.issuedAt, revoked: certificate.revokedAt !== null, revokedAt: certificate.revokedAt }
  return { ...base, state: 'in_progress', ...left }
}

async function offerFor(db: ShardDb, env: CertificateEnv, tenantId: string, userId: string, course: { productId: string; title: string; slug: string }): Promise<CertificateOffer | null> {
  const access = await getCourseAccess(db, tenantId, course.productId, { id: userId, role: 'student' })
  const existing = await getStudentCertificate(db, tenantId, userId, course.productId)
  // A certificate once issued stays the student's, even after the access ended.
  if (existing) return toOffer(course, existing)
  if (!access.allowed) return null
  const completion = await getCourseCompletion(db, tenantId, userId, course.productId)
  if (isCourseComplete(completion)) {
    const issued = await issueCertificateIfEligible(db, env, tenantId, userId, course.productId)
    if (issued) return toOffer(course, issued)
  }
  return toOffer(course, null, { lecturesLeft: completion.lecturesLeft, examsLeft: completion.examsLeft })
}

/** Per course with certificates on that the student has (or had, once issued): issued or in progress; eligible ones are issued now. */
export async function certificateOffers(db: ShardDb, env: CertificateEnv, tenantId: string, userId: string): Promise<CertificateOffer[]> {
  const courses = await listEnabledCertificateCourses(db, tenantId)
  const offers = await Promise.all(courses.map((course) => offerFor(db, env, tenantId, userId, course)))
  return offers.filter((offer): offer is CertificateOffer => offer !== null)
}

/** One course's offer (the player); null when certificates are off there or the student has no access. */
export async function courseCertificateOffer(db: ShardDb, env: CertificateEnv, tenantId: string, userId: string, productId: string): Promise<CertificateOffer | null> {
  const settings = await getCertificateSettings(db, tenantId, productId)
  if (!settings?.enabled) return null
  const product = await getProduct(db, tenantId, productId, 'course')
  if (!product) return null
  return offerFor(db, env, tenantId, userId, { productId, title: product.title, slug: product.slug })
}

/** PNG or JPEG by content (what pdf-lib can embed); anything else is null. */
export function imageKindOf(bytes: Uint8Array): CertificateImage['kind'] | null {
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png'
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  return null
}

async function readImage(env: CertificateEnv, key: string | null): Promise<CertificateImage | null> {
  if (!key) return null
  const object = await env.MEDIA.get(key)
  if (!object) return null
  const bytes = new Uint8Array(await object.arrayBuffer())
  const kind = imageKindOf(bytes)
  return kind ? { bytes, kind } : null
}

export function certificatePdfKey(tenantId: string, certificateId: string) {
  return `tenants/${tenantId}/certificates/${certificateId}.pdf`
}

export function certificatePath(certificateId: string) {
  return `/certificates/${certificateId}`
}

/** The certificate's wording in its language. */
export function certificateLabels(language: Locale) {
  const t = getTranslator(language)
  return {
    title: t('certificates.pdf.title'),
    certifies: t('certificates.pdf.certifies'),
    completed: t('certificates.pdf.completed'),
    date: t('certificates.pdf.date'),
    signature: t('certificates.pdf.signature'),
    id: t('certificates.pdf.id'),
    verify: t('certificates.pdf.verify'),
  }
}

/** Renders the PDF from the certificate's snapshots and the course's current settings. */
export async function buildCertificatePdf(db: ShardDb, env: CertificateEnv, tenantId: string, certificate: Certificate): Promise<Uint8Array> {
  const [tenant, settings, origin, zone] = await Promise.all([
    getTenantById(controlDb(env), tenantId),
    certificate.productId ? getCertificateSettings(db, tenantId, certificate.productId) : undefined,
    schoolEmailOriginById(controlDb(env), env, tenantId),
    getSchoolTimeZoneSetting(db, tenantId),
  ])
  if (!tenant || !origin) throw new Error(`buildCertificatePdf: no school ${tenantId}`)
  const [logo, signatureImage] = await Promise.all([readImage(env, tenant.avatarPath), readImage(env, settings?.signatureImageKey ?? null)])
  return renderCertificatePdf({
    schoolName: tenant.name,
    logo,
    labels: certificateLabels(certificate.language),
    studentName: certificate.studentName,
    courseTitle: certificate.courseTitle,
    dateText: formatCertificateDate(certificate.issuedAt, certificate.language, zone?.timeZone ?? ''),
    signatureName: settings?.signatureName ?? '',
    signatureImage,
    certificateId: certificate.id,
    verifyUrl: `${origin}${certificatePath(certificate.id)}`,
    issuedAt: certificate.issuedAt,
  })
}

/** The PDF's bytes: from R2 when it was rendered before, else rendered now and stored once. */
export async function certificatePdf(db: ShardDb, env: CertificateEnv, tenantId: string, certificate: Certificate): Promise<ReadableStream | Uint8Array<ArrayBuffer>> {
  if (certificate.pdfKey) {
    const stored = await env.MEDIA.get(certificate.pdfKey)
    if (stored) return stored.body
  }
  const bytes = await buildCertificatePdf(db, env, tenantId, certificate)
  const key = certificatePdfKey(tenantId, certificate.id)
  await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: 'application/pdf' } })
  await setCertificatePdfKey(db, tenantId, certificate.id, key)
  return new Uint8Array(bytes)
}

/** A download name: the course title in ASCII. */
export function certificateFilename(certificate: Pick<Certificate, 'courseTitle' | 'id'>) {
  const slug = certificate.courseTitle
    .normalize('NFKD')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `certificate-${slug || 'course'}-${certificate.id.slice(0, 8)}.pdf`
}
