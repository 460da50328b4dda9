// What changed in a school's community, announced to the open topic feeds (issue 22 item 7: the
// live feed). Callers: the post pages and JSON calls (created, updated, deleted, pinned) and the
// comment calls on community posts (a post's comment count). D1 stays the source of truth; an
// announcement is a hint to re-read, so a lost one costs freshness, never data.
import type { AppLoadContext } from '@remix-run/cloudflare'

export type CommunityChange = { kind: 'post_created' | 'post_updated' | 'post_deleted' | 'post_pinned' | 'comments_changed'; topicId: string; postId: string }

/**
 * Tell the school's open feeds about a change (fan-out only, app/community/live-feed.server.ts).
 * Never throws: the write already happened. Handed to ctx.waitUntil rather than awaited: the
 * author's answer does not wait for the Durable Object (nor fail with it), and the hint still goes
 * out after the D1 write it announces has committed, so a reader who re-reads on it sees the write.
 * Without the binding (the bench harness, a worker without it) nothing is announced.
 */
export async function announceCommunityChange(context: AppLoadContext, tenantId: string, change: CommunityChange): Promise<void> {
  try {
    const feeds = context.cloudflare?.env?.COMMUNITY_FEED
    if (!feeds) return
    const sent = feeds
      .get(feeds.idFromName(tenantId))
      .announce({ kind: change.kind, topicId: change.topicId, postId: change.postId })
      .then(
        () => undefined,
        (error: unknown) => console.warn(JSON.stringify({ event: 'community_announce_failed', tenantId, kind: change.kind, error: String(error) })),
      )
    const ctx = context.cloudflare?.ctx
    if (ctx && typeof ctx.waitUntil === 'function') ctx.waitUntil(sent)
    else await sent
  } catch (error) {
    console.warn(JSON.stringify({ event: 'community_announce_failed', tenantId, kind: change.kind, error: String(error) }))
  }
}
