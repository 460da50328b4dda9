// Lightbox logic (seed 000 §2 widget 4, §4, §9): open when the index is not null; with looping
// off, next and previous stop at the ends; swipe threshold 50 px. Pure.

export const SWIPE_THRESHOLD_PX = 50

/** Can the lightbox move by `delta` (±1) from `index`? */
export function canStep(index: number, delta: 1 | -1, count: number, loop: boolean) {
  if (count <= 1) return false
  if (loop) return true
  const next = index + delta
  return next >= 0 && next < count
}

/** The index after a step; unchanged at the ends when looping is off. */
export function stepIndex(index: number, delta: 1 | -1, count: number, loop: boolean) {
  if (!canStep(index, delta, count, loop)) return index
  return (((index + delta) % count) + count) % count
}

/**
 * A swipe's step from the horizontal (dx) and vertical (dy) travel in px: left → next (1), right
 * → previous (-1), 0 when it is shorter than the threshold or mostly vertical.
 */
export function swipeStep(dx: number, dy = 0, threshold = SWIPE_THRESHOLD_PX): 1 | -1 | 0 {
  if (Math.abs(dx) <= threshold || Math.abs(dx) < Math.abs(dy)) return 0
  return dx < 0 ? 1 : -1
}
