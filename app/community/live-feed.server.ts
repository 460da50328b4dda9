// The live topic feed's fan-out (issue 22 item 7, ADR 029): one Durable Object per school
// (`idFromName(tenantId)`) holds the open feed sockets with the Hibernation API, each tagged with
// the topic it watches, and passes every announced change on to the sockets of that topic (and to
// any tagged '*', a feed across topics). It keeps no state and no content: D1 is the source of
// truth, a message is a hint `{kind, topicId, postId}` and the page re-reads through its loader,
// which decides what the viewer may see. Who may open a socket is decided before it gets here
// (app/routes/community.topics.$topicId.live.tsx); this object trusts its callers.
import { DurableObject } from 'cloudflare:workers'
import type { CommunityChange } from './events.server.ts'
import type { Env } from '#app/utils/env.server.ts'

/** The tag of a topic's sockets; ALL_TOPICS marks a socket that wants every topic's hints. */
export const topicTag = (topicId: string) => `topic:${topicId}`
export const ALL_TOPICS = '*'

/** The socket's keep-alive: the browser sends PING, the runtime answers PONG without waking the object. */
export const LIVE_PING = 'ping'
export const LIVE_PONG = 'pong'

const KINDS = new Set<CommunityChange['kind']>(['post_created', 'post_updated', 'post_deleted', 'post_pinned', 'comments_changed'])
const ID = /^[\w-]{1,64}$/

/** What a browser gets for a change: only ids and the kind of change, never content. */
export function liveHint(change: CommunityChange): string | null {
  if (!KINDS.has(change.kind) || !ID.test(change.topicId) || !ID.test(change.postId)) return null
  return JSON.stringify({ kind: change.kind, topicId: change.topicId, postId: change.postId })
}

export class CommunityFeed extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env)
    // Answered by the runtime while the object hibernates: keep-alives cost no wake-up.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(LIVE_PING, LIVE_PONG))
  }

  /** GET /connect?topic={id} with `Upgrade: websocket` (or topic=* for every topic): a hibernatable socket for the feed. */
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname !== '/connect') return new Response(null, { status: 404 })
    if (request.headers.get('Upgrade')?.toLowerCase() !== 'websocket') return new Response(null, { status: 426, headers: { Upgrade: 'websocket' } })
    const topic = url.searchParams.get('topic') ?? ''
    if (topic !== ALL_TOPICS && !ID.test(topic)) return new Response(null, { status: 400 })
    const { 0: client, 1: server } = new WebSocketPair()
    this.ctx.acceptWebSocket(server, [topic === ALL_TOPICS ? ALL_TOPICS : topicTag(topic)])
    return new Response(null, { status: 101, webSocket: client })
  }

  /** Pass a change on to the sockets watching its topic (RPC from announceCommunityChange). Returns how many got it. */
  async announce(change: CommunityChange): Promise<number> {
    const hint = liveHint(change)
    if (!hint) return 0
    let sent = 0
    for (const socket of [...this.ctx.getWebSockets(topicTag(change.topicId)), ...this.ctx.getWebSockets(ALL_TOPICS)]) {
      try {
        socket.send(hint)
        sent++
      } catch {
        // A socket closing right now: its browser reconnects and re-reads anyway.
      }
    }
    return sent
  }

  /** Browsers send nothing but keep-alives (answered by the auto-response); anything else is ignored. */
  async webSocketMessage(): Promise<void> {}

  async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    // Complete the closing handshake (1005/1006 may not be sent back: close normally instead).
    try {
      socket.close(code === 1005 || code === 1006 ? 1000 : code, reason)
    } catch {
      // Already closed.
    }
  }

  async webSocketError(socket: WebSocket): Promise<void> {
    try {
      socket.close(1011, 'error')
    } catch {
      // Already closed.
    }
  }
}
