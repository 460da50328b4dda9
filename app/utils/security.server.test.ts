// isCsrfSafe and withOwnHost (issue 19 §2): a present Origin must be the request's own, whatever
// Sec-Fetch-Site says; Remix's own check is then handed the URL's host.
import { describe, expect, it } from 'vitest'
import { isCsrfSafe, withOwnHost } from './security.server.ts'

const URL_ = 'http://school.localhost:6666/login'
const post = (headers: Record<string, string>) => new Request(URL_, { method: 'POST', headers })

describe('isCsrfSafe', () => {
  it('lets safe methods through', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(isCsrfSafe(new Request(URL_, { method, headers: { Origin: 'https://evil.example' } }))).toBe(true)
  })

  it('accepts a same-origin mutation by Fetch Metadata, with or without its own Origin', () => {
    expect(isCsrfSafe(post({ 'Sec-Fetch-Site': 'same-origin' }))).toBe(true)
    expect(isCsrfSafe(post({ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://school.localhost:6666' }))).toBe(true)
    expect(isCsrfSafe(post({ Origin: 'http://school.localhost:6666' }))).toBe(true)
  })

  it('refuses a foreign, "null", empty or malformed Origin even when Sec-Fetch-Site says same-origin', () => {
    for (const origin of ['https://evil.example', 'null', '', 'not a url', 'http://school.localhost', 'https://school.localhost:6666', 'http://other.localhost:6666', 'http://school.localhost:6666.evil.example', 'HTTP://SCHOOL.LOCALHOST:6666']) {
      expect(isCsrfSafe(post({ 'Sec-Fetch-Site': 'same-origin', Origin: origin })), origin).toBe(false)
      expect(isCsrfSafe(post({ Origin: origin })), origin).toBe(false)
    }
  })

  it('refuses cross-site and same-site Fetch Metadata, and a mutation with neither header', () => {
    for (const site of ['cross-site', 'same-site', 'none']) expect(isCsrfSafe(post({ 'Sec-Fetch-Site': site })), site).toBe(false)
    expect(isCsrfSafe(post({}))).toBe(false)
  })
})

describe('withOwnHost', () => {
  it('drops X-Forwarded-Host and sets Host to the URL’s host', () => {
    const crafted = withOwnHost(post({ 'X-Forwarded-Host': 'evil.example', Host: 'evil.example', 'Sec-Fetch-Site': 'same-origin' }))
    expect(crafted.headers.get('X-Forwarded-Host')).toBeNull()
    expect(crafted.headers.get('Host')).toBe('school.localhost:6666')
    expect(crafted.headers.get('Sec-Fetch-Site')).toBe('same-origin')
    expect(crafted.method).toBe('POST')
  })

  it('keeps the very request when there is nothing to change', () => {
    const request = post({ Host: 'school.localhost:6666' })
    expect(withOwnHost(request)).toBe(request)
  })
})
