import { describe, expect, it } from 'vitest'
import { checkVideoFile, shouldRetryStatus, titleFromFilename, tusErrorKey, VIDEO_MAX_BYTES, VIDEO_RETRY_DELAYS_MS, videoFiletype } from './video-policy.ts'
import { formatLength, isSettled, videoStateTone } from './video-view.ts'

describe('checkVideoFile', () => {
  it('takes the usual containers, with or without a declared type', () => {
    expect(checkVideoFile({ filename: 'lesson.mp4', size: 10, contentType: 'video/mp4' })).toBeNull()
    expect(checkVideoFile({ filename: 'Lesson 1.MOV', size: 10, contentType: 'video/quicktime' })).toBeNull()
    expect(checkVideoFile({ filename: 'talk.mkv', size: 10, contentType: '' })).toBeNull()
    expect(checkVideoFile({ filename: 'talk.wmv', size: 10, contentType: 'application/octet-stream' })).toBeNull()
  })

  it("refuses other extensions with 'Bad file extension'", () => {
    for (const filename of ['lesson.exe', 'lesson', 'lesson.mp4.exe', 'notes.pdf', 'cover.jpg']) {
      expect(checkVideoFile({ filename, size: 10, contentType: '' })).toEqual({ key: 'media.error.bad_extension' })
    }
  })

  it('refuses a type that is not video, an empty file and one over the cap', () => {
    expect(checkVideoFile({ filename: 'x.mp4', size: 10, contentType: 'image/png' })).toEqual({ key: 'media.error.type_mismatch' })
    expect(checkVideoFile({ filename: 'x.mp4', size: 0, contentType: 'video/mp4' })).toEqual({ key: 'media.error.empty' })
    expect(checkVideoFile({ filename: 'x.mp4', size: VIDEO_MAX_BYTES + 1, contentType: 'video/mp4' })).toEqual({ key: 'media.error.max_size', values: { size: 10240 } })
    expect(checkVideoFile({ filename: 'x.mp4', size: VIDEO_MAX_BYTES, contentType: 'video/mp4' })).toBeNull()
  })
})

describe('videoFiletype', () => {
  it('keeps an agreeing declared type and otherwise uses the extension', () => {
    expect(videoFiletype('a.m4v', 'video/mp4')).toBe('video/mp4')
    expect(videoFiletype('a.mkv', '')).toBe('video/x-matroska')
    expect(videoFiletype('a.mov', 'video/mp4')).toBe('video/quicktime')
    expect(videoFiletype('a.txt', 'text/plain')).toBeNull()
  })
})

describe('titleFromFilename', () => {
  it('drops the extension and underscores', () => {
    expect(titleFromFilename('intro_lesson-1.mp4')).toBe('intro lesson-1')
    expect(titleFromFilename('.mp4')).toBe('Video')
    expect(titleFromFilename(`${'a'.repeat(300)}.mp4`)).toHaveLength(200)
  })
})

describe('retries (seed 000 §8, §9)', () => {
  it('uses the seed delays', () => {
    expect([...VIDEO_RETRY_DELAYS_MS]).toEqual([0, 3000, 5000, 10000, 20000])
  })

  it('retries network and server errors, 409 and 423, never other 4xx', () => {
    expect(shouldRetryStatus(null)).toBe(true)
    expect(shouldRetryStatus(409)).toBe(true)
    expect(shouldRetryStatus(423)).toBe(true)
    expect(shouldRetryStatus(500)).toBe(true)
    expect(shouldRetryStatus(503)).toBe(true)
    for (const status of [400, 401, 403, 404, 410, 413, 419, 460]) expect(shouldRetryStatus(status)).toBe(false)
  })

  it("reports a lock that outlived the retries with the seed's text key", () => {
    expect(tusErrorKey(423)).toBe('media.error.locked')
    expect(tusErrorKey(401)).toBe('error.generic.title')
    expect(tusErrorKey(null)).toBe('error.generic.title')
  })
})

describe('video view', () => {
  it('knows which states still change and how they look', () => {
    expect(isSettled('ready')).toBe(true)
    expect(isSettled('failed')).toBe(true)
    expect(isSettled('transcoding')).toBe(false)
    expect(videoStateTone('playable')).toBe('good')
    expect(videoStateTone('queued')).toBe('progress')
    expect(videoStateTone('failed')).toBe('bad')
  })

  it('formats lengths', () => {
    expect(formatLength(null)).toBe('–')
    expect(formatLength(75)).toBe('1:15')
    expect(formatLength(3725)).toBe('1:02:05')
  })
})
