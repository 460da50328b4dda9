// Carousel logic (seed 000 §2 widget 5, §9): 3 slides from 992 px, 2 from 768 px, 1 below; dots
// on, arrows off; autoplay every 2500 ms; 500 ms transition; infinite. Pure.

export const CAROUSEL_AUTOPLAY_MS = 2500
export const CAROUSEL_TRANSITION_MS = 500
export const CAROUSEL_BREAKPOINTS = { three: 992, two: 768 } as const
/** Copies of slides on each side of the track so a wrap animates like any other step. */
export const CAROUSEL_CLONES = 3

/** Slides visible at a viewport width. */
export function slidesPerView(width: number) {
  if (width >= CAROUSEL_BREAKPOINTS.three) return 3
  if (width >= CAROUSEL_BREAKPOINTS.two) return 2
  return 1
}

/** Any (virtual) index back into 0..count-1: infinite both ways. */
export function wrapIndex(index: number, count: number) {
  if (count <= 0) return 0
  return ((index % count) + count) % count
}

/** Slide indices of the track: clones of the last slides, the slides, clones of the first ones. */
export function trackSlides(count: number, clones = CAROUSEL_CLONES): number[] {
  if (count <= 0) return []
  const out: number[] = []
  for (let i = -clones; i < count + clones; i++) out.push(wrapIndex(i, count))
  return out
}

/** Track position (in slides) of a virtual index; -1 and `count` are the clones a wrap animates to. */
export function trackPosition(virtualIndex: number, clones = CAROUSEL_CLONES) {
  return virtualIndex + clones
}

/** Slide indices visible when `index` is first. */
export function visibleSlides(index: number, count: number, perView: number) {
  return Array.from({ length: Math.min(perView, count) }, (_, k) => wrapIndex(index + k, count))
}
