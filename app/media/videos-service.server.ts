// The app's side of the media worker's video API (video-contract.ts). The tenant id always comes
// from the request's host (context.site), never from the browser; access to a video is decided
// by the caller before asking for an embed URL.
import { isDevelopment, type Env } from '#app/utils/env.server.ts'
import { callMediaWorker } from './media-service.server.ts'
import type { EmbedBody, VideoBody, VideoGrantBody, VideoGrantRequest } from './video-contract.ts'

/** Where browsers talk to Bunny: the tus endpoint (connect-src) and the player (frame-src). */
export function videoOrigins(env: Pick<Env, 'ENVIRONMENT' | 'BUNNY_PEER_ORIGIN'>): { tus: string[]; player: string[] } {
  if (isDevelopment(env) && env.BUNNY_PEER_ORIGIN) {
    try {
      const origin = new URL(env.BUNNY_PEER_ORIGIN).origin
      return { tus: [origin], player: [origin] }
    } catch {
      // fall through to Bunny's own hosts
    }
  }
  // Bunny documents both player hosts (iframe.mediadelivery.net and the newer player.mediadelivery.net).
  return { tus: ['https://video.bunnycdn.com'], player: ['https://iframe.mediadelivery.net', 'https://player.mediadelivery.net'] }
}

function call<T>(env: Env, path: string, body: unknown) {
  const headers: Record<string, string> = isDevelopment(env) && env.BUNNY_PEER_ORIGIN ? { 'X-Bunny-Peer-Origin': env.BUNNY_PEER_ORIGIN } : {}
  return callMediaWorker<T>(env, path, body, headers)
}

const base = (tenantId: string) => `/tenants/${encodeURIComponent(tenantId)}/videos`

export function videosService(env: Env, tenantId: string) {
  return {
    /** `createdBy`: the signed-in user (from the session, never from the browser's body). */
    grant: (request: VideoGrantRequest & { createdBy?: string }) => call<VideoGrantBody>(env, `${base(tenantId)}/grant`, request),
    refresh: (videoId: string) => call<VideoBody>(env, `${base(tenantId)}/${encodeURIComponent(videoId)}/refresh`, {}),
    embed: (videoId: string, options: { autoplay?: boolean; preload?: boolean } = {}) => call<EmbedBody>(env, `${base(tenantId)}/${encodeURIComponent(videoId)}/embed`, options),
    remove: (videoId: string) => call<true>(env, `${base(tenantId)}/${encodeURIComponent(videoId)}/delete`, {}),
  }
}
