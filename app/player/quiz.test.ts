import { describe, expect, it } from 'vitest'
import { isQuizRight } from './quiz.ts'

const answers = [{ correct: true }, { correct: false }, { correct: true }]

describe('isQuizRight', () => {
  it('is right only when every checkbox matches its correct flag', () => {
    expect(isQuizRight(answers, [true, false, true])).toBe(true)
    expect(isQuizRight(answers, [true, false, false])).toBe(false)
    expect(isQuizRight(answers, [true, true, true])).toBe(false)
    expect(isQuizRight(answers, [false, false, false])).toBe(false)
  })
  it('treats missing boxes as unchecked, and a quiz without answers is never right', () => {
    expect(isQuizRight([{ correct: false }, { correct: true }], [false, true])).toBe(true)
    expect(isQuizRight([{ correct: false }, { correct: true }], [])).toBe(false)
    expect(isQuizRight([{ correct: false }], [])).toBe(true)
    expect(isQuizRight([], [])).toBe(false)
  })
})
