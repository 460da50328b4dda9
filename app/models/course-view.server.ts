// A course as its viewers read it (the lecture player, issue 7 item 2): the course by slug, its
// curriculum in order, a lecture with its course, a file component's stored data. The access
// decisions on top of these rows live in app/player/.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { lectureComponents, lectures, products, sections, type Product } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type PlayerCourse = Pick<Product, 'id' | 'title' | 'slug' | 'published' | 'isFree' | 'freeRequiresLogin' | 'commentsEnabled' | 'coverPath'>

const courseColumns = {
  id: products.id,
  title: products.title,
  slug: products.slug,
  published: products.published,
  isFree: products.isFree,
  freeRequiresLogin: products.freeRequiresLogin,
  commentsEnabled: products.commentsEnabled,
  coverPath: products.coverPath,
}

/** A course of this school by slug (drafts too: the gate decides who sees them). */
export async function getCourseBySlug(db: ShardDb, tenantId: string, slug: string): Promise<PlayerCourse | undefined> {
  const [row] = await courseBySlugQuery(db, tenantId, slug)
  return row
}

/** getCourseBySlug's read, for a db.batch. */
export function courseBySlugQuery(db: ShardDb, tenantId: string, slug: string) {
  return db
    .select(courseColumns)
    .from(products)
    .where(ofTenant(products, tenantId, eq(products.slug, slug), eq(products.kind, 'course')))
    .limit(1)
}

/** The id of the course with this slug as SQL, for reads batched with courseBySlugQuery. */
export function courseIdBySlug(tenantId: string, slug: string): SQL {
  return sql`(select ${products.id} from ${products} where ${and(ofTenant(products, tenantId, eq(products.slug, slug), eq(products.kind, 'course')))})`
}

/** The course's sections and lectures (drafts too), each in order, read in one batch. */
export async function listCurriculumRows(db: ShardDb, tenantId: string, courseId: string) {
  const [sectionRows, lectureRows] = await db.batch(curriculumQueries(db, tenantId, courseId))
  return { sectionRows, lectureRows }
}

/** listCurriculumRows' reads, for a db.batch (the course id may be SQL: courseIdBySlug). */
export function curriculumQueries(db: ShardDb, tenantId: string, courseId: string | SQL) {
  return [
    db
      .select({ id: sections.id, title: sections.title })
      .from(sections)
      .where(ofTenant(sections, tenantId, eq(sections.productId, courseId)))
      .orderBy(asc(sections.position), asc(sections.createdAt)),
    db
      .select()
      .from(lectures)
      .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId)))
      .orderBy(asc(lectures.position), asc(lectures.createdAt)),
  ] as const
}

/** A lecture of this school by id with its course's player columns; undefined when either is not this school's. */
export async function getLectureWithCourse(db: ShardDb, tenantId: string, lectureId: string) {
  const [row] = await db
    .select({ lecture: lectures, course: courseColumns })
    .from(lectures)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, lectures.productId), eq(products.kind, 'course')))
    .where(ofTenant(lectures, tenantId, eq(lectures.id, lectureId)))
    .limit(1)
  return row
}

/** The stored data (JSON text) of a lecture's file component; undefined when the lecture has no such file component. */
export async function getLectureFileComponentData(db: ShardDb, tenantId: string, lectureId: string, componentId: string) {
  const [row] = await db
    .select({ data: lectureComponents.data })
    .from(lectureComponents)
    .where(ofTenant(lectureComponents, tenantId, eq(lectureComponents.lectureId, lectureId), eq(lectureComponents.id, componentId), eq(lectureComponents.kind, 'file')))
    .limit(1)
  return row?.data
}
