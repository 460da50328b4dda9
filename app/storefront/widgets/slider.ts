// Before/after slider logic (seed 000 §2 widget 3, §4): divider at 50 % by default, step 0.1,
// range 0 to 100. Pure.

export const SLIDER = { min: 0, max: 100, step: 0.1, initial: 50 } as const

/** A value clamped to 0–100 and rounded to the 0.1 step (no floating-point tails). */
export function clampSlider(value: number) {
  if (!Number.isFinite(value)) return SLIDER.initial
  const clamped = Math.min(SLIDER.max, Math.max(SLIDER.min, value))
  return Math.round(clamped * 10) / 10
}

/** The divider position for a pointer at `clientX` over a box starting at `left`, `width` wide. */
export function sliderFromPointer(clientX: number, left: number, width: number) {
  if (!(width > 0)) return SLIDER.initial
  return clampSlider(((clientX - left) / width) * 100)
}
