import { describe, expect, it } from 'vitest'
import { isPostDraftValid, POST_IMAGE_MAX_KB, postEmbedUrl } from './community-post.ts'

describe('community post rules (seed 000 §5)', () => {
  it('takes only YouTube and Vimeo links as video embeds', () => {
    expect(postEmbedUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(postEmbedUrl('https://youtu.be/dQw4w9WgXcQ')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(postEmbedUrl('https://vimeo.com/76979871')).toBe('https://player.vimeo.com/video/76979871')
    expect(postEmbedUrl('https://www.dailymotion.com/video/x7tgad0')).toBeNull()
    expect(postEmbedUrl('javascript:alert(1)')).toBeNull()
    expect(postEmbedUrl('not a url')).toBeNull()
  })

  it('keeps save disabled until the title is 5–159 and the body at least 5 characters', () => {
    expect(isPostDraftValid({ title: 'Hi', body: 'Long enough' })).toBe(false)
    expect(isPostDraftValid({ title: 'Hello', body: '1234' })).toBe(false)
    expect(isPostDraftValid({ title: '  Hello  ', body: ' 12345 ' })).toBe(true)
    expect(isPostDraftValid({ title: 'x'.repeat(159), body: 'Body!' })).toBe(true)
    expect(isPostDraftValid({ title: 'x'.repeat(160), body: 'Body!' })).toBe(false)
    expect(isPostDraftValid({ title: 'Hello', body: 'Body!', videoUrl: 'https://example.com/v' })).toBe(false)
  })

  it('caps images at 600 KB', () => {
    expect(POST_IMAGE_MAX_KB).toBe(600)
  })
})
