// Certificates of completion (issue 24 item 2): a course's certificate settings, the rule's reads
// (published lectures completed, required exams passed) and the issued certificates. A certificate
// keeps snapshots of the student's name and the course title; its id is public (the verification
// page) and unguessable. Every function takes the tenant explicitly.
import { and, asc, count, desc, eq, exists, isNotNull, isNull, not, sql } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { certificateSettings, certificates, examAttempts, exams, lectureProgress, lectures, products } from '#app/db/schema.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant, sameTenant } from './tenant-scope.server.ts'

export type CertificateSettings = typeof certificateSettings.$inferSelect
export type Certificate = typeof certificates.$inferSelect
export type CertificateLanguage = 'en' | 'pl'

export const SIGNATURE_NAME_MAX = 120
export const REVOKE_REASON_MAX = 500
/** Ids are 20 random bytes (160 bits) in base32: 32 characters. */
export const CERTIFICATE_ID_LENGTH = 32

/** Anything that cannot be a certificate id is not looked up. */
export function isCertificateId(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z2-7]{32}$/.test(value)
}

export async function getCertificateSettings(db: ShardDb, tenantId: string, productId: string): Promise<CertificateSettings | undefined> {
  const [row] = await db
    .select()
    .from(certificateSettings)
    .where(ofTenant(certificateSettings, tenantId, eq(certificateSettings.productId, productId)))
    .limit(1)
  return row
}

/** The school's courses with their certificate switch and how many certificates were issued. */
export async function listCourseCertificateSettings(db: ShardDb, tenantId: string, limit = 500) {
  const issued = db
    .select({ productId: certificates.productId, issued: count().as('issued') })
    .from(certificates)
    .where(ofTenant(certificates, tenantId))
    .groupBy(certificates.productId)
    .as('issued')
  return db
    .select({
      id: products.id,
      title: products.title,
      enabled: certificateSettings.enabled,
      issued: sql<number>`coalesce(${issued.issued}, 0)`.mapWith(Number),
    })
    .from(products)
    .leftJoin(certificateSettings, and(sameTenant(certificateSettings, products), eq(certificateSettings.productId, products.id)))
    .leftJoin(issued, eq(issued.productId, products.id))
    .where(ofTenant(products, tenantId, eq(products.kind, 'course')))
    .orderBy(asc(products.title))
    .limit(limit)
}

/** Courses of the school with certificates switched on. */
export async function listEnabledCertificateCourses(db: ShardDb, tenantId: string) {
  return db
    .select({ productId: products.id, title: products.title, slug: products.slug })
    .from(certificateSettings)
    .innerJoin(products, and(sameTenant(products, certificateSettings), eq(products.id, certificateSettings.productId)))
    .where(ofTenant(certificateSettings, tenantId, eq(certificateSettings.enabled, true), eq(products.kind, 'course')))
    .orderBy(asc(products.title))
}

export type CertificateSettingsInput = {
  enabled: boolean
  language: CertificateLanguage | null
  signatureName: string
  /** undefined = keep the stored image; null = remove it. */
  signatureImageKey?: string | null
}

/** Creates or updates a course's settings (one row per course). */
export async function saveCertificateSettings(db: ShardDb, tenantId: string, productId: string, input: CertificateSettingsInput, now = Date.now()) {
  const set: Partial<CertificateSettings> = { enabled: input.enabled, language: input.language, signatureName: input.signatureName, updatedAt: now }
  if (input.signatureImageKey !== undefined) set.signatureImageKey = input.signatureImageKey
  await db
    .insert(certificateSettings)
    .values({
      id: newId(),
      tenantId,
      productId,
      enabled: input.enabled,
      language: input.language,
      signatureName: input.signatureName,
      signatureImageKey: input.signatureImageKey ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({ target: [certificateSettings.tenantId, certificateSettings.productId], set })
}

/** The list's switch: only the on/off flag. */
export async function setCertificatesEnabled(db: ShardDb, tenantId: string, productId: string, enabled: boolean, now = Date.now()) {
  await db
    .insert(certificateSettings)
    .values({ id: newId(), tenantId, productId, enabled, language: null, signatureName: '', signatureImageKey: null, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [certificateSettings.tenantId, certificateSettings.productId], set: { enabled, updatedAt: now } })
}

export type CourseCompletion = {
  publishedLectures: number
  /** Published lectures without a completion by the student (an exam's lecture: nor a passed exam). */
  lecturesLeft: number
  /** Required exams (of published lectures) the student has not passed (a reset pass does not count). */
  examsLeft: number
}

/** The rule's figures for one student and course, in one round trip. */
export async function getCourseCompletion(db: ShardDb, tenantId: string, userId: string, productId: string): Promise<CourseCompletion> {
  const completed = db
    .select({ one: sql`1` })
    .from(lectureProgress)
    .where(ofTenant(lectureProgress, tenantId, eq(lectureProgress.userId, userId), eq(lectureProgress.lectureId, lectures.id), isNotNull(lectureProgress.completedAt)))
  const passed = db
    .select({ one: sql`1` })
    .from(examAttempts)
    .where(ofTenant(examAttempts, tenantId, eq(examAttempts.examId, exams.id), eq(examAttempts.userId, userId), eq(examAttempts.status, 'passed'), isNull(examAttempts.resetAt)))
  // An exam's lecture also counts as completed once its exam is passed (the exam page may not mark it).
  const lectureExamPassed = db
    .select({ one: sql`1` })
    .from(examAttempts)
    .innerJoin(exams, and(sameTenant(exams, examAttempts), eq(exams.id, examAttempts.examId)))
    .where(ofTenant(examAttempts, tenantId, eq(exams.lectureId, lectures.id), eq(examAttempts.userId, userId), eq(examAttempts.status, 'passed'), isNull(examAttempts.resetAt)))
  const [lectureRows, examRows] = await db.batch([
    db
      .select({ total: count(), left: sql<number>`sum(case when ${not(exists(completed))} and ${not(exists(lectureExamPassed))} then 1 else 0 end)`.mapWith(Number) })
      .from(lectures)
      .where(ofTenant(lectures, tenantId, eq(lectures.productId, productId), eq(lectures.published, true))),
    db
      .select({ left: count() })
      .from(exams)
      .innerJoin(lectures, and(sameTenant(lectures, exams), eq(lectures.id, exams.lectureId)))
      .where(ofTenant(exams, tenantId, eq(exams.productId, productId), eq(exams.required, true), eq(lectures.published, true), not(exists(passed)))),
  ])
  return { publishedLectures: lectureRows[0]?.total ?? 0, lecturesLeft: lectureRows[0]?.left ?? 0, examsLeft: examRows[0]?.left ?? 0 }
}

/** The rule: at least one published lecture, all of them completed, every required exam passed. */
export const isCourseComplete = (c: CourseCompletion) => c.publishedLectures > 0 && c.lecturesLeft === 0 && c.examsLeft === 0

export async function getCertificate(db: ShardDb, tenantId: string, certificateId: string): Promise<Certificate | undefined> {
  if (!isCertificateId(certificateId)) return undefined
  const [row] = await db
    .select()
    .from(certificates)
    .where(ofTenant(certificates, tenantId, eq(certificates.id, certificateId)))
    .limit(1)
  return row
}

export async function getStudentCertificate(db: ShardDb, tenantId: string, userId: string, productId: string): Promise<Certificate | undefined> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(ofTenant(certificates, tenantId, eq(certificates.userId, userId), eq(certificates.productId, productId)))
    .limit(1)
  return row
}

export async function listStudentCertificates(db: ShardDb, tenantId: string, userId: string): Promise<Certificate[]> {
  return db
    .select()
    .from(certificates)
    .where(ofTenant(certificates, tenantId, eq(certificates.userId, userId)))
    .orderBy(desc(certificates.issuedAt))
    .limit(500)
}

export type NewCertificate = { productId: string; userId: string; studentName: string; courseTitle: string; language: CertificateLanguage }

/**
 * Issues once: the unique (tenant, course, student) index makes a second call (or a race) keep the
 * first certificate, which is returned either way.
 */
export async function insertCertificateOnce(db: ShardDb, tenantId: string, input: NewCertificate, now = Date.now()): Promise<{ certificate: Certificate; created: boolean }> {
  const inserted = await db
    .insert(certificates)
    .values({ id: newId(20), tenantId, ...input, issuedAt: now, pdfKey: null, revokedAt: null, revokedReason: null, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: [certificates.tenantId, certificates.productId, certificates.userId] })
    .returning()
  if (inserted[0]) return { certificate: inserted[0], created: true }
  const existing = await getStudentCertificate(db, tenantId, input.userId, input.productId)
  if (!existing) throw new Error('insertCertificateOnce: conflict without a row')
  return { certificate: existing, created: false }
}

/** Issued certificates, newest first (the owner's list). */
export async function listIssuedCertificates(db: ShardDb, tenantId: string, limit = 500): Promise<Certificate[]> {
  return db.select().from(certificates).where(ofTenant(certificates, tenantId)).orderBy(desc(certificates.issuedAt)).limit(limit)
}

/** Revokes a valid certificate; false when it is unknown or already revoked. */
export async function revokeCertificate(db: ShardDb, tenantId: string, certificateId: string, reason: string, now = Date.now()): Promise<boolean> {
  const rows = await db
    .update(certificates)
    .set({ revokedAt: now, revokedReason: reason, updatedAt: now })
    .where(ofTenant(certificates, tenantId, eq(certificates.id, certificateId), isNull(certificates.revokedAt)))
    .returning({ id: certificates.id })
  return rows.length > 0
}

/** Makes a revoked certificate valid again (an owner's mistake). */
export async function restoreCertificate(db: ShardDb, tenantId: string, certificateId: string, now = Date.now()): Promise<boolean> {
  const rows = await db
    .update(certificates)
    .set({ revokedAt: null, revokedReason: null, updatedAt: now })
    .where(ofTenant(certificates, tenantId, eq(certificates.id, certificateId), isNotNull(certificates.revokedAt)))
    .returning({ id: certificates.id })
  return rows.length > 0
}

/** Records the PDF's R2 key the first time it is rendered (a racing second render keeps the first key). */
export async function setCertificatePdfKey(db: ShardDb, tenantId: string, certificateId: string, pdfKey: string, now = Date.now()): Promise<boolean> {
  const rows = await db
    .update(certificates)
    .set({ pdfKey, updatedAt: now })
    .where(ofTenant(certificates, tenantId, eq(certificates.id, certificateId), isNull(certificates.pdfKey)))
    .returning({ id: certificates.id })
  return rows.length > 0
}
