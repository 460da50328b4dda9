// DNS-over-HTTPS, JSON flavour: how the domains worker sees a creator's DNS records (Workers have
// no resolver API of their own).
//
// What was checked, and where:
// - developers.cloudflare.com/1.1.1.1/encryption/dns-over-https/make-api-requests/dns-json/ (and
//   the cloudflare-docs source of that page): `GET {url}?name=…&type=…` with
//   `Accept: application/dns-json`; `type` is a mnemonic or a number, default A. Answer
//   {Status, TC, RD, RA, AD, CD, Question:[{name, type}], Answer:[{name, type, TTL, data}],
//   Authority?, Comment?}; an invalid request is a 400 with {error}. Cloudflare follows Google's
//   schema (developers.google.com/speed/public-dns/docs/doh/json), which also documents names of
//   1–253 characters with 1–63 per label and punycode for non-ASCII.
// - `Status` is the DNS RCODE (IANA dns-parameters-6): 0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN, 5 REFUSED.
//   NOERROR with no Answer is "the name exists, no record of that type".
// - Answer names and CNAME targets are fully qualified (trailing dot). A query for A/TXT of a
//   name that is a CNAME also returns the CNAME (type 5) before the target's records, so answers
//   are filtered by type. TXT data is the presentation form: each ≤255-byte character string in
//   double quotes, several separated by spaces (`"v=spf1 " "-all"`); Google's resolver may send it
//   unquoted. Record types: A 1, CNAME 5, TXT 16, AAAA 28.
import { z } from 'zod'
import { isTimeout, type FetchFn } from './custom-hostnames.server.ts'

export const DOH_DEFAULT_URL = 'https://cloudflare-dns.com/dns-query'
export const RR_TYPE = { A: 1, CNAME: 5, TXT: 16, AAAA: 28 } as const
export type RrType = keyof typeof RR_TYPE
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const

export type DohAnswer = { name: string; type: number; TTL: number; data: string }
export type DohResponse = { status: number; answers: DohAnswer[] }

const responseSchema = z
  .object({
    Status: z.number().int(),
    Answer: z.array(z.object({ name: z.string(), type: z.number().int(), TTL: z.number().optional(), data: z.string() }).passthrough()).optional(),
  })
  .passthrough()

export type DohErrorKind = 'http' | 'network' | 'timeout' | 'malformed' | 'rcode'

export class DohError extends Error {
  readonly kind: DohErrorKind
  readonly status: number | null
  readonly retryable: boolean
  readonly retryAfterSeconds: number | null

  constructor(message: string, opts: { kind: DohErrorKind; status?: number | null; retryable: boolean; retryAfterSeconds?: number | null; cause?: unknown }) {
    super(message, { cause: opts.cause })
    this.name = 'DohError'
    this.kind = opts.kind
    this.status = opts.status ?? null
    this.retryable = opts.retryable
    this.retryAfterSeconds = opts.retryAfterSeconds ?? null
  }
}

/** `Kurs.Example.com.` → `kurs.example.com` */
export function normaliseName(name: string) {
  return name.trim().toLowerCase().replace(/\.+$/, '')
}

/**
 * TXT presentation form → the value: `"abc" "def"` → `abcdef`, with `\"`, `\\` and `\DDD`
 * unescaped. Unquoted data (some resolvers) is returned as is.
 */
export function parseTxtData(data: string): string {
  const trimmed = data.trim()
  if (!trimmed.startsWith('"')) return trimmed
  let out = ''
  let inQuotes = false
  for (let i = 0; i < trimmed.length; i++) {
    const ch = trimmed[i]
    if (ch === '"') {
      inQuotes = !inQuotes
      continue
    }
    if (!inQuotes) continue // whitespace between character strings
    if (ch === '\\' && i + 1 < trimmed.length) {
      const digits = trimmed.slice(i + 1, i + 4)
      if (/^\d{3}$/.test(digits)) {
        out += String.fromCharCode(Number(digits))
        i += 3
      } else {
        out += trimmed[++i]
      }
      continue
    }
    out += ch
  }
  return out
}

export type DohClientOptions = { url?: string; fetch?: FetchFn; timeoutMs?: number }

export class DohClient {
  private readonly url: string
  private readonly fetchFn: FetchFn
  private readonly timeoutMs: number

  constructor(opts: DohClientOptions = {}) {
    this.url = opts.url || DOH_DEFAULT_URL
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init))
    this.timeoutMs = opts.timeoutMs ?? 10_000
  }

  /** One query. NXDOMAIN and NOERROR are answers; any other RCODE is a (retryable) error. */
  async query(name: string, type: RrType): Promise<DohResponse> {
    const url = new URL(this.url)
    url.searchParams.set('name', normaliseName(name))
    url.searchParams.set('type', type)
    let res: Response
    let text: string
    try {
      res = await this.fetchFn(url.toString(), { method: 'GET', headers: { Accept: 'application/dns-json' }, signal: AbortSignal.timeout(this.timeoutMs) })
      text = await res.text()
    } catch (error) {
      if (isTimeout(error)) throw new DohError(`DNS lookup timed out after ${this.timeoutMs} ms (${type} ${name})`, { kind: 'timeout', retryable: true, cause: error })
      throw new DohError(`DNS resolver unreachable (${type} ${name}): ${String(error)}`, { kind: 'network', retryable: true, cause: error })
    }
    if (!res.ok) {
      const retryable = res.status >= 500 || res.status === 429 || res.status === 408
      const retryAfter = res.headers.get('Retry-After')
      throw new DohError(`DNS resolver answered ${res.status} (${type} ${name})`, {
        kind: 'http',
        status: res.status,
        retryable,
        retryAfterSeconds: retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : null,
      })
    }
    let parsed: z.infer<typeof responseSchema>
    try {
      const result = responseSchema.safeParse(JSON.parse(text))
      if (!result.success) throw new Error('shape')
      parsed = result.data
    } catch {
      throw new DohError(`DNS resolver answered malformed JSON (${type} ${name})`, { kind: 'malformed', status: res.status, retryable: true })
    }
    if (parsed.Status !== RCODE.NOERROR && parsed.Status !== RCODE.NXDOMAIN) {
      // SERVFAIL and friends: the resolver could not get an answer right now.
      throw new DohError(`DNS resolver answered RCODE ${parsed.Status} (${type} ${name})`, { kind: 'rcode', status: res.status, retryable: true })
    }
    const answers = (parsed.Answer ?? []).map((a) => ({ name: a.name, type: a.type, TTL: a.TTL ?? 0, data: a.data }))
    return { status: parsed.Status, answers }
  }

  /** The CNAME target of `name` (normalised), or null. */
  async resolveCname(name: string): Promise<string | null> {
    const { answers } = await this.query(name, 'CNAME')
    const own = normaliseName(name)
    const record = answers.find((a) => a.type === RR_TYPE.CNAME && normaliseName(a.name) === own) ?? answers.find((a) => a.type === RR_TYPE.CNAME)
    return record ? normaliseName(record.data) : null
  }

  async resolveA(name: string): Promise<string[]> {
    return this.dataOf(name, 'A').then((list) => list.map((d) => d.trim()))
  }

  async resolveAaaa(name: string): Promise<string[]> {
    return this.dataOf(name, 'AAAA').then((list) => list.map((d) => d.trim().toLowerCase()))
  }

  /** TXT values at `name`, unquoted and with their character strings joined. */
  async resolveTxt(name: string): Promise<string[]> {
    return this.dataOf(name, 'TXT').then((list) => list.map(parseTxtData))
  }

  private async dataOf(name: string, type: RrType) {
    const { answers } = await this.query(name, type)
    return answers.filter((a) => a.type === RR_TYPE[type]).map((a) => a.data)
  }
}
