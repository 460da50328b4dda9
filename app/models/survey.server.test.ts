import { describe, expect, it } from 'vitest'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import {
  createSurvey,
  getActiveSurveyId,
  getRespondedAt,
  kebabCase,
  listSurveyResponses,
  listSurveys,
  parseQuestions,
  QuestionsSchema,
  saveSurveyResponse,
  setSurveyActive,
  SurveyInputSchema,
  validateResponse,
  type SurveyQuestion,
} from './survey.server.ts'

const QUESTIONS: SurveyQuestion[] = [
  { type: 'separator', title: '**About you**' },
  { type: 'text', inputType: 'radio', title: 'How likely are you to recommend us?', placeholder: '', required: true, options: [{ label: 'Very', value: 'very' }, { label: 'No', value: 'no' }] },
  { type: 'textarea', title: 'What should we teach next?', placeholder: '', required: false },
  { type: 'select', title: 'Your level', placeholder: 'Pick one', required: true, options: [{ label: 'Beginner', value: 'beginner' }] },
  { type: 'checkbox_group', title: 'Topics', required: true, options: [{ label: 'JS', value: 'js' }, { label: 'CSS', value: 'css' }] },
  { type: 'text', inputType: 'checkbox', title: 'I agree to be contacted', placeholder: '', required: false, options: [] },
]

describe('survey questions', () => {
  it('keys answers by the kebab-case title', () => {
    expect(kebabCase('How likely are you to recommend us?')).toBe('how-likely-are-you-to-recommend-us')
    expect(kebabCase('  Twój poziom — zaawansowany / Łódź ')).toBe('twoj-poziom-zaawansowany-lodz')
    expect(kebabCase('firstName')).toBe('first-name')
  })

  it('validates every question type and refuses options-less choices and duplicate keys', () => {
    expect(QuestionsSchema.safeParse(QUESTIONS).success).toBe(true)
    expect(QuestionsSchema.safeParse([{ type: 'select', title: 'Pick', options: [] }]).success).toBe(false)
    expect(QuestionsSchema.safeParse([{ type: 'text', inputType: 'radio', title: 'Pick' }]).success).toBe(false)
    expect(QuestionsSchema.safeParse([{ type: 'text', title: 'Name?' }, { type: 'textarea', title: 'name' }]).success).toBe(false)
    expect(QuestionsSchema.safeParse([{ type: 'video', title: 'x' }]).success).toBe(false)
    const form = SurveyInputSchema.safeParse({ title: ' T ', description: '', questions: '{broken' })
    expect(form.success).toBe(false)
    // Stored rows that no longer validate are dropped, not crash.
    expect(parseQuestions(JSON.stringify([QUESTIONS[2], { type: 'nope' }]))).toEqual([QUESTIONS[2]])
    expect(parseQuestions('not json')).toEqual([])
  })

  it('checks required answers, offered choices and unknown keys; keeps only known answers', () => {
    const missing = validateResponse(QUESTIONS, { 'what-should-we-teach-next': 'Rust' })
    expect(missing).toEqual({
      ok: false,
      errors: { 'how-likely-are-you-to-recommend-us': ['validation.required'], 'your-level': ['validation.required'], topics: ['validation.required'] },
    })
    const wrong = validateResponse(QUESTIONS, { 'how-likely-are-you-to-recommend-us': 'maybe', 'your-level': 'beginner', topics: ['js', 'php'], extra: 'x' })
    expect(wrong.ok).toBe(false)
    if (!wrong.ok) expect(wrong.errors).toEqual({ 'how-likely-are-you-to-recommend-us': ['validation.in'], topics: ['validation.in'], extra: ['engagement.survey.error.unknown'] })
    const good = validateResponse(QUESTIONS, { 'how-likely-are-you-to-recommend-us': 'very', 'your-level': 'beginner', topics: ['css', 'js', 'css'], 'i-agree-to-be-contacted': true })
    expect(good).toEqual({ ok: true, response: { 'how-likely-are-you-to-recommend-us': 'very', 'what-should-we-teach-next': '', 'your-level': 'beginner', topics: ['css', 'js'], 'i-agree-to-be-contacted': true } })
    const long = validateResponse([QUESTIONS[2]], { 'what-should-we-teach-next': 'x'.repeat(2001) })
    expect(long.ok).toBe(false)
  })
})

describe('survey storage', () => {
  it('keeps one active survey per school and one response per user; never crosses schools', async () => {
    const school = await createTestSchool()
    const other = await createTestSchool()
    const a = await createSurvey(db(), school.tenantId, { title: 'A', questions: QUESTIONS })
    const b = await createSurvey(db(), school.tenantId, { title: 'B', questions: QUESTIONS })
    expect(await getActiveSurveyId(db(), school.tenantId)).toBeNull()
    expect(await setSurveyActive(db(), school.tenantId, a.id, true)).toBe(true)
    expect(await setSurveyActive(db(), school.tenantId, b.id, true)).toBe(true)
    expect(await getActiveSurveyId(db(), school.tenantId)).toBe(b.id)
    expect((await listSurveys(db(), school.tenantId)).filter((s) => s.active).map((s) => s.id)).toEqual([b.id])
    // Another school cannot switch this school's survey.
    expect(await setSurveyActive(db(), other.tenantId, a.id, true)).toBe(false)
    expect(await getActiveSurveyId(db(), other.tenantId)).toBeNull()

    const student = await createTestStudent(school.tenantId)
    expect(await saveSurveyResponse(db(), school.tenantId, b.id, student.id, { topics: ['js'] }, 1_800_000_000_000)).toBe('saved')
    expect(await saveSurveyResponse(db(), school.tenantId, b.id, student.id, { topics: ['css'] })).toBe('already')
    expect(await getRespondedAt(db(), school.tenantId, b.id, student.id)).toBe(1_800_000_000_000)
    expect(await getRespondedAt(db(), other.tenantId, b.id, student.id)).toBeNull()
    const responses = await listSurveyResponses(db(), school.tenantId, b.id)
    expect(responses).toHaveLength(1)
    expect(responses[0]).toMatchObject({ email: student.email, answers: { topics: ['js'] } })
    expect(await listSurveyResponses(db(), other.tenantId, b.id)).toEqual([])
    expect((await listSurveys(db(), school.tenantId)).find((s) => s.id === b.id)).toMatchObject({ responses: 1, questionCount: 5 })
  })
})
