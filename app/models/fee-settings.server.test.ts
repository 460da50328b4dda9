import { describe, expect, it } from 'vitest'
import { parsePercent } from './fee-settings.server.ts'

describe('parsePercent', () => {
  it('reads a percentage with up to two decimals as basis points; empty is the default', () => {
    expect(parsePercent('')).toEqual({ ok: true, value: null })
    expect(parsePercent(' 5 ')).toEqual({ ok: true, value: 500 })
    expect(parsePercent('2.5')).toEqual({ ok: true, value: 250 })
    expect(parsePercent('2,75')).toEqual({ ok: true, value: 275 })
    expect(parsePercent('0')).toEqual({ ok: true, value: 0 })
    expect(parsePercent('50')).toEqual({ ok: true, value: 5000 })
  })
  it('refuses more than 50 %, three decimals, signs and words', () => {
    for (const bad of ['50.01', '100', '1.234', '-1', 'five', '5%', '1e2']) expect(parsePercent(bad), bad).toEqual({ ok: false })
  })
})
