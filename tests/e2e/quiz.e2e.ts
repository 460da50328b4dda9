// The quiz lecture component (seed 000 widget 11) in Chromium: Sam answers the demo course's quiz
// wrong, then right (right only when every checkbox matches), and toggles the hint.
import assert from 'node:assert/strict'
import { browserTest, demoSchool, demoUser, expectText, logIn, snap, subdomain, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const sam = demoUser(school, 'student', 'sam@example.com')

browserTest('a quiz says wrong until every checkbox matches, and shows the hint on demand', async ({ page }) => {
  await logIn(page, host, sam.email, sam.password)
  await page.waitForURL(/\/panel|\/$/)
  await visit(page, url(host, '/javascript-foundations/watch'))
  await page.locator('[data-player-nav]:visible').getByRole('link', { name: 'Values and variables' }).click()
  const quiz = page.locator('[data-quiz]').first()
  await quiz.waitFor()
  await expectText(quiz.locator('[data-quiz-question]'), 'Which of these declare a variable that can be reassigned?')
  const result = quiz.locator('[data-quiz-result]')
  const answer = (text: string) => quiz.getByRole('checkbox', { name: text, exact: true })

  // Only one of the two right answers: wrong.
  await answer('let').check()
  await quiz.getByRole('button', { name: 'Check' }).click()
  await expectText(result, 'Wrong answer. Try again.')
  assert.equal(await result.getAttribute('data-quiz-result'), 'wrong')

  // Both right ones plus a wrong one: still wrong.
  await answer('var').check()
  await answer('const').check()
  await quiz.getByRole('button', { name: 'Check' }).click()
  await expectText(result, 'Wrong answer. Try again.')

  // Exactly the right ones: correct (with the keyboard this time).
  await answer('const').uncheck()
  await quiz.getByRole('button', { name: 'Check' }).focus()
  await page.keyboard.press('Enter')
  await expectText(result, 'Correct! Well done.')
  assert.equal(await result.getAttribute('data-quiz-result'), 'right')

  // The hint toggles the solution.
  const hint = quiz.locator('[data-quiz-hint]')
  assert.equal(await hint.isVisible(), false)
  await quiz.getByRole('button', { name: 'Show hint' }).click()
  await expectText(hint, 'const cannot')
  assert.equal(await quiz.getByRole('button', { name: 'Hide hint' }).getAttribute('aria-expanded'), 'true')
  await snap(page, 'quiz-hint')
  await quiz.getByRole('button', { name: 'Hide hint' }).click()
  assert.equal(await hint.isVisible(), false)
})
