import { describe, expect, it } from 'vitest'
import { attemptsLeft, buildLayout, decide, gradeAnswers, isChoiceRight, isPastDeadline, percentOf, publicQuestions, readAnswers, SUBMIT_GRACE_MS, type GradableQuestion } from './grading.ts'

const single: GradableQuestion = {
  id: 'q1',
  kind: 'single',
  prompt: 'Capital of Poland?',
  points: 2,
  options: [
    { id: 'a', text: 'Kraków', correct: false },
    { id: 'b', text: 'Warszawa', correct: true },
    { id: 'c', text: 'Gdańsk', correct: false },
  ],
}
const multiple: GradableQuestion = {
  id: 'q2',
  kind: 'multiple',
  prompt: 'Prime numbers?',
  points: 3,
  options: [
    { id: 'x', text: '2', correct: true },
    { id: 'y', text: '4', correct: false },
    { id: 'z', text: '5', correct: true },
  ],
}
const text: GradableQuestion = { id: 'q3', kind: 'text', prompt: 'Explain', points: 5, options: [] }
const all = [single, multiple, text]

describe('exam grading', () => {
  it('single choice: right only when the one chosen option is correct', () => {
    expect(isChoiceRight(single, ['b'])).toBe(true)
    expect(isChoiceRight(single, ['a'])).toBe(false)
    expect(isChoiceRight(single, [])).toBe(false)
    expect(isChoiceRight(single, ['b', 'a'])).toBe(false)
  })

  it('multiple choice: right only when every box matches (as the quiz)', () => {
    expect(isChoiceRight(multiple, ['x', 'z'])).toBe(true)
    expect(isChoiceRight(multiple, ['x'])).toBe(false)
    expect(isChoiceRight(multiple, ['x', 'y', 'z'])).toBe(false)
    expect(isChoiceRight(multiple, [])).toBe(false)
  })

  it('text answers wait for the owner; empty text is 0; owner points are clamped', () => {
    const pending = gradeAnswers(all, { q1: ['b'], q2: ['x'], q3: 'Because' })
    expect(pending).toEqual({ grades: { q1: 2, q2: 0 }, pending: ['q3'], score: 2, maxScore: 10 })
    expect(decide(pending, 50)).toBe('pending_review')
    const empty = gradeAnswers(all, { q1: ['b'], q2: ['x', 'z'] })
    expect(empty).toMatchObject({ grades: { q1: 2, q2: 3, q3: 0 }, pending: [], score: 5 })
    expect(decide(empty, 50)).toBe('passed')
    expect(decide(empty, 51)).toBe('failed')
    const owner = gradeAnswers(all, { q1: ['a'], q2: [], q3: 'x' }, { q3: 99 })
    expect(owner).toMatchObject({ grades: { q1: 0, q2: 0, q3: 5 }, score: 5, pending: [] })
  })

  it('pass mark: score × 100 ≥ pass% × max; percent rounds down; no points never passes', () => {
    expect(decide({ grades: {}, pending: [], score: 3, maxScore: 5 }, 60)).toBe('passed')
    expect(decide({ grades: {}, pending: [], score: 2, maxScore: 5 }, 60)).toBe('failed')
    expect(decide({ grades: {}, pending: [], score: 0, maxScore: 0 }, 0)).toBe('failed')
    expect(percentOf(2, 3)).toBe(66)
  })

  it('shuffled layout keeps every question and option; the public view has no key', () => {
    let seed = 7
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const layout = buildLayout(all, { shuffleQuestions: true, shuffleAnswers: true }, random)
    expect(layout.questions.map((q) => q.id).sort()).toEqual(['q1', 'q2', 'q3'])
    expect(layout.questions.find((q) => q.id === 'q1')!.options.sort()).toEqual(['a', 'b', 'c'])
    const view = publicQuestions(all, layout)
    expect(view.map((q) => q.id)).toEqual(layout.questions.map((q) => q.id))
    expect(JSON.stringify(view)).not.toContain('correct')
    for (const q of view) for (const o of q.options) expect(Object.keys(o).sort()).toEqual(['id', 'text'])
    const plain = buildLayout(all, { shuffleQuestions: false, shuffleAnswers: false })
    expect(plain.questions).toEqual([
      { id: 'q1', options: ['a', 'b', 'c'] },
      { id: 'q2', options: ['x', 'y', 'z'] },
      { id: 'q3', options: [] },
    ])
  })

  it('reads answers: unknown option ids dropped, single keeps one, text trimmed', () => {
    const form: Record<string, string[]> = { q_q1: ['b', 'a'], q_q2: ['x', 'evil', 'z', 'x'], q_q3: ['  hello\r\nworld  '] }
    expect(readAnswers(all, (name) => form[name] ?? [])).toEqual({ q1: ['b'], q2: ['x', 'z'], q3: 'hello\nworld' })
  })

  it('attempt limit and deadline grace', () => {
    expect(attemptsLeft(0, 10)).toBeNull()
    expect(attemptsLeft(2, 1)).toBe(1)
    expect(attemptsLeft(2, 3)).toBe(0)
    expect(isPastDeadline(null, Date.now())).toBe(false)
    expect(isPastDeadline(1000, 1000 + SUBMIT_GRACE_MS)).toBe(false)
    expect(isPastDeadline(1000, 1001 + SUBMIT_GRACE_MS)).toBe(true)
  })
})
