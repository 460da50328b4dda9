// Mailchimp Marketing API v3 client for what a school's mailing list needs (seed 001 §3: "Mailchimp
// needs an API key and a list id; the list needs an FNAME merge tag"). From Mailchimp's docs:
//   - the API key is `{key}-{dc}`; calls go to `https://{dc}.api.mailchimp.com/3.0`;
//   - HTTP Basic auth with any user name and the key as the password;
//   - GET /lists/{list_id}, GET /lists/{list_id}/merge-fields (is FNAME there?);
//   - PUT /lists/{list_id}/members/{subscriber_hash} (MD5 of the lower-cased address) adds or
//     updates: the same call twice leaves one member;
//   - errors are `application/problem+json` {type, title, status, detail, instance}: 401 (key
//     missing/invalid or wrong data center), 404 (no such list), 400 (invalid resource), 429 (too
//     many connections), 5xx. 429/5xx and network failures are retryable, the others are not.
import { z } from 'zod'

export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>

/** A key as Mailchimp issues it: letters/digits, a dash, the data center (e.g. us21). */
const API_KEY = /^([A-Za-z0-9]{8,64})-([a-z]{2,5}\d{1,3})$/

/** The data center of a key, or null when the key is not shaped like one. */
export function dataCenterOf(apiKey: string) {
  return API_KEY.exec(apiKey.trim())?.[2] ?? null
}

export function mailchimpBaseUrl(dc: string) {
  return `https://${dc}.api.mailchimp.com/3.0`
}

export async function subscriberHash(email: string) {
  const digest = await crypto.subtle.digest('MD5', new TextEncoder().encode(email.trim().toLowerCase()))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

export type MailchimpErrorKind = 'auth' | 'not_found' | 'invalid' | 'rate_limited' | 'unavailable'

export class MailchimpError extends Error {
  constructor(
    message: string,
    readonly kind: MailchimpErrorKind,
    readonly status: number | null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message)
    this.name = 'MailchimpError'
  }
  get retryable() {
    return this.kind === 'rate_limited' || this.kind === 'unavailable'
  }
}

const Problem = z.object({ title: z.string().optional(), status: z.number().optional(), detail: z.string().optional() })
const ListSchema = z.object({ id: z.string(), name: z.string(), stats: z.object({ member_count: z.number() }).partial().optional() })
const MergeFieldsSchema = z.object({ merge_fields: z.array(z.object({ tag: z.string(), name: z.string().optional(), required: z.boolean().optional() })) })
const MemberSchema = z.object({ id: z.string(), email_address: z.string(), status: z.string() })

export type MailchimpList = { id: string; name: string; memberCount: number | null }
export type MailchimpMember = z.infer<typeof MemberSchema>

function kindOf(status: number): MailchimpErrorKind {
  if (status === 401 || status === 403) return 'auth'
  if (status === 404) return 'not_found'
  if (status === 429) return 'rate_limited'
  if (status >= 500) return 'unavailable'
  return 'invalid'
}

export function mailchimpClient(options: { apiKey: string; baseUrl?: string; fetch?: FetchLike; timeoutMs?: number }) {
  const key = options.apiKey.trim()
  const dc = dataCenterOf(key)
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init))
  const timeoutMs = options.timeoutMs ?? 10_000

  async function call(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<unknown> {
    // A key without a data center cannot be sent anywhere: Mailchimp would not know it either.
    if (!dc) throw new MailchimpError('API Key Invalid: the key must end with its data center, like -us21', 'auth', null)
    const base = (options.baseUrl ?? mailchimpBaseUrl(dc)).replace('{dc}', dc).replace(/\/$/, '')
    let res: Response
    try {
      res = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Basic ${btoa(`coursefront:${key}`)}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new MailchimpError(`Mailchimp unreachable: ${(error as Error)?.name ?? 'Error'}`, 'unavailable', null)
    }
    const text = await res.text()
    let json: unknown = null
    try {
      json = text ? JSON.parse(text) : null
    } catch {
      /* an HTML error page or a cut-off body */
    }
    if (!res.ok) {
      const p = Problem.safeParse(json)
      const title = p.success ? p.data.title : undefined
      const detail = p.success ? p.data.detail : undefined
      const retryAfter = Number(res.headers.get('Retry-After'))
      const message = [title ?? `HTTP ${res.status}`, detail].filter(Boolean).join(': ')
      throw new MailchimpError(message.slice(0, 300), kindOf(res.status), res.status, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null)
    }
    if (json === null) throw new MailchimpError('Mailchimp answered something that is not JSON', 'unavailable', res.status)
    return json
  }

  function parse<T>(schema: z.ZodType<T>, json: unknown, what: string): T {
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new MailchimpError(`Mailchimp answered something that is not ${what}`, 'unavailable', 200)
    return parsed.data
  }

  const listPath = (listId: string) => `/lists/${encodeURIComponent(listId.trim())}`

  return {
    dataCenter: dc,

    async getList(listId: string): Promise<MailchimpList> {
      const list = parse(ListSchema, await call('GET', listPath(listId)), 'an audience')
      return { id: list.id, name: list.name, memberCount: list.stats?.member_count ?? null }
    },

    async mergeTags(listId: string): Promise<string[]> {
      // 1000 is the API's maximum page; an audience has at most 80 merge fields.
      const json = parse(MergeFieldsSchema, await call('GET', `${listPath(listId)}/merge-fields?count=1000&fields=merge_fields.tag,merge_fields.name,merge_fields.required`), 'merge fields')
      return json.merge_fields.map((f) => f.tag.toUpperCase())
    },

    /** Key, audience and its FNAME merge tag, in that order: the first problem is thrown. */
    async checkList(listId: string): Promise<MailchimpList & { hasFname: boolean }> {
      const list = await this.getList(listId)
      const tags = await this.mergeTags(listId)
      return { ...list, hasFname: tags.includes('FNAME') }
    },

    /** Add or update one member (idempotent by address); a new one gets `statusIfNew`. */
    async upsertMember(listId: string, input: { email: string; firstName?: string; statusIfNew?: 'subscribed' | 'pending' }): Promise<MailchimpMember> {
      const email = input.email.trim()
      const body: Record<string, unknown> = { email_address: email, status_if_new: input.statusIfNew ?? 'subscribed' }
      if (input.firstName) body.merge_fields = { FNAME: input.firstName }
      return parse(MemberSchema, await call('PUT', `${listPath(listId)}/members/${await subscriberHash(email)}`, body), 'a member')
    },
  }
}

export type MailchimpClient = ReturnType<typeof mailchimpClient>

export type MailchimpEnv = { ENVIRONMENT: string; DEV_PEERS?: Fetcher; MAILCHIMP_API_URL?: string }

/** The dev peer (workers/dev-peers/src/mailchimp.ts); `{dc}` is the key's data center. */
export const MAILCHIMP_PEER_URL = 'http://{dc}.mailchimp.dev-peers.internal/mailchimp/3.0'

/**
 * The client for a key in this deployment: in development and tests (with DEV_PEERS) every call
 * goes to the local peer through that binding, at MAILCHIMP_API_URL (default MAILCHIMP_PEER_URL),
 * whatever its host; otherwise to Mailchimp's data center of the key.
 */
export function mailchimpForEnv(env: MailchimpEnv, apiKey: string, fetchOverride?: FetchLike) {
  const peers = env.DEV_PEERS
  const dev = (env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'test') && !!peers
  if (!dev || !peers) return mailchimpClient({ apiKey, fetch: fetchOverride })
  const peerFetch: FetchLike = (input, init) => peers.fetch(new Request(input instanceof Request ? input.url : String(input), init))
  return mailchimpClient({ apiKey, baseUrl: env.MAILCHIMP_API_URL || MAILCHIMP_PEER_URL, fetch: fetchOverride ?? peerFetch })
}

/** What the page shows of a key once saved: its last 4 characters. */
export function keyHint(apiKey: string) {
  const key = apiKey.trim()
  const dc = dataCenterOf(key)
  // The data center is not secret; the last 4 characters of the key itself are the hint.
  return dc ? `…${key.slice(0, -(dc.length + 1)).slice(-4)}-${dc}` : `…${key.slice(-4)}`
}
