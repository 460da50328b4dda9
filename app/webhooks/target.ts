// Where a school's webhook may point (shared by the app's form and the webhooks worker, which
// checks again before every POST). In production: https only, a public host name or address —
// never loopback, private, link-local (169.254.0.0/16, where cloud metadata lives), unique-local,
// carrier-grade NAT, multicast, `localhost` or `*.internal` targets. In development and tests
// http and local peers are allowed, so a local receiver can stand in for the creator's server.
// A host name that resolves to a private address is not caught here (Workers give no DNS lookup
// before fetch); Workers' outbound fetch cannot reach private networks anyway.

export const WEBHOOK_URL_MAX = 2000

export type TargetRefusal = 'invalid' | 'https_only' | 'credentials' | 'private_host'
export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: TargetRefusal }

/** Only development and tests allow http and local targets; any other environment gets the production rules (fail closed). */
export const isProductionEnvironment = (environment: string | undefined) => environment !== 'development' && environment !== 'test'

export function checkWebhookTarget(raw: string, { production }: { production: boolean }): TargetCheck {
  if (raw.length > WEBHOOK_URL_MAX) return { ok: false, reason: 'invalid' }
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return { ok: false, reason: 'invalid' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'invalid' }
  if (!url.hostname) return { ok: false, reason: 'invalid' }
  // user:pass@ in a webhook URL leaks a credential into every log line that prints it.
  if (url.username || url.password) return { ok: false, reason: 'credentials' }
  if (!production) return { ok: true, url }
  if (url.protocol !== 'https:') return { ok: false, reason: 'https_only' }
  if (isPrivateHost(url.hostname)) return { ok: false, reason: 'private_host' }
  return { ok: true, url }
}

/** `hostname` as URL gives it: lower case, IPv4 normalised to dotted quads, IPv6 in brackets. */
export function isPrivateHost(hostname: string) {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (host === 'internal' || host.endsWith('.internal') || host.endsWith('.local') || host.endsWith('.home.arpa')) return true
  if (host.startsWith('[')) return isPrivateIpv6(host.slice(1, -1))
  const v4 = parseIpv4(host)
  if (v4) return isPrivateIpv4(v4)
  // A bare name without a dot (e.g. `intranet`) is never a public host.
  return !host.includes('.')
}

function parseIpv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (!m) return null
  const parts = m.slice(1).map(Number)
  return parts.every((p) => p <= 255) ? parts : null
}

function isPrivateIpv4([a, b]: number[]) {
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata (169.254.169.254)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments (192.0.0.0/24) and TEST-NET-1 (192.0.2.0/24)
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved, broadcast
  )
}

function isPrivateIpv6(host: string) {
  const h = host.toLowerCase()
  if (h === '::' || h === '::1') return true
  // IPv4-mapped (::ffff:127.0.0.1 is normalised by URL to ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h)
  if (mapped) {
    const hi = parseInt(mapped[1], 16)
    const lo = parseInt(mapped[2], 16)
    return isPrivateIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255])
  }
  if (h.startsWith('::ffff:')) return true
  const first = parseInt(h.split(':')[0] || '0', 16)
  return (
    (first & 0xfe00) === 0xfc00 || // unique-local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    first === 0 // ::/8 reserved, incl. IPv4-compatible forms
  )
}
