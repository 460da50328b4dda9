// GET /community/topics/{id}/live with `Upgrade: websocket` (issue 22 item 7, ADR 029): the open
// topic feed's socket, handed to the school's CommunityFeed Durable Object, which sends small hints
// ({kind, topicId, postId}) when a post or a comment count changes; the page re-reads through its
// loader. Another school's topic is 404 before anything else; then a request that is not a
// WebSocket upgrade is 426; then a visitor, a viewer who may not read the topic, or a socket
// opened from another origin is 404 / 403. Without the binding (a worker without it) 404.
import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { getCurrentUser } from '#app/auth/auth.server.ts'
import { requireReadableTopic, requireTopicOfSchool } from '#app/community/pages.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const ofSchool = await requireTopicOfSchool(context, params.topicId ?? '')
  if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') {
    return new Response('Upgrade Required: this address is a WebSocket for the live topic feed.', {
      status: 426,
      headers: { Upgrade: 'websocket', 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    })
  }
  // Browsers always send Origin on a WebSocket handshake: another site's page may not open one with this viewer's cookie.
  const origin = request.headers.get('Origin')
  if (origin && origin !== new URL(request.url).origin) return new Response('Forbidden', { status: 403 })
  const user = await getCurrentUser(request, context)
  if (!user) notFound()
  const topic = await requireReadableTopic(context, ofSchool.id, { id: user.id, name: user.name, role: user.role })
  const feeds = context.cloudflare.env.COMMUNITY_FEED
  if (!feeds) notFound()
  return feeds.get(feeds.idFromName(tenant.id)).fetch(`https://community-feed.internal/connect?topic=${encodeURIComponent(topic.id)}`, { headers: { Upgrade: 'websocket' } })
}
