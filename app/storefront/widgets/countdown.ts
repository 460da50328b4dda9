// Countdown timer logic (seed 000 §2 widget 6, §4 "Countdown", §9 tick 1 s). Pure: the block
// component owns the clock, the DOM and local storage.

export const COUNTDOWN_TICK_MS = 1000
export const PROMO_CODE_COOKIE = 'promo_code'
export const COUNTDOWN_FINISHED_EVENT = 'countdown:finished'

/** Local-storage key of a seconds-mode end time: the page path plus the block id. */
export function countdownStorageKey(pagePath: string, blockId: string) {
  return `countdown:${pagePath}:${blockId}`
}

export type CountdownParts = { days: number; hours: number; minutes: number; seconds: number; done: boolean }

/** What is left until `endAt` (ms): whole days/hours/minutes/seconds; zeros once it is over. */
export function countdownParts(endAt: number, now: number): CountdownParts {
  const left = Math.floor((endAt - now) / 1000)
  if (!Number.isFinite(left) || left <= 0) return { days: 0, hours: 0, minutes: 0, seconds: 0, done: true }
  return { days: Math.floor(left / 86_400), hours: Math.floor((left % 86_400) / 3600), minutes: Math.floor((left % 3600) / 60), seconds: left % 60, done: false }
}

export type CountdownConfig = { mode: 'date' | 'seconds'; date: string; seconds: number; testMode: boolean }

/**
 * The end time of a countdown and what to do with storage. Fixed mode: the configured instant.
 * Seconds mode: a stored end is reused; without one (or in testMode, which clears it, or when
 * storage is off as in the editor's preview) a fresh end `seconds` from now.
 */
export function resolveCountdownEnd(config: CountdownConfig, stored: string | null, now: number, { storage = true } = {}): { endAt: number; write: string | null; clear: boolean } {
  if (config.mode === 'date') {
    const at = Date.parse(config.date)
    return { endAt: Number.isNaN(at) ? now : at, write: null, clear: false }
  }
  const fresh = now + config.seconds * 1000
  if (!storage) return { endAt: fresh, write: null, clear: false }
  if (config.testMode) return { endAt: fresh, write: null, clear: true }
  const previous = stored !== null && /^\d{1,16}$/.test(stored) ? Number(stored) : NaN
  if (Number.isFinite(previous)) return { endAt: previous, write: null, clear: false }
  return { endAt: fresh, write: String(fresh), clear: false }
}

/** Two digits for hours, minutes and seconds ("07"); days as they are. */
export const pad2 = (n: number) => String(n).padStart(2, '0')

/** A cookie string that removes the promo code cookie (expiry in the past, path /). */
export const CLEAR_PROMO_COOKIE = `${PROMO_CODE_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0; path=/`
