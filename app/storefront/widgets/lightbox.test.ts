import { describe, expect, it } from 'vitest'
import { canStep, stepIndex, swipeStep, SWIPE_THRESHOLD_PX } from './lightbox.ts'

describe('lightbox stepping', () => {
  it('stops at the ends with looping off', () => {
    expect(stepIndex(0, -1, 4, false)).toBe(0)
    expect(stepIndex(3, 1, 4, false)).toBe(3)
    expect(stepIndex(1, 1, 4, false)).toBe(2)
    expect(canStep(0, -1, 4, false)).toBe(false)
    expect(canStep(3, 1, 4, false)).toBe(false)
    expect(canStep(2, 1, 4, false)).toBe(true)
  })
  it('wraps with looping on', () => {
    expect(stepIndex(3, 1, 4, true)).toBe(0)
    expect(stepIndex(0, -1, 4, true)).toBe(3)
  })
  it('never moves with a single image', () => {
    expect(canStep(0, 1, 1, true)).toBe(false)
    expect(stepIndex(0, 1, 1, true)).toBe(0)
  })
})

describe('swipe', () => {
  it('needs more than 50 px of horizontal travel', () => {
    expect(SWIPE_THRESHOLD_PX).toBe(50)
    expect(swipeStep(-50)).toBe(0)
    expect(swipeStep(49)).toBe(0)
    expect(swipeStep(-51)).toBe(1)
    expect(swipeStep(120)).toBe(-1)
  })
  it('ignores mostly vertical moves', () => {
    expect(swipeStep(-60, 200)).toBe(0)
  })
})
