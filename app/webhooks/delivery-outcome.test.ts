// Issue 19 §8: what the delivery log writes and shows for an attempt, by target.
import { describe, expect, it } from 'vitest'
import { describeOutcome, isCappedTarget, loggedAttempt, shownDelivery, type PostResult } from './delivery-outcome.ts'

const result = (over: Partial<PostResult>): PostResult => ({ delivered: false, statusCode: null, durationMs: 37, failure: null, detail: null, ...over })

describe('isCappedTarget', () => {
  it('caps loopback, private, link-local and internal names, not public hosts or the dev receiver', () => {
    for (const url of ['http://127.0.0.1:6379/', 'http://localhost:8080/', 'http://a.localhost/', 'http://10.1.2.3/', 'http://172.20.0.1/', 'http://192.168.0.10/', 'http://169.254.169.254/', 'http://[::1]/', 'http://[fd00::1]/', 'http://intranet/', 'http://db.internal/', 'http://printer.local/', 'not a url'])
      expect(isCappedTarget(url), url).toBe(true)
    for (const url of ['https://hooks.example.com/x', 'https://8.8.8.8/', 'http://webhooks.dev-peers.internal/webhook-receiver/a']) expect(isCappedTarget(url), url).toBe(false)
  })
})

describe('loggedAttempt', () => {
  const priv = 'http://127.0.0.1:6379/'
  const pub = 'https://hooks.example.com/x'

  it('private targets: class only, no code, duration 0, never the runtime text', () => {
    expect(loggedAttempt(result({ delivered: true, statusCode: 204, failure: null }), priv, 10_000)).toEqual({ delivered: true, statusCode: null, durationMs: 0, error: null })
    for (const [code, cls] of [[301, '3xx'], [404, '4xx'], [418, '4xx'], [500, '5xx'], [503, '5xx'], [101, '1xx']] as const)
      expect(loggedAttempt(result({ statusCode: code, failure: 'http' }), priv, 10_000)).toEqual({ delivered: false, statusCode: null, durationMs: 0, error: `HTTP ${cls}` })
    expect(loggedAttempt(result({ failure: 'timeout', detail: 'TimeoutError: x' }), priv, 10_000)).toEqual({ delivered: false, statusCode: null, durationMs: 0, error: 'Timed out' })
    expect(loggedAttempt(result({ failure: 'connection', detail: 'ECONNREFUSED 127.0.0.1:6379' }), priv, 10_000)).toEqual({ delivered: false, statusCode: null, durationMs: 0, error: 'Connection failed' })
  })

  it('public targets: the code and duration, still never the runtime text', () => {
    expect(loggedAttempt(result({ delivered: true, statusCode: 200 }), pub, 10_000)).toEqual({ delivered: true, statusCode: 200, durationMs: 37, error: null })
    expect(loggedAttempt(result({ statusCode: 503, failure: 'http' }), pub, 10_000)).toEqual({ delivered: false, statusCode: 503, durationMs: 37, error: 'HTTP 503' })
    expect(loggedAttempt(result({ failure: 'timeout' }), pub, 10_000).error).toBe('Timed out after 10 s')
    expect(loggedAttempt(result({ failure: 'connection', detail: 'TypeError: internal error; reference = abc' }), pub, 10_000).error).toBe('Connection failed')
  })
})

describe('describeOutcome and shownDelivery (the page)', () => {
  it('maps stored texts to catalogue keys; capped targets see classes even for rows stored before the cap', () => {
    expect(describeOutcome(null, false)).toBeNull()
    expect(describeOutcome('HTTP 503', false)).toEqual({ key: 'webhooks.outcome.http', code: '503' })
    expect(describeOutcome('HTTP 503', true)).toEqual({ key: 'webhooks.outcome.http', code: '5xx' })
    expect(describeOutcome('HTTP 4xx', false)).toEqual({ key: 'webhooks.outcome.http', code: '4xx' })
    expect(describeOutcome('Timed out after 10 s', true)).toEqual({ key: 'webhooks.outcome.timeout' })
    expect(describeOutcome('Request failed: TypeError: connect ECONNREFUSED 10.0.0.1:22', true)).toEqual({ key: 'webhooks.outcome.connection' })
    expect(describeOutcome('Connection failed', false)).toEqual({ key: 'webhooks.outcome.connection' })
    expect(describeOutcome('Target refused (private_host)', false)).toEqual({ key: 'webhooks.outcome.refused' })
    expect(describeOutcome('Webhook disabled', false)).toEqual({ key: 'webhooks.outcome.disabled' })
    expect(describeOutcome('Signing secret cannot be opened', false)).toEqual({ key: 'webhooks.outcome.secret' })
    expect(describeOutcome('Event not found', false)).toEqual({ key: 'webhooks.outcome.event_missing' })
    expect(describeOutcome('<script>anything else</script>', false)).toEqual({ key: 'webhooks.outcome.failed' })
  })

  it('drops the stored text, and for capped targets the code and duration', () => {
    const row = { id: 'd1', lastStatusCode: 502, lastDurationMs: 4, lastError: 'Request failed: ECONNRESET 10.0.0.5:5432' }
    expect(shownDelivery(row, true)).toEqual({ id: 'd1', lastStatusCode: null, lastDurationMs: null, lastError: null, outcome: { key: 'webhooks.outcome.connection' } })
    expect(shownDelivery({ ...row, lastError: 'HTTP 502' }, false)).toEqual({ id: 'd1', lastStatusCode: 502, lastDurationMs: 4, lastError: null, outcome: { key: 'webhooks.outcome.http', code: '502' } })
  })
})
