import { describe, expect, it } from 'vitest'
import { checkWebhookTarget, isPrivateHost, isProductionEnvironment } from './target.ts'

const production = { production: true }
const development = { production: false }
const reason = (url: string, opts = production) => {
  const r = checkWebhookTarget(url, opts)
  return r.ok ? 'ok' : r.reason
}

describe('webhook target rules', () => {
  it('production: refuses plain http, whatever the host', () => {
    for (const url of ['http://127.0.0.1', 'http://169.254.169.254', 'http://hooks.example.com/x', 'http://203.0.113.7/x']) expect(reason(url), url).toBe('https_only')
  })

  it('production: refuses loopback, private, link-local (metadata), unique-local, CGNAT, multicast and internal names', () => {
    const refused = [
      'https://127.0.0.1/x',
      'https://127.1.2.3/x',
      'https://2130706433/x', // 127.0.0.1 as one number (URL normalises it)
      'https://0x7f.1/x',
      'https://0.0.0.0/x',
      'https://10.1.2.3/x',
      'https://172.16.0.1/x',
      'https://172.31.255.255/x',
      'https://192.168.1.10/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/x',
      'https://224.0.0.1/x',
      'https://255.255.255.255/x',
      'https://[::1]/x',
      'https://[::]/x',
      'https://[fd00::1]/x',
      'https://[fc00::1]/x',
      'https://[fe80::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[::ffff:169.254.169.254]/x',
      'https://localhost/x',
      'https://LOCALHOST./x',
      'https://app.localhost/x',
      'https://metadata.google.internal/x',
      'https://webhooks.dev-peers.internal/webhook-receiver/a',
      'https://printer.local/x',
      'https://intranet/x',
    ]
    for (const url of refused) expect(reason(url), url).toBe('private_host')
  })

  it('production: accepts public https hosts and addresses', () => {
    for (const url of ['https://hooks.example.com/coursefront', 'https://example.com:8443/a?b=c', 'https://8.8.8.8/x', 'https://172.32.0.1/x', 'https://[2606:4700::1111]/x', 'https://hooks.example.com']) {
      expect(reason(url), url).toBe('ok')
    }
  })

  it('refuses what is not an http(s) URL and credentials in the URL, in every environment', () => {
    for (const opts of [production, development]) {
      for (const url of ['', 'not a url', 'ftp://example.com/x', 'javascript:alert(1)', 'file:///etc/passwd', `https://example.com/${'a'.repeat(2000)}`]) expect(reason(url, opts), url).toBe('invalid')
      expect(reason('https://user:pass@example.com/x', opts)).toBe('credentials')
    }
  })

  it('development and tests: http and local peers are allowed', () => {
    for (const url of ['http://127.0.0.1:9000/hook', 'http://localhost/x', 'http://webhooks.dev-peers.internal/webhook-receiver/a', 'http://169.254.169.254/']) expect(reason(url, development), url).toBe('ok')
  })

  it('only development and test environments count as non-production', () => {
    expect([undefined, '', 'production', 'staging', 'development', 'test'].map(isProductionEnvironment)).toEqual([true, true, true, true, false, false])
    expect(isPrivateHost('example.com')).toBe(false)
  })
})
