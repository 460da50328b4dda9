// Community galleries (issue 22 item 5; seed 000 widget 4/16): the posts of the given topics that
// carry a picture or a video — an image, a YouTube/Vimeo embed, or an uploaded video once it plays
// (playable or ready). Which topics the viewer may read is decided by the caller
// (listReadableTopics / readableTopic in community.server.ts); this file only reads posts of those
// topic ids, newest first, walking community_posts_topic_idx (tenant_id, topic_id, created_at, id)
// and paging by keyset (created_at, id).
import { desc, eq, inArray, isNotNull, or } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { communityPosts, communityTopics, videos } from '#app/db/schema.server.ts'
import { olderThan, type FeedCursor } from './community.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

/** Items per page of the full gallery (4 per row: six rows). */
export const GALLERY_PAGE_SIZE = 24
/** Items in a preview; the "see all" link shows at this many or more (seed 000 §9: 6). */
export const GALLERY_PREVIEW_SIZE = 6
export const GALLERY_SEE_ALL_AT = 6

export type GalleryRow = {
  id: string
  topicId: string
  topicTitle: string
  title: string
  authorName: string
  byAdmin: boolean
  imagePath: string | null
  videoUrl: string | null
  videoId: string | null
  createdAt: number
}

export type GalleryPage = { rows: GalleryRow[]; next: FeedCursor | null }

const PLAYABLE = ['playable', 'ready'] as const

/**
 * One page of the gallery of `topicIds` (already checked readable), newest first. A post counts
 * when it has an image, an embed URL, or an uploaded video that plays; a video still transcoding
 * (or failed) stays out until it is ready.
 */
export async function listGalleryPosts(db: ShardDb, tenantId: string, topicIds: string[], cursor: FeedCursor | null, limit = GALLERY_PAGE_SIZE): Promise<GalleryPage> {
  if (topicIds.length === 0 || limit <= 0) return { rows: [], next: null }
  const rows = await db
    .select({
      id: communityPosts.id,
      topicId: communityPosts.topicId,
      topicTitle: communityTopics.title,
      title: communityPosts.title,
      authorName: communityPosts.authorName,
      byAdmin: communityPosts.byAdmin,
      imagePath: communityPosts.imagePath,
      videoUrl: communityPosts.videoUrl,
      videoId: communityPosts.videoId,
      videoState: videos.state,
      createdAt: communityPosts.createdAt,
    })
    .from(communityPosts)
    .innerJoin(communityTopics, ofTenant(communityTopics, tenantId, eq(communityTopics.id, communityPosts.topicId)))
    .leftJoin(videos, ofTenant(videos, tenantId, eq(videos.id, communityPosts.videoId)))
    .where(
      ofTenant(
        communityPosts,
        tenantId,
        inArray(communityPosts.topicId, [...new Set(topicIds)]),
        eq(communityPosts.hasMedia, true), // seeks community_posts_media_idx
        or(isNotNull(communityPosts.imagePath), isNotNull(communityPosts.videoUrl), inArray(videos.state, [...PLAYABLE])),
        olderThan(cursor),
      ),
    )
    .orderBy(desc(communityPosts.createdAt), desc(communityPosts.id))
    .limit(limit + 1)
  const page = rows.slice(0, limit).map(({ videoState, ...row }) => ({ ...row, videoId: videoState && (PLAYABLE as readonly string[]).includes(videoState) ? row.videoId : null }))
  const last = page[page.length - 1]
  return { rows: page, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null }
}
