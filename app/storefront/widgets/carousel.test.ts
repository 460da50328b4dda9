import { describe, expect, it } from 'vitest'
import { slidesPerView, trackPosition, trackSlides, visibleSlides, wrapIndex } from './carousel.ts'

describe('carousel', () => {
  it('shows 3 slides from 992 px, 2 from 768 px and 1 below', () => {
    expect(slidesPerView(1280)).toBe(3)
    expect(slidesPerView(992)).toBe(3)
    expect(slidesPerView(991)).toBe(2)
    expect(slidesPerView(768)).toBe(2)
    expect(slidesPerView(767)).toBe(1)
    expect(slidesPerView(375)).toBe(1)
  })
  it('wraps both ways (infinite)', () => {
    expect(wrapIndex(5, 5)).toBe(0)
    expect(wrapIndex(-1, 5)).toBe(4)
    expect(wrapIndex(12, 5)).toBe(2)
    expect(wrapIndex(-7, 5)).toBe(3)
    expect(wrapIndex(3, 0)).toBe(0)
  })
  it('lays clones of the last and first slides around the real ones', () => {
    expect(trackSlides(4, 3)).toEqual([1, 2, 3, 0, 1, 2, 3, 0, 1, 2])
    expect(trackSlides(1, 3)).toEqual([0, 0, 0, 0, 0, 0, 0])
    expect(trackPosition(0, 3)).toBe(3)
    expect(trackPosition(-1, 3)).toBe(2)
  })
  it('lists the visible slides, wrapping past the end', () => {
    expect(visibleSlides(3, 5, 3)).toEqual([3, 4, 0])
    expect(visibleSlides(0, 2, 3)).toEqual([0, 1])
  })
})
