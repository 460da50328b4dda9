/** Delay before a queue message is delivered again, for its `attempt` (1 = the first delivery). */
export type Backoff = (attempt: number, retryAfterSeconds?: number | null) => number

// Cloudflare Queues accept at most 12 hours of delay.
export const MAX_QUEUE_DELAY_SECONDS = 12 * 60 * 60

/**
 * base, 2 × base, 4 × base, … capped at `maxSeconds`; a peer's Retry-After wins when it asks for
 * longer. Each worker keeps its own numbers (wrangler.toml's max_retries is tuned to them).
 */
export function exponentialBackoff({ baseSeconds, maxSeconds }: { baseSeconds: number; maxSeconds: number }): Backoff {
  return (attempt, retryAfterSeconds = null) => {
    const exponential = Math.min(baseSeconds * 2 ** Math.max(0, attempt - 1), maxSeconds)
    return Math.min(Math.max(exponential, retryAfterSeconds ?? 0), MAX_QUEUE_DELAY_SECONDS)
  }
}
