// Custom domain names as a creator types them: normalised, then checked. Shared by the app's
// form and the domains worker, so both refuse the same things with the same translation keys.

export const HOSTNAME_MAX = 253
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

export type HostnameCheck = { ok: true; hostname: string; apex: boolean } | { ok: false; error: string }

/**
 * Accepts `kurs.example.com` (any case, a trailing dot). Refuses URLs, ports, paths, IP
 * addresses, single labels, non-ASCII (the punycode form is required), the platform's own hosts.
 */
export function checkCustomHostname(input: string, platformHost: string): HostnameCheck {
  const raw = input.trim()
  if (!raw) return { ok: false, error: 'validation.required' }
  if (raw.length > HOSTNAME_MAX + 1) return { ok: false, error: 'domains.error.too_long' }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || /[/?#@\s:\\]/.test(raw)) return { ok: false, error: 'domains.error.not_a_hostname' }
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(raw)) return { ok: false, error: 'domains.error.unicode' }
  const hostname = raw.toLowerCase().replace(/\.$/, '')
  if (hostname.length > HOSTNAME_MAX) return { ok: false, error: 'domains.error.too_long' }
  const labels = hostname.split('.')
  if (labels.length < 2 || labels.some((l) => !LABEL.test(l))) return { ok: false, error: 'domains.error.invalid' }
  const tld = labels[labels.length - 1]
  if (/^\d+$/.test(tld)) return { ok: false, error: 'domains.error.ip' }
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(tld)) return { ok: false, error: 'domains.error.invalid' }
  const platform = platformHost.toLowerCase()
  if (hostname === platform || hostname.endsWith(`.${platform}`)) return { ok: false, error: 'domains.error.platform' }
  return { ok: true, hostname, apex: labels.length === 2 }
}
