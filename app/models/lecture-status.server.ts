// Whether a course has anything to watch (issue 23 item 3): a course is published only with at
// least one published lecture, and the builder and the product editor warn when it has none.
import { count, eq, exists } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { lectures } from '#app/db/schema.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** SQL condition: the course has a published lecture (used inside the publishing update itself). */
export function publishedLectureExists(db: ShardDb, tenantId: string, courseId: string) {
  return exists(
    db
      .select({ id: lectures.id })
      .from(lectures)
      .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), eq(lectures.published, true))),
  )
}

/** How many published lectures the course has. */
export async function countPublishedLectures(db: ShardDb, tenantId: string, courseId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(lectures)
    .where(ofTenant(lectures, tenantId, eq(lectures.productId, courseId), eq(lectures.published, true)))
  return row?.n ?? 0
}
