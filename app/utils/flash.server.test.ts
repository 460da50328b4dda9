import { describe, expect, it } from 'vitest'
import { clearFlashCookie, flashCookie, readFlash, redirectWithFlash } from './flash.server.ts'

const on = (url: string, cookie?: string) => new Request(url, { headers: cookie ? { Cookie: cookie } : {} })
const pair = (setCookie: string) => setCookie.split(';')[0]!

describe('flash through a redirect cookie', () => {
  it('round-trips a message, HttpOnly and host-only, __Host- on https', () => {
    const http = on('http://school.localhost/home')
    const set = flashCookie(http, { done: 'created', message: 'promo.done.created', values: { code: 'SPRING' } })
    expect(set).toMatch(/^cf_flash=[^;]+; Path=\/; SameSite=Lax; HttpOnly; Max-Age=60$/)
    expect(readFlash(on('http://school.localhost/home', pair(set)))).toEqual({ done: 'created', message: 'promo.done.created', values: { code: 'SPRING' } })
    const https = on('https://school.example/home')
    expect(flashCookie(https, { done: 'saved', message: 'products.done.saved' })).toMatch(/^__Host-cf_flash=.*; Secure; Max-Age=60$/)
    expect(clearFlashCookie(https)).toMatch(/^__Host-cf_flash=; .*Max-Age=0$/)
  })

  it('ignores a forged or broken cookie instead of failing the page', () => {
    const forge = (value: unknown) => `cf_flash=${encodeURIComponent(btoa(JSON.stringify(value)))}`
    expect(readFlash(on('http://s.localhost/', forge({ done: 'x', message: '<script>alert(1)</script>' })))).toBeNull()
    expect(readFlash(on('http://s.localhost/', forge({ done: 'Not Allowed!', message: 'promo.done.created' })))).toBeNull()
    expect(readFlash(on('http://s.localhost/', forge({ done: 'x', message: 'promo.done.created', tone: 'error' })))).toBeNull()
    expect(readFlash(on('http://s.localhost/', 'cf_flash=%%%not-base64'))).toBeNull()
    expect(readFlash(on('http://s.localhost/', 'cf_flash=bm90IGpzb24='))).toBeNull()
    expect(readFlash(on('http://s.localhost/'))).toBeNull()
  })

  it('redirects with the cookie (302 like Remix unless told otherwise)', () => {
    const res = redirectWithFlash(on('http://s.localhost/home/promo-codes'), '/home/promo-codes', { done: 'deleted', message: 'promo.done.deleted' }, { status: 303 })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/home/promo-codes')
    expect(res.headers.getSetCookie()).toHaveLength(1)
    expect(redirectWithFlash(on('http://s.localhost/'), '/', { done: 'saved', message: 'products.done.saved' }).status).toBe(302)
  })
})
