import { describe, expect, it } from 'vitest'
import { videoEmbedUrl } from '#app/domain/video-embed.ts'
import { VIDEO_EMBED_FRAME_ORIGINS } from './embed-origins.ts'

describe('VIDEO_EMBED_FRAME_ORIGINS', () => {
  it('covers every player URL a YouTube or Vimeo link turns into', () => {
    const links: Array<['youtube' | 'vimeo', string]> = [
      ['youtube', 'https://www.youtube.com/watch?v=W6NZfCO5SIk'],
      ['youtube', 'https://youtu.be/W6NZfCO5SIk'],
      ['youtube', 'https://m.youtube.com/shorts/W6NZfCO5SIk'],
      ['vimeo', 'https://vimeo.com/76979871'],
      ['vimeo', 'https://player.vimeo.com/video/76979871'],
    ]
    for (const [provider, link] of links) {
      const src = videoEmbedUrl(provider, link)
      expect(src, link).not.toBeNull()
      expect(VIDEO_EMBED_FRAME_ORIGINS as readonly string[]).toContain(new URL(src!).origin)
    }
  })
  it('refuses links of other hosts (nothing else needs framing)', () => {
    expect(videoEmbedUrl('youtube', 'https://evil.example/watch?v=W6NZfCO5SIk')).toBeNull()
    expect(videoEmbedUrl('vimeo', 'javascript:alert(1)')).toBeNull()
  })
})
