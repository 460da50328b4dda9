// Client for Cloudflare for SaaS custom hostnames (issue 3). The domains worker is its only user;
// the app never talks to Cloudflare itself.
//
// What was checked, and where (stored copies read through the project's search tool):
// - Calls (cloudflare/cloudflare-typescript src/resources/custom-hostnames/custom-hostnames.ts;
//   developers.cloudflare.com/api/go/resources/custom_hostnames/methods/create and /edit):
//     POST   /zones/{zone_id}/custom_hostnames  {hostname, ssl:{method:'http'|'txt'|'email', type:'dv', …}}
//     GET    /zones/{zone_id}/custom_hostnames?hostname=<fqdn>   (filter by `hostname` or `id`, not both;
//            paginated: result is an array plus result_info)
//     GET | PATCH | DELETE /zones/{zone_id}/custom_hostnames/{custom_hostname_id}; DELETE answers {id}.
//   PATCH: "When sent with SSL config that matches existing config, used to indicate that hostname
//   should pass domain control validation (DCV)" — that is our "check again".
// - Success codes POST 201, GET 200, DELETE 200, PATCH 202; error codes 400 1400 (undecodable
//   JSON), 1407 invalid hostname, 1408 non-ASCII, 1409 reserved TLD, 1410 unparsable, 1411
//   example.com/net/org, 1432/1433/1434/1440 bad ssl object, 1435 bad id, 1438 id+hostname filter;
//   404 1436 not found; 409 1406 "Duplicate custom hostname found."; 403 1404/1405 quota; 500 1500
//   (developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/reference/status-codes/custom-hostnames/).
// - Every answer is the v4 envelope {success, errors:[{code, message, error_chain?}], messages, result}.
// - Auth is `Authorization: Bearer <token>`. Answers seen in public bug reports: no header → 400
//   9106 "Missing X-Auth-Key, X-Auth-Email or Authorization headers"; a malformed header → 400 6003
//   "Invalid request headers" with error_chain 6111; a well-formed but wrong token → 10000
//   "Authentication error", reported as 403 from live calls (401 in some fakes). Either way: not
//   retryable, somebody must fix the token.
// - Result fields: id, hostname, status (active | pending | moved | blocked | pending_blocked | …),
//   ownership_verification {type:'txt', name:'_cf-custom-hostname.<host>', value}, ssl {status
//   (initializing → pending_validation → pending_issuance → pending_deployment → active, or
//   *_timed_out), method, type, validation_records[{txt_name, txt_value, http_url, http_body,
//   emails}], validation_errors[{message}]}, verification_errors (strings such as "custom hostname
//   does not CNAME to this zone.") — the SDK types above and …/hostname-validation/pre-validation/.
// - A hostname is live only when both `status` and `ssl.status` are `active`.
import { z } from 'zod'

export const CF_API_DEFAULT_BASE = 'https://api.cloudflare.com/client/v4'
/** What we create hostnames with; a PATCH with the same object restarts validation. */
export const DEFAULT_SSL = { method: 'txt', type: 'dv' } as const
export type SslRequest = { method: 'http' | 'txt' | 'email'; type: 'dv' }

export const CF_CODE = {
  DUPLICATE_HOSTNAME: 1406,
  HOSTNAME_NOT_FOUND: 1436,
} as const
/** Cloudflare refuses the name itself (not our request, not its servers). */
const INVALID_HOSTNAME_CODES = new Set([1407, 1408, 1409, 1410, 1411])

export type FetchFn = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

export type ValidationRecord = { txt_name: string | null; txt_value: string | null; http_url: string | null; http_body: string | null }

export type CustomHostname = {
  id: string
  hostname: string
  status: string | null
  ownership_verification: { type: string; name: string; value: string } | null
  ssl: {
    status: string | null
    method: string | null
    type: string | null
    validation_records: ValidationRecord[]
    validation_errors: { message: string }[]
  }
  verification_errors: string[]
  created_at: string | null
}

// Lenient on purpose: Cloudflare adds fields over time; we only insist on what we use.
const validationRecordSchema = z
  .object({ txt_name: z.string().nullish(), txt_value: z.string().nullish(), http_url: z.string().nullish(), http_body: z.string().nullish() })
  .passthrough()

const customHostnameSchema = z
  .object({
    id: z.string().min(1),
    hostname: z.string().min(1),
    status: z.string().nullish(),
    ownership_verification: z.object({ type: z.string().nullish(), name: z.string().nullish(), value: z.string().nullish() }).passthrough().nullish(),
    ssl: z
      .object({
        status: z.string().nullish(),
        method: z.string().nullish(),
        type: z.string().nullish(),
        validation_records: z.array(validationRecordSchema).nullish(),
        validation_errors: z.array(z.object({ message: z.string().nullish() }).passthrough()).nullish(),
      })
      .passthrough()
      .nullish(),
    verification_errors: z.array(z.unknown()).nullish(),
    created_at: z.string().nullish(),
  })
  .passthrough()

const envelopeSchema = z
  .object({
    success: z.boolean(),
    errors: z.array(z.object({ code: z.number(), message: z.string() }).passthrough()).nullish(),
    messages: z.array(z.unknown()).nullish(),
    result: z.unknown(),
  })
  .passthrough()

function toCustomHostname(raw: z.infer<typeof customHostnameSchema>): CustomHostname {
  const ov = raw.ownership_verification
  return {
    id: raw.id,
    hostname: raw.hostname,
    status: raw.status ?? null,
    ownership_verification: ov?.name && ov.value ? { type: ov.type ?? 'txt', name: ov.name, value: ov.value } : null,
    ssl: {
      status: raw.ssl?.status ?? null,
      method: raw.ssl?.method ?? null,
      type: raw.ssl?.type ?? null,
      validation_records: (raw.ssl?.validation_records ?? []).map((r) => ({
        txt_name: r.txt_name ?? null,
        txt_value: r.txt_value ?? null,
        http_url: r.http_url ?? null,
        http_body: r.http_body ?? null,
      })),
      validation_errors: (raw.ssl?.validation_errors ?? []).map((e) => ({ message: e.message ?? '' })),
    },
    verification_errors: (raw.verification_errors ?? []).map((e) => (typeof e === 'string' ? e : JSON.stringify(e))),
    created_at: raw.created_at ?? null,
  }
}

export type CloudflareErrorKind = 'http' | 'network' | 'timeout' | 'malformed'

/** A call that did not give us a usable answer. `retryable`: try the same call again later. */
export class CloudflareApiError extends Error {
  readonly kind: CloudflareErrorKind
  /** HTTP status of the answer; null when none came. */
  readonly status: number | null
  /** Cloudflare's error codes from the envelope (e.g. 1406). */
  readonly codes: number[]
  readonly retryable: boolean
  readonly retryAfterSeconds: number | null

  constructor(message: string, opts: { kind: CloudflareErrorKind; status?: number | null; codes?: number[]; retryable: boolean; retryAfterSeconds?: number | null; cause?: unknown }) {
    super(message, { cause: opts.cause })
    this.name = 'CloudflareApiError'
    this.kind = opts.kind
    this.status = opts.status ?? null
    this.codes = opts.codes ?? []
    this.retryable = opts.retryable
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null
  }

  get isDuplicateHostname() {
    return this.codes.includes(CF_CODE.DUPLICATE_HOSTNAME)
  }

  get isNotFound() {
    return this.status === 404 || this.codes.includes(CF_CODE.HOSTNAME_NOT_FOUND)
  }

  get isInvalidHostname() {
    return this.codes.some((code) => INVALID_HOSTNAME_CODES.has(code))
  }
}

export type CustomHostnamesOptions = {
  zoneId: string
  apiToken: string
  baseUrl?: string
  /** Defaults to the global fetch; the domains worker passes the dev peers' service binding in development. */
  fetch?: FetchFn
  timeoutMs?: number
}

export class CustomHostnamesClient {
  private readonly zoneId: string
  private readonly apiToken: string
  private readonly baseUrl: string
  private readonly fetchFn: FetchFn
  private readonly timeoutMs: number

  constructor(opts: CustomHostnamesOptions) {
    if (!opts.zoneId) throw new Error('CustomHostnamesClient needs a zone id (CF_ZONE_ID)')
    if (!opts.apiToken) throw new Error('CustomHostnamesClient needs an API token (CF_API_TOKEN)')
    this.zoneId = opts.zoneId
    this.apiToken = opts.apiToken
    this.baseUrl = (opts.baseUrl || CF_API_DEFAULT_BASE).replace(/\/+$/, '')
    // workerd throws "Illegal invocation" for a fetch detached from globalThis, hence the wrapper.
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init))
    // A hung API must not eat a cron run: a timeout is just a retryable failure.
    this.timeoutMs = opts.timeoutMs ?? 10_000
  }

  async create(hostname: string, ssl: SslRequest = DEFAULT_SSL): Promise<CustomHostname> {
    return parseHostname(await this.call('POST', '', { hostname, ssl }))
  }

  async get(id: string): Promise<CustomHostname> {
    return parseHostname(await this.call('GET', `/${encodeURIComponent(id)}`))
  }

  /** The custom hostname for this exact name, or null. */
  async findByHostname(hostname: string): Promise<CustomHostname | null> {
    const result = await this.call('GET', `?${new URLSearchParams({ hostname })}`)
    const list = z.array(z.unknown()).safeParse(result)
    if (!list.success) throw malformed('list result is not an array')
    const found = list.data.map(parseHostname).find((h) => h.hostname.toLowerCase() === hostname.toLowerCase())
    return found ?? null
  }

  /** PATCH with the unchanged ssl object: Cloudflare restarts domain control validation. */
  async refreshValidation(id: string, ssl: SslRequest = DEFAULT_SSL): Promise<CustomHostname> {
    return parseHostname(await this.call('PATCH', `/${encodeURIComponent(id)}`, { ssl }))
  }

  async delete(id: string): Promise<{ id: string }> {
    const result = await this.call('DELETE', `/${encodeURIComponent(id)}`)
    const parsed = z.object({ id: z.string() }).passthrough().safeParse(result)
    return { id: parsed.success ? parsed.data.id : id }
  }

  private async call(method: string, suffix: string, body?: unknown): Promise<unknown> {
    const url = `${this.baseUrl}/zones/${encodeURIComponent(this.zoneId)}/custom_hostnames${suffix}`
    let res: Response
    let text: string
    try {
      res = await this.fetchFn(url, {
        method,
        headers: {
          Authorization: `Bearer ${this.apiToken}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      text = await res.text()
    } catch (error) {
      if (isTimeout(error)) throw new CloudflareApiError(`Cloudflare API timed out after ${this.timeoutMs} ms (${method})`, { kind: 'timeout', retryable: true, cause: error })
      throw new CloudflareApiError(`Cloudflare API unreachable (${method}): ${String(error)}`, { kind: 'network', retryable: true, cause: error })
    }

    const retryAfterSeconds = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get('Retry-After')) : null
    let envelope: z.infer<typeof envelopeSchema> | null = null
    try {
      const parsed = envelopeSchema.safeParse(JSON.parse(text))
      if (parsed.success) envelope = parsed.data
    } catch {
      /* not JSON */
    }

    if (!envelope) {
      // An HTML error page from the edge (502/503) or a cut-off body: nothing to act on, try later.
      const retryable = res.ok || isRetryableStatus(res.status)
      throw new CloudflareApiError(`Cloudflare API ${res.status} (${method}) without a JSON envelope`, {
        kind: res.ok ? 'malformed' : 'http',
        status: res.status,
        retryable,
        retryAfterSeconds,
      })
    }

    if (!res.ok || !envelope.success) {
      const errors = envelope.errors ?? []
      const codes = errors.map((e) => e.code)
      const detail = errors.map((e) => `${e.code} ${e.message}`).join('; ') || res.statusText || 'no error detail'
      throw new CloudflareApiError(`Cloudflare API ${res.status} (${method}): ${detail}`, {
        kind: 'http',
        status: res.status,
        codes,
        // success:false with a 2xx should not happen; treat it as a server-side hiccup.
        retryable: res.ok || isRetryableStatus(res.status),
        retryAfterSeconds,
      })
    }
    return envelope.result
  }
}

function parseHostname(result: unknown): CustomHostname {
  const parsed = customHostnameSchema.safeParse(result)
  if (!parsed.success) throw malformed(`unexpected custom hostname shape (${parsed.error.issues[0]?.path.join('.') || 'result'})`)
  return toCustomHostname(parsed.data)
}

function malformed(detail: string) {
  return new CloudflareApiError(`Cloudflare API answered malformed JSON: ${detail}`, { kind: 'malformed', status: 200, retryable: true })
}

function isRetryableStatus(status: number) {
  return status >= 500 || status === 429 || status === 408
}

export function isTimeout(error: unknown) {
  const name = (error as { name?: string } | null)?.name
  return name === 'TimeoutError' || name === 'AbortError'
}

/** Retry-After is delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000))
}
