// Exams (issue 24 item 1) in Chromium: the owner of a new school builds an exam in the course
// builder (a lecture of type "Exam", two choice questions, 2 attempts, pass mark 100 %), is refused
// a single-choice question with two right answers; a buyer fails the exam, retries within the limit
// and passes, and the exam lecture shows as completed; the owner sees the results. A Polish school's
// owner sees the exams screen in Polish.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import {
  browserTest,
  buyAsNewVisitor,
  checkA11y,
  demoSchool,
  demoUser,
  expectText,
  expectUrl,
  fieldError,
  heading,
  logIn,
  newSchool,
  publishPaidCourse,
  signUp,
  snap,
  subdomain,
  unique,
  url,
  visit,
} from './support.ts'

const done = (page: Page, kind: string) => page.locator(`[data-done="${kind}"]`)

async function addQuestion(page: Page, q: { kind: 'single' | 'multiple'; prompt: string; options: Array<[string, boolean]> }) {
  const form = page.locator('form[data-question-form="new"]')
  await form.locator('[name="kind"]').selectOption(q.kind)
  await form.locator('[name="prompt"]').fill(q.prompt)
  for (const [i, [text, correct]] of q.options.entries()) {
    await form.locator(`[name="option${i}"]`).fill(text)
    if (correct) await form.locator(`[name="correct${i}"]`).check()
  }
  await form.getByRole('button', { name: 'Add question' }).click()
}

/** Answers the running attempt: the options whose label is in `chosen`, per question. */
async function answer(page: Page, chosen: string[]) {
  const attempt = page.locator('form[data-exam-attempt]')
  await attempt.waitFor()
  for (const text of chosen)
    await attempt
      .locator('label', { hasText: new RegExp(`^${text}$`) })
      .locator('input')
      .check()
  await checkA11y(page, true)
  await attempt.getByRole('button', { name: 'Submit answers' }).click()
}

browserTest('the owner builds an exam; a student fails, retries within the limit, passes; the lecture shows completed', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  const slug = await publishPaidCourse(page, host, unique('Geography'), '19')
  const courseId = new URL(page.url()).pathname.split('/').pop()!

  // The course builder: a published lecture of type "Exam" opens the exam's page.
  await visit(page, url(host, `/home/courses/${courseId}/sections`))
  await page.getByRole('link', { name: 'Add lecture to Start' }).click()
  await page.waitForURL(/\/lectures\/create$/)
  await page.getByLabel('Title', { exact: true }).fill('Final exam')
  await page.getByLabel('Type', { exact: true }).selectOption('exam')
  await page.locator('input[name="published"]').check()
  await page.getByRole('button', { name: 'Create lecture' }).click()
  await page.waitForURL(/\/home\/exams\/[a-z2-7]+$/)
  await expectText(done(page, 'created'), 'Exam created')
  const examPath = new URL(page.url()).pathname
  await checkA11y(page, true)

  await page.getByLabel('Pass mark (%)').fill('100')
  await page.getByLabel('Attempts allowed').fill('2')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expectText(done(page, 'saved'), 'Settings saved')
  assert.equal(await page.getByLabel('Attempts allowed').inputValue(), '2')

  // A single-choice question with two right answers is refused, nothing written.
  await addQuestion(page, {
    kind: 'single',
    prompt: 'Capital of Poland?',
    options: [
      ['Kraków', true],
      ['Warszawa', true],
    ],
  })
  await expectText(fieldError(page, 'options'), 'A single-choice question has exactly one correct answer.')
  assert.equal(await page.locator('[data-question]').count(), 0)
  await page.locator('form[data-question-form="new"] [name="correct0"]').uncheck()
  await page.locator('form[data-question-form="new"]').getByRole('button', { name: 'Add question' }).click()
  await expectText(done(page, 'saved'), 'Question added')
  await page.locator('[data-question]').first().waitFor()
  await addQuestion(page, {
    kind: 'multiple',
    prompt: 'Even numbers?',
    options: [
      ['Two', true],
      ['Three', false],
      ['Six', true],
    ],
  })
  await page.locator('[data-question]').nth(1).waitFor()
  await expectText(done(page, 'saved'), 'Question added')
  await snap(page, 'exam-editor')
  const watchHref = await page.getByRole('link', { name: 'Preview as a student' }).getAttribute('href')
  const lectureId = watchHref!.split('/').pop()!

  // A buyer takes the exam: a wrong answer fails the first attempt.
  const student = await (await newContext()).newPage()
  const email = `${unique('taker')}@example.com`
  await buyAsNewVisitor(student, host, slug, { name: 'Tess Taker', email, password: 'taker-pass-123' }, 'en')
  await visit(student, url(host, `/${slug}/watch/${lectureId}`))
  await expectText(student.locator('[data-exam-intro]'), '2 questions')
  await expectText(student.locator('[data-exam-attempts-left]'), '2 attempts left')
  assert.equal(await student.locator('[data-complete-toggle]').count(), 0, 'no "mark as complete" on an exam')
  await student.getByRole('button', { name: 'Start attempt' }).click()
  await answer(student, ['Warszawa', 'Two'])
  await expectText(student.locator('[data-exam-result]'), 'Failed')
  await expectText(student.locator('[data-exam-score]'), '1 of 2 points (50%)')
  await expectText(student.locator('[data-exam-attempts-left]'), '1 attempt left')
  await checkA11y(student, true)

  // The retry, right this time: passed, and the lecture is completed.
  await student.getByRole('button', { name: 'Start a new attempt' }).click()
  await answer(student, ['Warszawa', 'Two', 'Six'])
  await expectText(student.locator('[data-exam-result]'), 'Passed')
  await student.locator('[data-exam-completed]').waitFor()
  assert.equal(await student.locator(`[data-player-nav]:visible [data-nav-lecture="${lectureId}"]`).getAttribute('data-nav-completed'), 'true')
  await expectText(student.locator('[data-exam-no-attempts]'), 'You have used all your attempts')
  await snap(student, 'exam-passed')

  // The owner's results: two attempts, the last one passed.
  await visit(page, url(host, '/home/exams'))
  await expectText(page.locator('[data-exams] [data-attempts]').first(), '2')
  await visit(page, url(host, examPath))
  await expectText(page.locator(`[data-result-row="${email}"] [data-last-status="passed"]`), 'Passed')
})

browserTest('a Polish school sees the exams screen and the lecture type in Polish', async ({ page }) => {
  const school = demoSchool('akademia-kasi')
  const host = subdomain(school.slug)
  const owner = demoUser(school, 'owner')
  await logIn(page, host, owner.email, owner.password)
  await expectUrl(page, host, '/home')
  await visit(page, url(host, '/home/exams'))
  await expectText(heading(page), 'Egzaminy')
  await expectText(page.locator('main'), 'lekcję typu „Egzamin”')
  await visit(page, url(host, '/home/courses'))
  await page.locator('main a[href$="/sections"]').first().click()
  await page.waitForURL(/\/sections$/)
  await page.locator('main a[href$="/lectures/create"]').first().click()
  await page.waitForURL(/\/lectures\/create$/)
  await checkA11y(page, true)
  assert.ok((await page.getByLabel('Rodzaj', { exact: true }).locator('option').allTextContents()).includes('Egzamin'))
})
