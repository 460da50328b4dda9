import { describe, expect, it } from 'vitest'
import { negotiateLocale, translate } from './i18n.ts'
import { messages } from './messages/index.ts'
import { PAYMENT_PROVIDERS } from '#app/db/schema.server.ts'

const PLURAL = /_(one|few|many|other)$/
const baseKeys = (catalogue: Record<string, string>) => new Set(Object.keys(catalogue).map((k) => k.replace(PLURAL, '')))

describe('catalogues', () => {
  it('has every English message in Polish and no Polish-only keys', () => {
    const en = baseKeys(messages.en)
    const pl = baseKeys(messages.pl)
    expect([...en].filter((k) => !pl.has(k))).toEqual([])
    expect([...pl].filter((k) => !en.has(k))).toEqual([])
  })

  it('gives every Polish plural all four CLDR forms and every English plural one/other', () => {
    const plurals = new Set(Object.keys(messages.en).filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')))
    expect(plurals.size).toBeGreaterThan(3)
    for (const key of plurals) {
      for (const form of ['one', 'few', 'many', 'other']) expect(messages.pl, `${key}_${form}`).toHaveProperty(`${key}_${form}`)
      for (const form of ['one', 'other']) expect(messages.en, `${key}_${form}`).toHaveProperty(`${key}_${form}`)
    }
  })

  it('keeps the same placeholders in both languages', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const [key, en] of Object.entries(messages.en)) {
      const base = key.replace(PLURAL, '')
      const pl = (messages.pl as Record<string, string>)[key] ?? (messages.pl as Record<string, string>)[`${base}_other`]
      expect(placeholders(pl), key).toEqual(placeholders(en))
    }
  })

  it('names every payment provider in both languages (the sales tables and the transaction page show it)', () => {
    for (const provider of PAYMENT_PROVIDERS) {
      expect(messages.en, provider).toHaveProperty(`money.provider.${provider}`)
      expect(messages.pl, provider).toHaveProperty(`money.provider.${provider}`)
    }
  })
})

describe('translate', () => {
  it('picks Polish plural forms by count', () => {
    const t = (count: number) => translate('pl', 'auth.login.throttled', { count })
    expect(t(1)).toContain('1 sekundę')
    expect(t(2)).toContain('2 sekundy')
    expect(t(5)).toContain('5 sekund')
    expect(t(22)).toContain('22 sekundy')
    expect(t(25)).toContain('25 sekund')
    expect(translate('en', 'auth.login.throttled', { count: 60 })).toBe('Too many login attempts. Please try again in 60 seconds.')
  })

  it('writes fractions in the page language', () => {
    expect(translate('pl', 'school.home.welcome', { name: 0.6 })).toBe('Witamy w 0,6')
    expect(translate('en', 'school.home.welcome', { name: 0.6 })).toBe('Witamy w 0.6'.replace('Witamy w', 'Welcome to'))
  })

  it('fills values and falls back to the key when a message is missing', () => {
    expect(translate('pl', 'school.home.welcome', { name: 'Akademia Kasi' })).toBe('Witamy w Akademia Kasi')
    expect(translate('en', 'no.such.key')).toBe('no.such.key')
  })
})

describe('negotiateLocale', () => {
  it('takes the best supported language by quality', () => {
    expect(negotiateLocale('pl-PL,pl;q=0.9,en;q=0.8')).toBe('pl')
    expect(negotiateLocale('de-DE, en;q=0.5, pl;q=0.7')).toBe('pl')
    expect(negotiateLocale('fr, de')).toBe('en')
    expect(negotiateLocale(null)).toBe('en')
    expect(negotiateLocale('pl;q=0')).toBe('en')
  })
})
