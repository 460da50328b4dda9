// Where video_embed blocks frame their players from (CSP frame-src): the origins videoEmbedUrl
// (app/domain/blocks.ts) produces for YouTube (privacy-enhanced host) and Vimeo. Bunny's
// player origins come from videoOrigins() in app/media/videos-service.server.ts.
export const VIDEO_EMBED_FRAME_ORIGINS = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'] as const
