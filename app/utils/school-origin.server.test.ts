// Issue 19 §6: the origin of e-mailed links comes from configuration, never from the request.
import { describe, expect, it } from 'vitest'
import { deploymentPort, deploymentProtocol, emailUrl, originForHost, primaryHost } from './school-origin.server.ts'

describe('originForHost', () => {
  it('production (and any unknown ENVIRONMENT): https, no port, whatever PUBLIC_PORT says', () => {
    for (const ENVIRONMENT of ['production', 'staging', 'prod', '', 'Development']) {
      expect(originForHost({ ENVIRONMENT, PUBLIC_PORT: '6666' }, 'kurs.example.com'), ENVIRONMENT).toBe('https://kurs.example.com')
      expect(deploymentProtocol({ ENVIRONMENT })).toBe('https:')
    }
  })

  it('development and tests: http and the configured port of the local stack, if any', () => {
    expect(originForHost({ ENVIRONMENT: 'development', PUBLIC_PORT: '8787' }, 'ada.localhost')).toBe('http://ada.localhost:8787')
    expect(originForHost({ ENVIRONMENT: 'test' }, 'ada.localhost')).toBe('http://ada.localhost')
    for (const PUBLIC_PORT of ['', '0', '65536', '80a', ' 8787', '-1', '8787/evil', '@evil.example']) expect(deploymentPort({ ENVIRONMENT: 'development', PUBLIC_PORT }), PUBLIC_PORT).toBe('')
  })

  it('refuses anything that is not a plain host name (a port, a path, credentials, control characters)', () => {
    for (const host of ['ada.localhost:6666', 'evil.example/x', 'user@evil.example', 'a b.example', 'ada.localhost\r\nX: y', '', '.', 'a..b']) expect(() => originForHost({ ENVIRONMENT: 'production' }, host), JSON.stringify(host)).toThrow()
    expect(originForHost({ ENVIRONMENT: 'production' }, 'Kurs.Example.COM.')).toBe('https://kurs.example.com')
  })
})

describe('primaryHost and emailUrl', () => {
  it('the active primary domain, else the platform subdomain', () => {
    expect(primaryHost({ PLATFORM_HOST: 'coursefront.com' }, { slug: 'ada', primaryHostname: 'kurs.ada.pl' })).toBe('kurs.ada.pl')
    expect(primaryHost({ PLATFORM_HOST: 'coursefront.com' }, { slug: 'ada', primaryHostname: null })).toBe('ada.coursefront.com')
  })

  it('puts only paths on the origin', () => {
    expect(emailUrl('https://ada.coursefront.com', '/reset-password/abc')).toBe('https://ada.coursefront.com/reset-password/abc')
    for (const path of ['//evil.example/x', 'https://evil.example/', 'reset']) expect(() => emailUrl('https://ada.coursefront.com', path), path).toThrow()
  })
})
