import { describe, expect, it } from 'vitest'
import { clampSlider, SLIDER, sliderFromPointer } from './slider.ts'

describe('before/after slider', () => {
  it('starts at 50 with a 0.1 step over 0–100', () => {
    expect(SLIDER).toEqual({ min: 0, max: 100, step: 0.1, initial: 50 })
  })
  it('clamps and rounds to the step without floating-point tails', () => {
    expect(clampSlider(50 + 0.1)).toBe(50.1)
    expect(clampSlider(0.1 + 0.2)).toBe(0.3)
    expect(clampSlider(33.333)).toBe(33.3)
    expect(clampSlider(-4)).toBe(0)
    expect(clampSlider(140)).toBe(100)
    expect(clampSlider(Number.NaN)).toBe(50)
  })
  it('maps a pointer position to a percentage of the box', () => {
    expect(sliderFromPointer(150, 100, 200)).toBe(25)
    expect(sliderFromPointer(50, 100, 200)).toBe(0)
    expect(sliderFromPointer(400, 100, 200)).toBe(100)
    expect(sliderFromPointer(10, 0, 0)).toBe(50)
  })
})
