// What a webhook delivery log may say about an attempt (issue 19 §8). Development allows local and
// private targets (a local receiver stands in for the creator's server), so the log must not turn
// the owner's webhook page into a blind port scanner of the machine or its network: for those
// targets it keeps only an outcome class — delivered, HTTP {n}xx, timed out, connection failed —
// with no status code, no duration and never the runtime's error text or the answer's body. Public
// targets (and the local receiver behind the DEV_PEERS binding, never reached over the network)
// keep the status code and duration. Shared by the webhooks worker (what it writes) and the
// delivery log page (what it shows, also for rows written before this rule). Pure code.
import { isPrivateHost } from './target.ts'

/** Host suffix of the local webhook receiver (workers/dev-peers), reached through DEV_PEERS outside production. */
export const DEV_PEERS_HOST_SUFFIX = '.dev-peers.internal'

/** The longest error text a delivery row keeps (no response body is ever stored). */
export const ERROR_MAX = 200

/** What one POST came to, before it is written to the delivery log. */
export type PostResult = {
  delivered: boolean
  statusCode: number | null
  durationMs: number
  /** Why it failed: the answer's status, the timeout, or no answer at all. */
  failure: 'http' | 'timeout' | 'connection' | null
  /** The runtime's own error text: for the worker's log, never for the delivery log. */
  detail: string | null
}

export type LoggedAttempt = { delivered: boolean; statusCode: number | null; durationMs: number; error: string | null }

function hostOf(target: URL | string): string | null {
  try {
    return (typeof target === 'string' ? new URL(target) : target).hostname.toLowerCase()
  } catch {
    return null
  }
}

/** Loopback, private, link-local, `localhost`, `*.internal` targets — except the local dev receiver. An unparsable target counts as capped. */
export function isCappedTarget(target: URL | string): boolean {
  const host = hostOf(target)
  if (host === null) return true
  return isPrivateHost(host) && !host.endsWith(DEV_PEERS_HOST_SUFFIX)
}

/**
 * The row the worker writes. Public targets: the status code, the duration and `HTTP {code}` /
 * `Timed out after {n} s` / `Connection failed`. Capped targets: no code, duration 0, and only
 * `HTTP {n}xx` / `Timed out` / `Connection failed`.
 */
export function loggedAttempt(result: PostResult, target: URL | string, timeoutMs: number): LoggedAttempt {
  const capped = isCappedTarget(target)
  const statusCode = capped ? null : result.statusCode
  const durationMs = capped ? 0 : result.durationMs
  if (result.delivered) return { delivered: true, statusCode, durationMs, error: null }
  let error: string
  if (result.failure === 'http' && result.statusCode !== null) error = capped ? `HTTP ${Math.floor(result.statusCode / 100)}xx` : `HTTP ${result.statusCode}`
  else if (result.failure === 'timeout') error = capped ? 'Timed out' : `Timed out after ${timeoutMs / 1000} s`
  else error = 'Connection failed'
  return { delivered: false, statusCode, durationMs, error: error.slice(0, ERROR_MAX) }
}

export type OutcomeKey =
  | 'webhooks.outcome.http'
  | 'webhooks.outcome.timeout'
  | 'webhooks.outcome.connection'
  | 'webhooks.outcome.refused'
  | 'webhooks.outcome.disabled'
  | 'webhooks.outcome.secret'
  | 'webhooks.outcome.event_missing'
  | 'webhooks.outcome.failed'

export type ShownOutcome = { key: OutcomeKey; code?: string }

/** A stored `last_error` as the page shows it (a catalogue key, never the stored text itself). */
export function describeOutcome(lastError: string | null, capped: boolean): ShownOutcome | null {
  if (!lastError) return null
  const http = /^HTTP ([1-5])(\d\d|xx)\b/.exec(lastError)
  if (http) return { key: 'webhooks.outcome.http', code: capped || http[2] === 'xx' ? `${http[1]}xx` : `${http[1]}${http[2]}` }
  if (lastError.startsWith('Timed out')) return { key: 'webhooks.outcome.timeout' }
  if (lastError === 'Connection failed' || lastError.startsWith('Request failed')) return { key: 'webhooks.outcome.connection' }
  if (lastError.startsWith('Target refused')) return { key: 'webhooks.outcome.refused' }
  if (lastError === 'Webhook disabled') return { key: 'webhooks.outcome.disabled' }
  if (lastError === 'Signing secret cannot be opened') return { key: 'webhooks.outcome.secret' }
  if (lastError === 'Event not found') return { key: 'webhooks.outcome.event_missing' }
  return { key: 'webhooks.outcome.failed' }
}

/** One delivery row as the page shows it: for a capped target no status code and no duration. */
export function shownDelivery<T extends { lastStatusCode: number | null; lastDurationMs: number | null; lastError: string | null }>(row: T, capped: boolean) {
  return {
    ...row,
    lastStatusCode: capped ? null : row.lastStatusCode,
    lastDurationMs: capped ? null : row.lastDurationMs,
    lastError: null,
    outcome: describeOutcome(row.lastError, capped),
  }
}
