import { describe, expect, it } from 'vitest'
import { formatMoney, formatMoneyInput, money, parseMoney } from './money.ts'

describe('parseMoney', () => {
  it('reads commas, dots, spaces and whole amounts as minor units', () => {
    expect(parseMoney('49,99')).toEqual({ ok: true, value: 4999 })
    expect(parseMoney('49.99')).toEqual({ ok: true, value: 4999 })
    expect(parseMoney('49')).toEqual({ ok: true, value: 4900 })
    expect(parseMoney('49,5')).toEqual({ ok: true, value: 4950 })
    expect(parseMoney('1 299,00')).toEqual({ ok: true, value: 129900 })
    expect(parseMoney('0')).toEqual({ ok: true, value: 0 })
  })
  it('refuses letters, negatives, 3 decimals and absurd amounts', () => {
    expect(parseMoney('abc')).toEqual({ ok: false, error: 'format' })
    expect(parseMoney('12zł')).toEqual({ ok: false, error: 'format' })
    expect(parseMoney('1,2,3')).toEqual({ ok: false, error: 'format' })
    expect(parseMoney('-5')).toEqual({ ok: false, error: 'negative' })
    expect(parseMoney('4.999')).toEqual({ ok: false, error: 'decimals' })
    expect(parseMoney('1000000.01')).toEqual({ ok: false, error: 'too_big' })
    expect(parseMoney('1e5')).toEqual({ ok: false, error: 'format' })
  })
  it('formats for the input and for display per locale', () => {
    expect(formatMoneyInput(4999, 'pl')).toBe('49,99')
    expect(formatMoneyInput(4905, 'en')).toBe('49.05')
    expect(formatMoneyInput(null, 'en')).toBe('')
    expect(formatMoney(4999, 'USD', 'en')).toBe('$49.99')
    expect(formatMoney(4999, 'PLN', 'pl').replace(/\s/g, ' ')).toBe('49,99 zł')
  })
  it('zod: errors are translation keys', () => {
    expect(money().safeParse('49,99')).toMatchObject({ success: true, data: 4999 })
    const bad = money().safeParse('-1')
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0]?.message).toContain('products.error.money_negative')
    expect(money().safeParse('')?.error?.issues[0]?.message).toContain('validation.required')
  })
})
