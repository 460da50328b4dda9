import { describe, expect, it } from 'vitest'
import { commentVideoView, postVideoView, type VideoState } from '#app/domain/video-state.ts'
import {
  API_STATUS,
  BUNNY_TUS_ENDPOINT,
  WEBHOOK_STATUS,
  bunnyWebhookSignature,
  embedToken,
  embedUrl,
  legacyBunnyStatus,
  parseBunnyWebhook,
  stateFromApiStatus,
  stateFromLegacyBunnyStatus,
  stateFromWebhookStatus,
  tusSignature,
  verifyBunnyWebhook,
  videoUploadGrant,
} from './bunny.server.ts'

const VIDEO = 'eb1c4f77-0cda-46be-b47d-1118ad7c2ffe' // the video id of Bunny's documentation examples
const NOW = 1_700_000_000_000 // ms

async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

describe('tus upload signature and grant', () => {
  it('is SHA256 hex of library_id + api_key + expiration_time + video_id', async () => {
    const signature = tusSignature({ libraryId: '759', apiKey: 'my-stream-api-key', expiresAt: 1_700_003_600, videoId: VIDEO })
    // Pinned (computed independently with Node's crypto) and re-derived with WebCrypto.
    expect(signature).toBe('94228659a8c01f0413efb0e40435565d969a4b22e8d9d99d98e9cdc23f8634bc')
    expect(signature).toBe(await sha256Hex(`759my-stream-api-key1700003600${VIDEO}`))
  })

  it('builds the seed grant object with an expiry in UNIX seconds', () => {
    const grant = videoUploadGrant({ libraryId: '759', apiKey: 'my-stream-api-key', videoId: VIDEO, title: 'Lekcja 1\n<intro>', now: NOW, ttlSeconds: 3600 })
    expect(grant).toEqual({
      endpoint: BUNNY_TUS_ENDPOINT,
      AuthorizationSignature: '94228659a8c01f0413efb0e40435565d969a4b22e8d9d99d98e9cdc23f8634bc',
      AuthorizationExpire: 1_700_003_600,
      VideoId: VIDEO,
      LibraryId: '759',
      title: 'Lekcja 1 <intro>',
    })
    expect(BUNNY_TUS_ENDPOINT).toBe('https://video.bunnycdn.com/tusupload')
    expect(videoUploadGrant({ libraryId: '759', apiKey: 'k', videoId: VIDEO, title: 't', now: NOW }).AuthorizationExpire).toBe(1_700_000_000 + 6 * 3600)
  })

  it('changes with every input, so a grant cannot be moved to another video or library', () => {
    const base = { libraryId: '759', apiKey: 'k', expiresAt: 1_700_000_000, videoId: VIDEO }
    const signature = tusSignature(base)
    expect(tusSignature({ ...base, libraryId: '760' })).not.toBe(signature)
    expect(tusSignature({ ...base, apiKey: 'k2' })).not.toBe(signature)
    expect(tusSignature({ ...base, expiresAt: 1_700_000_001 })).not.toBe(signature)
    expect(tusSignature({ ...base, videoId: VIDEO.replace('e', 'f') })).not.toBe(signature)
  })

  it('refuses ids that are not Bunny ids and expiries in milliseconds', () => {
    const ok = { libraryId: '759', apiKey: 'k', videoId: VIDEO, title: 't', now: NOW }
    expect(() => videoUploadGrant({ ...ok, libraryId: '759/../1' })).toThrow()
    expect(() => videoUploadGrant({ ...ok, videoId: '../videos' })).toThrow()
    expect(() => videoUploadGrant({ ...ok, apiKey: '' })).toThrow()
    expect(() => videoUploadGrant({ ...ok, ttlSeconds: 10 })).toThrow()
    expect(() => tusSignature({ libraryId: '759', apiKey: 'k', videoId: VIDEO, expiresAt: 1.5 })).toThrow()
  })
})

describe('embed token and URL', () => {
  it('is SHA256_HEX(token_security_key + video_id + expiration)', async () => {
    const token = embedToken({ tokenKey: 'token-key-123', videoId: VIDEO, expiresAt: 1_700_021_600 })
    expect(token).toBe('535a6482e965db140413c3104502fba814db147e93ee2fad6aa2a2631b669a0e')
    expect(token).toBe(await sha256Hex(`token-key-123${VIDEO}1700021600`))
  })

  it('signs the iframe URL with token and expires, autoplay and preload off', () => {
    const url = new URL(embedUrl({ libraryId: '759', videoId: VIDEO, tokenKey: 'token-key-123', now: NOW }))
    expect(`${url.origin}${url.pathname}`).toBe(`https://iframe.mediadelivery.net/embed/759/${VIDEO}`)
    expect(url.searchParams.get('token')).toBe('535a6482e965db140413c3104502fba814db147e93ee2fad6aa2a2631b669a0e')
    expect(url.searchParams.get('expires')).toBe('1700021600')
    expect(url.searchParams.get('autoplay')).toBe('false')
    expect(url.searchParams.get('preload')).toBe('false')
  })

  it('leaves token and expires out for a library without token authentication', () => {
    const url = new URL(embedUrl({ libraryId: '759', videoId: VIDEO, autoplay: true, base: 'https://player.mediadelivery.net/embed/' }))
    expect(url.toString()).toBe(`https://player.mediadelivery.net/embed/759/${VIDEO}?autoplay=true&preload=false`)
  })

  it('refuses ids that would change the path', () => {
    expect(() => embedUrl({ libraryId: '759', videoId: `${VIDEO}/../x` })).toThrow()
    expect(() => embedUrl({ libraryId: 'abc', videoId: VIDEO })).toThrow()
  })
})

describe('status enums', () => {
  it('maps every video-object status (0..8)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map(stateFromApiStatus)).toEqual([
      'awaiting_upload',
      'queued',
      'processing',
      'transcoding',
      'ready',
      'failed',
      'failed',
      'transcoding',
      'ready',
    ])
    expect(stateFromApiStatus(9)).toBeNull()
    expect(stateFromApiStatus(-1)).toBeNull()
  })

  it('maps every webhook status (0..10)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(stateFromWebhookStatus)).toEqual([
      'queued',
      'processing',
      'transcoding',
      'ready',
      'playable',
      'failed',
      'uploading',
      'queued',
      'failed',
      null,
      null,
    ])
    expect(stateFromWebhookStatus(11)).toBeNull()
  })

  it('keeps the two enums apart: the same number means different things', () => {
    expect(API_STATUS[3]).toBe('transcoding')
    expect(WEBHOOK_STATUS[3]).toBe('ready')
    expect(API_STATUS[4]).toBe('ready')
    expect(WEBHOOK_STATUS[4]).toBe('playable')
    expect(API_STATUS[0]).toBe('awaiting_upload')
    expect(WEBHOOK_STATUS[0]).toBe('queued')
  })
})

describe("seed 000's bunny_status", () => {
  it('comments: 0, 1, 2 or missing show the transcoding notice; playable statuses show a player', () => {
    for (const status of [0, 1, 2, null, undefined]) expect(commentVideoView(stateFromLegacyBunnyStatus(status)), String(status)).toBe('transcoding')
    expect(commentVideoView(null)).toBe('transcoding')
    expect(commentVideoView(stateFromLegacyBunnyStatus(3))).toBe('player')
    expect(commentVideoView(stateFromLegacyBunnyStatus(4))).toBe('player')
    // The seed showed a player for Failed too; we say it failed.
    expect(commentVideoView(stateFromLegacyBunnyStatus(5))).toBe('failed')
  })

  it('posts: 3 is ready, empty is processing', () => {
    expect(postVideoView(stateFromLegacyBunnyStatus(3))).toBe('player')
    expect(postVideoView(stateFromLegacyBunnyStatus(null))).toBe('processing')
    expect(postVideoView(undefined)).toBe('processing')
    expect(postVideoView('transcoding')).toBe('processing')
    expect(postVideoView('failed')).toBe('failed')
  })

  it('converts back to the seed numbers', () => {
    expect(legacyBunnyStatus('ready')).toBe(3)
    for (const state of ['awaiting_upload', 'uploading', 'queued', 'processing', 'transcoding'] as VideoState[]) {
      expect(legacyBunnyStatus(state)! <= 2, state).toBe(true)
      expect(commentVideoView(stateFromLegacyBunnyStatus(legacyBunnyStatus(state)))).toBe('transcoding')
    }
  })
})

describe('webhook', () => {
  const docsExample = { VideoLibraryId: 133, VideoGuid: '657bb740-a71b-4529-a012-528021c31a92', Status: 3 }

  it('parses the documented payload', () => {
    expect(parseBunnyWebhook(docsExample)).toEqual({ libraryId: '133', videoId: '657bb740-a71b-4529-a012-528021c31a92', status: 3, state: 'ready' })
    expect(parseBunnyWebhook({ ...docsExample, VideoLibraryId: '133', VideoGuid: docsExample.VideoGuid.toUpperCase(), Extra: true })).toMatchObject({
      libraryId: '133',
      videoId: docsExample.VideoGuid,
    })
    expect(parseBunnyWebhook({ ...docsExample, Status: 9 })).toMatchObject({ status: 9, state: null })
  })

  it('refuses anything else', () => {
    for (const body of [
      null,
      'x',
      {},
      { ...docsExample, VideoGuid: '../../x' },
      { ...docsExample, VideoLibraryId: -1 },
      { ...docsExample, VideoLibraryId: '1; drop' },
      { ...docsExample, Status: -1 },
      { ...docsExample, Status: 1.5 },
      { ...docsExample, Status: '3' },
      { VideoLibraryId: 133, Status: 3 },
    ]) {
      expect(parseBunnyWebhook(body), JSON.stringify(body)).toBeNull()
    }
  })

  it('verifies signature v1: lower-case hex HMAC-SHA256 of the raw body', async () => {
    const raw = JSON.stringify(docsExample)
    const secret = 'read-only-key'
    const signature = await bunnyWebhookSignature(raw, secret)
    expect(signature).toBe('95ba721a9a8ee56efa4ce19d45dba902747c0effc76c76a6d3d316f1f332cfd8') // pinned with Node's crypto
    const headers = (sig: string, version = 'v1', algorithm = 'hmac-sha256') =>
      new Headers({ 'X-BunnyStream-Signature': sig, 'X-BunnyStream-Signature-Version': version, 'X-BunnyStream-Signature-Algorithm': algorithm })

    expect(await verifyBunnyWebhook(raw, headers(signature), secret)).toBe(true)
    expect(await verifyBunnyWebhook(new TextEncoder().encode(raw), headers(signature.toUpperCase()), secret)).toBe(true)
    // Re-serialised JSON (spacing) is a different body.
    expect(await verifyBunnyWebhook(JSON.stringify(docsExample, null, 1), headers(signature), secret)).toBe(false)
    expect(await verifyBunnyWebhook(raw.replace('"Status":3', '"Status":5'), headers(signature), secret)).toBe(false)
    expect(await verifyBunnyWebhook(raw, headers(signature), 'other-key')).toBe(false)
    expect(await verifyBunnyWebhook(raw, headers(signature), '')).toBe(false)
    expect(await verifyBunnyWebhook(raw, headers(signature, 'v2'), secret)).toBe(false)
    expect(await verifyBunnyWebhook(raw, headers(signature, 'v1', 'hmac-sha1'), secret)).toBe(false)
    expect(await verifyBunnyWebhook(raw, headers(signature.slice(0, 63)), secret)).toBe(false)
    expect(await verifyBunnyWebhook(raw, new Headers(), secret)).toBe(false)
  })
})
