// Community galleries (issue 22 item 5; seed 000 widget 4/16, §7, §9): what the gallery pages
// (/community/gallery[/{topicId}]), the previews on /community and a topic's page, and the seed's
// calls (POST /json/community/gallery[-preview][/{topicId}]) read. Access is the feed's: the topics
// the viewer may read (listReadableTopics / readableTopic); another school's topic, an archived
// one or one the viewer may not read is 404 — before sign-in is asked for when it is not this
// school's at all.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { GALLERY_PAGE_SIZE, GALLERY_PREVIEW_SIZE, GALLERY_SEE_ALL_AT, listGalleryPosts, type GalleryPage, type GalleryRow } from '#app/models/community-gallery.server.ts'
import { decodeCursor, encodeCursor, listReadableTopics, readableTopic, type FeedCursor, type TopicView } from '#app/models/community.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'
import { notFoundJson } from './api.server.ts'
import { requireCommunityViewer, requireReadableTopic, requireTopicOfSchool } from './pages.server.ts'
import type { PostActor } from './posts.server.ts'

/** One picture or video of the gallery, as the browser gets it. */
export type GalleryItem = {
  /** The post's id (its page is /community/posts/{id}). */
  id: string
  title: string
  authorName: string
  topic: { id: string; title: string }
  createdAt: number
  kind: 'image' | 'video'
  /** The picture (kind image). */
  imageUrl: string | null
  /** The player's address (kind video): a YouTube/Vimeo embed, or the post's uploaded video. */
  videoSrc: string | null
}

export type GalleryTopicLink = { id: string; title: string }

export type GalleryPreviewData = { items: GalleryItem[]; seeAllHref: string | null; href: string }

const galleryHref = (topicId: string | null) => (topicId ? `/community/gallery/${topicId}` : '/community/gallery')

function toItem(row: GalleryRow, mediaOrigin: string, pageName: string): GalleryItem {
  const videoSrc = row.videoUrl ?? (row.videoId ? `/community/post-videos/${row.id}/play` : null)
  return {
    id: row.id,
    title: row.title,
    authorName: row.byAdmin ? pageName : row.authorName,
    topic: { id: row.topicId, title: row.topicTitle },
    createdAt: row.createdAt,
    kind: row.imagePath ? 'image' : 'video',
    imageUrl: row.imagePath ? `${mediaOrigin}/${row.imagePath}` : null,
    videoSrc: row.imagePath ? null : videoSrc,
  }
}

function toItems(request: Request, context: AppLoadContext, rows: GalleryRow[]) {
  const tenant = requireSchool(context)
  const { mediaOrigin } = mediaOrigins(context.cloudflare.env, request)
  return rows.map((row) => toItem(row, mediaOrigin, tenant.name))
}

async function readPage(context: AppLoadContext, topicIds: string[], cursor: FeedCursor | null, limit: number): Promise<GalleryPage> {
  const tenant = requireSchool(context)
  return listGalleryPosts(context.db, tenant.id, topicIds, cursor, limit)
}

/** The topic ids a gallery covers: one readable topic, or every topic the viewer may read. */
async function topicIdsOf(context: AppLoadContext, viewer: PostActor, topic: TopicView | null): Promise<string[]> {
  if (topic) return [topic.id]
  const tenant = requireSchool(context)
  return (await listReadableTopics(context.db, tenant.id, viewer)).map((t) => t.id)
}

// ---- previews (placed on /community and a topic's page by their loaders) -----------------------

/**
 * The first items of a gallery and its "see all" link (at 6 or more items, seed 000 §9). The
 * caller passes what its page has already checked readable for this viewer: every topic of the
 * community home (`{ topicIds }`), or the one topic of a topic page (`{ topicId }`).
 */
export async function loadGalleryPreview(request: Request, context: AppLoadContext, scope: { topicIds: string[] } | { topicId: string }): Promise<GalleryPreviewData> {
  const page = await readPage(context, 'topicId' in scope ? [scope.topicId] : scope.topicIds, null, GALLERY_PREVIEW_SIZE)
  const href = galleryHref('topicId' in scope ? scope.topicId : null)
  // The preview reads GALLERY_PREVIEW_SIZE (≥ the threshold) items; a next page means even more.
  const atLeast = page.rows.length + (page.next ? 1 : 0)
  return { items: toItems(request, context, page.rows), seeAllHref: atLeast >= GALLERY_SEE_ALL_AT ? href : null, href }
}

// ---- the gallery pages -------------------------------------------------------------------------

/** /community/gallery and /community/gallery/{topicId}: a page of items (keyset ?before=) and the topics' galleries. */
export async function loadGalleryPage(request: Request, context: AppLoadContext, topicId: string | null) {
  const tenant = requireSchool(context)
  if (topicId !== null) await requireTopicOfSchool(context, topicId)
  const viewer = await requireCommunityViewer(request, context)
  const topic = topicId !== null ? await requireReadableTopic(context, topicId.slice(0, 64), viewer) : null
  const topics = await listReadableTopics(context.db, tenant.id, viewer)
  const topicIds = topic ? [topic.id] : topics.map((t) => t.id)
  const cursor = decodeCursor(new URL(request.url).searchParams.get('before'))
  const page = await readPage(context, topicIds, cursor, GALLERY_PAGE_SIZE)
  const href = galleryHref(topic?.id ?? null)
  return {
    viewer,
    topic: topic ? { id: topic.id, title: topic.title } : null,
    topics: topics.map((t): GalleryTopicLink => ({ id: t.id, title: t.title })),
    items: toItems(request, context, page.rows),
    olderHref: page.next ? `${href}?before=${encodeCursor(page.next)}` : null,
    newestHref: cursor ? href : null,
  }
}

// ---- the seed's calls (POST /json/community/gallery[-preview][/{topicId}]) ----------------------

/** The JSON shape of a gallery item. */
export function toGalleryItemJson(item: GalleryItem) {
  return {
    post_id: item.id,
    type: item.kind,
    title: item.title,
    image: item.imageUrl,
    video: item.videoSrc,
    author_name: item.authorName,
    community_topic: item.topic,
    created_at: new Date(item.createdAt).toISOString(),
    post_url: `/community/posts/${item.id}`,
  }
}

/** The readable topic of a JSON call (404 otherwise), or null for the whole community. */
async function jsonTopic(context: AppLoadContext, viewer: PostActor, topicId: string | null) {
  if (topicId === null) return null
  const tenant = requireSchool(context)
  const topic = await readableTopic(context.db, tenant.id, topicId.slice(0, 64), viewer)
  if (!topic) notFoundJson()
  return topic
}

/** POST /json/community/gallery-preview[/{topicId}]: `{ data, see_all, see_all_url }`. */
export async function galleryPreviewJson(request: Request, context: AppLoadContext, viewer: PostActor, topicId: string | null) {
  const topic = await jsonTopic(context, viewer, topicId)
  const preview = await loadGalleryPreview(request, context, topic ? { topicId: topic.id } : { topicIds: await topicIdsOf(context, viewer, null) })
  return { data: preview.items.map(toGalleryItemJson), see_all: preview.seeAllHref !== null, see_all_url: preview.seeAllHref }
}

/** POST /json/community/gallery[/{topicId}]: `{ data, next_page_url }` (keyset: `?cursor=` or the body's `cursor`). */
export async function galleryJson(request: Request, context: AppLoadContext, viewer: PostActor, topicId: string | null, body: Record<string, string>) {
  const topic = await jsonTopic(context, viewer, topicId)
  const topicIds = await topicIdsOf(context, viewer, topic)
  const cursor = decodeCursor(new URL(request.url).searchParams.get('cursor') ?? body.cursor)
  const page = await readPage(context, topicIds, cursor, GALLERY_PAGE_SIZE)
  const path = topic ? `/json/community/gallery/${topic.id}` : '/json/community/gallery'
  return { data: toItems(request, context, page.rows).map(toGalleryItemJson), next_page_url: page.next ? `${path}?cursor=${encodeCursor(page.next)}` : null }
}
