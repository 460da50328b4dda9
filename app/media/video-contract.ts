// Video uploads and playback (issue 4, seed 000 §3 "Video upload grant", §4 "Video upload").
// The browser talks to the app (JSON, same origin, CSRF-checked); the app calls the media worker
// over the MEDIA_WORKER service binding with the tenant taken from the host; only the media
// worker holds Bunny's keys.
//
// Browser → app:
//   POST /home/videos/grant { title?, filename, size, contentType, videoId? }
//        → 200 VideoGrantBody | 400/413 { error, values? } | 419 | 404 (not staff) | 502 (Bunny down)
//        videoId: ask for a fresh grant for a video whose upload was interrupted (resume).
//   (browser) tus to grant.endpoint with headers AuthorizationSignature, AuthorizationExpire,
//        VideoId, LibraryId and metadata filetype + title.
//   POST /home/videos/:videoId/refresh → 200 VideoBody (state read from Bunny)
// App → media worker:
//   POST /tenants/:tenantId/videos/grant   { title, filename, size, contentType, createdBy?, videoId? } → VideoGrantBody
//   POST /tenants/:tenantId/videos/:id/refresh → VideoBody
//   POST /tenants/:tenantId/videos/:id/embed   { autoplay?, preload? } → EmbedBody (the app checked access)
//   POST /tenants/:tenantId/videos/:id/delete  → true
// Bunny → media worker (public, media host): POST /webhooks/bunny (signed, v1 HMAC-SHA256).
import type { VideoState } from '#app/domain/video-state.ts'
import type { VideoUploadGrant } from './bunny.server.ts'

export type VideoGrantRequest = { title?: string; filename: string; size: number; contentType: string; videoId?: string }
export type VideoGrantBody = { videoId: string; grant: VideoUploadGrant; filetype: string }
export type VideoBody = { id: string; title: string; state: VideoState; bunnyStatus: number | null; lengthSeconds: number | null; size: number; createdAt: number }
export type EmbedBody = { url: string; expiresAt: number }
