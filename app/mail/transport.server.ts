// How an outbox row leaves the building. The mail worker picks a transport from MAIL_TRANSPORT:
// "outbox" (development: nothing is sent, the dev mail viewer shows the D1 row) or "resend".
//
// Resend's protocol, as checked against its public docs (resend.com/docs/api-reference/errors,
// /docs/api-reference/introduction, /docs/dashboard/emails/idempotency-keys,
// /docs/api-reference/emails/send-email, /changelog/api-rate-limit):
// - POST https://api.resend.com/emails, `Authorization: Bearer re_…`, JSON body
//   { from, to: string | string[] (max 50), subject, html?, text? }; 200 → { "id": "…" }.
// - Errors are JSON { statusCode, name, message }: 400 validation_error / invalid_idempotency_key,
//   401 missing_api_key, 403 invalid_api_key (and unverified-domain validation_error),
//   422 missing_required_field / invalid_from_address / validation_error, 429 rate_limit_exceeded
//   or daily_quota_exceeded (with a `retry-after` header, in seconds), 5xx application_error /
//   internal_server_error.
// - `Idempotency-Key` header (1–256 chars, kept 24 h): same key + same payload → same response
//   without a second send; same key + other payload → 409 invalid_idempotent_request (pointless to
//   retry); same key while the first is in flight → 409 concurrent_idempotent_requests (retry later).
import type { Env } from '#app/utils/env.server.ts'

export type MailMessage = {
  from: string
  to: string
  subject: string
  text: string
  html: string
  /** The outbox id: a redelivered queue message must not become a second email. */
  idempotencyKey: string
}

export interface MailTransport {
  send(msg: MailMessage): Promise<{ id: string | null }>
}

/** A send that did not go through. `retryable` tells the consumer whether to try again later. */
export class MailSendError extends Error {
  readonly retryable: boolean
  /** HTTP status of the provider's answer; null when no answer came (network failure). */
  readonly status: number | null
  /** Provider's error name, e.g. "validation_error". */
  readonly code: string | null
  /** Seconds the provider asked us to wait (Retry-After), if it said. */
  readonly retryAfterSeconds: number | null

  constructor(message: string, opts: { retryable: boolean; status?: number | null; code?: string | null; retryAfterSeconds?: number | null; cause?: unknown }) {
    super(message, { cause: opts.cause })
    this.name = 'MailSendError'
    this.retryable = opts.retryable
    this.status = opts.status ?? null
    this.code = opts.code ?? null
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null
  }
}

/** The worker is set up wrong (unknown MAIL_TRANSPORT, missing API key). Not a per-message failure. */
export class MailConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MailConfigError'
  }
}

/** Development: the D1 row is the email. */
export class OutboxOnlyTransport implements MailTransport {
  async send(): Promise<{ id: string | null }> {
    return { id: null }
  }
}

export const RESEND_DEFAULT_BASE_URL = 'https://api.resend.com'

type FetchFn = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

export class ResendTransport implements MailTransport {
  private readonly apiKey: string
  private readonly baseUrl: string
  private readonly fetchFn: FetchFn
  private readonly timeoutMs: number

  constructor(opts: { apiKey: string; baseUrl?: string; fetch?: FetchFn; timeoutMs?: number }) {
    if (!opts.apiKey) throw new MailConfigError('ResendTransport needs an API key (RESEND_API_KEY)')
    this.apiKey = opts.apiKey
    this.baseUrl = (opts.baseUrl || RESEND_DEFAULT_BASE_URL).replace(/\/+$/, '')
    // workerd throws "Illegal invocation" for a fetch detached from globalThis, hence the wrapper.
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init))
    // A hung connection must not eat the consumer's wall time; a timeout is just a retryable failure.
    this.timeoutMs = opts.timeoutMs ?? 15_000
  }

  async send(msg: MailMessage): Promise<{ id: string | null }> {
    let res: Response
    try {
      res = await this.fetchFn(`${this.baseUrl}/emails`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.apiKey}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': msg.idempotencyKey,
        },
        body: JSON.stringify({ from: msg.from, to: [msg.to], subject: msg.subject, html: msg.html, text: msg.text }),
        signal: AbortSignal.timeout(this.timeoutMs),
      })
    } catch (error) {
      // No answer at all: Resend may or may not have the email; the idempotency key makes a retry safe.
      throw new MailSendError(`Resend unreachable: ${String(error)}`, { retryable: true, cause: error })
    }

    const payload = await readJson(res)
    if (res.ok) {
      const id = typeof payload?.id === 'string' ? payload.id : null
      // 2xx without an id should not happen; retrying with the same key returns the original answer.
      if (!id) throw new MailSendError(`Resend answered ${res.status} without an email id`, { retryable: true, status: res.status })
      return { id }
    }

    const code = typeof payload?.name === 'string' ? payload.name : null
    const detail = typeof payload?.message === 'string' ? payload.message : res.statusText
    throw new MailSendError(`Resend ${res.status}${code ? ` ${code}` : ''}: ${detail}`, {
      retryable: isRetryable(res.status, code),
      status: res.status,
      code,
      retryAfterSeconds: res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get('Retry-After')) : null,
    })
  }
}

function isRetryable(status: number, code: string | null) {
  if (status >= 500 || status === 429 || status === 408) return true
  // The first request with this key is still in flight; its answer will be replayed later.
  if (status === 409 && code === 'concurrent_idempotent_requests') return true
  // 400/401/403/404/422 and 409 invalid_idempotent_request: the same request fails the same way.
  return false
}

async function readJson(res: Response): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await res.json()
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  if (Number.isNaN(at)) return null
  return Math.max(0, Math.ceil((at - now) / 1000))
}

type TransportEnv = Pick<Env, 'MAIL_TRANSPORT' | 'RESEND_API_KEY' | 'RESEND_API_URL'>

/** The transport the configuration asks for. Production uses the real fetch to RESEND_API_URL. */
export function getMailTransport(env: TransportEnv, deps: { fetch?: FetchFn } = {}): MailTransport {
  switch (env.MAIL_TRANSPORT) {
    case 'outbox':
      return new OutboxOnlyTransport()
    case 'resend':
      if (!env.RESEND_API_KEY) throw new MailConfigError('MAIL_TRANSPORT is "resend" but the RESEND_API_KEY secret is not set')
      return new ResendTransport({ apiKey: env.RESEND_API_KEY, baseUrl: env.RESEND_API_URL, fetch: deps.fetch })
    default:
      throw new MailConfigError(`Unknown MAIL_TRANSPORT ${JSON.stringify(env.MAIL_TRANSPORT)}: expected "outbox" or "resend"`)
  }
}
