// The video-state rules (pure): late, repeated and out-of-order updates never move a video back.
import { describe, expect, it } from 'vitest'
import { mergeVideoState, type VideoState } from './video-state.ts'

describe('mergeVideoState', () => {
  it('moves forward and ignores late, earlier states', () => {
    expect(mergeVideoState(null, 'queued')).toBe('queued')
    expect(mergeVideoState('queued', 'transcoding')).toBe('transcoding')
    expect(mergeVideoState('transcoding', 'processing')).toBe('transcoding')
    expect(mergeVideoState('playable', 'transcoding')).toBe('playable')
    expect(mergeVideoState('playable', 'ready')).toBe('ready')
    expect(mergeVideoState('ready', 'playable')).toBe('ready')
    expect(mergeVideoState('ready', 'queued')).toBe('ready')
    expect(mergeVideoState('ready', 'failed')).toBe('ready')
    expect(mergeVideoState('transcoding', null)).toBe('transcoding') // captions generated
  })

  it('keeps a failure until a new upload starts', () => {
    expect(mergeVideoState('transcoding', 'failed')).toBe('failed')
    expect(mergeVideoState('failed', 'transcoding')).toBe('failed')
    expect(mergeVideoState('failed', 'uploading')).toBe('uploading')
  })

  it('is idempotent for repeated deliveries', () => {
    for (const state of ['queued', 'processing', 'transcoding', 'playable', 'ready', 'failed'] as VideoState[]) {
      expect(mergeVideoState(state, state)).toBe(state)
    }
  })
})
