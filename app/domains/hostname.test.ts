import { describe, expect, it } from 'vitest'
import { checkCustomHostname } from './hostname.ts'

const check = (h: string) => checkCustomHostname(h, 'coursefront.com')

describe('checkCustomHostname', () => {
  it('normalises good names and tells apex from subdomain', () => {
    expect(check('  Kurs.Example-School.TEST. ')).toEqual({ ok: true, hostname: 'kurs.example-school.test', apex: false })
    expect(check('example.com')).toEqual({ ok: true, hostname: 'example.com', apex: true })
    expect(check('xn--zkoa-1qa.pl').ok).toBe(true)
  })

  it.each([
    ['', 'validation.required'],
    ['http://x', 'domains.error.not_a_hostname'],
    ['https://kurs.example.com/path', 'domains.error.not_a_hostname'],
    ['kurs.example.com:8080', 'domains.error.not_a_hostname'],
    ['a..b', 'domains.error.invalid'],
    ['-bad.example.com', 'domains.error.invalid'],
    ['localhost', 'domains.error.invalid'],
    [`${'a'.repeat(63)}.`.repeat(5) + 'com', 'domains.error.too_long'],
    ['a'.repeat(300), 'domains.error.too_long'],
    ['szkoła.pl', 'domains.error.unicode'],
    ['192.168.0.1', 'domains.error.ip'],
    ['coursefront.com', 'domains.error.platform'],
    ['kasia.coursefront.com', 'domains.error.platform'],
    ['<script>.com', 'domains.error.invalid'],
  ])('refuses %j with %s', (input, error) => {
    expect(check(input)).toEqual({ ok: false, error })
  })
})
