// Memberships, the student's side (issue 8 item 6) in Chromium: a visitor buys the Polish school's
// monthly club through the test provider, sees it in /panel, updates the card through the encrypted
// card form (brand detection, field states, the cypher), cancels (type CANCEL) and answers the exit
// survey (field errors first), and sees the membership canceled with access until the period end.
// The cancel and the survey also work without JavaScript (plain forms).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, buyAsNewVisitor, demoSchool, expectText, snap, subdomain, unique, url, visit } from './support.ts'

const kasi = demoSchool('akademia-kasi')
const KASI = subdomain(kasi.slug)
const CLUB = 'klub-akademii-kasi'

/** A new visitor buys the club at checkout (registering there) and pays with the test provider. */
async function buyClub(page: Page, who: string) {
  await buyAsNewVisitor(page, KASI, CLUB, { name: who, email: `${unique(who.toLowerCase().replace(/\W+/g, '-'))}@example.com`, password: 'klub-pass-12' }, 'pl')
}

browserTest('a student buys the club, updates the card, cancels with the exit survey and sees it canceled', async ({ page }) => {
  await buyClub(page, 'Marta Klubowa')
  await visit(page, url(KASI, '/panel'))
  const card = page.locator(`[data-panel-membership="${CLUB}"]`)
  const billing = card.locator('[data-membership-billing]')
  await billing.waitFor()
  assert.equal(await billing.getAttribute('data-membership-status'), 'active')
  await expectText(billing.locator('[data-membership-renews]'), /^Odnawia się /)

  // Card update: brand detection, field states, then the encrypted save.
  await billing.locator('[data-membership-update-card]').click()
  const form = page.locator('[data-card-modal] [data-card-form]')
  await form.waitFor()
  const number = form.locator('[data-card-number]')
  // The fields are enabled once the form's effect has run; click waits for that, typing does not.
  await number.click()
  await number.pressSequentially('378282246310005')
  assert.equal(await number.inputValue(), '3782 822463 10005')
  await expectText(form.locator('[data-card-brand]'), 'American Express')
  assert.equal(await form.locator('[data-card-cvv]').getAttribute('maxlength'), '4')
  await number.fill('')
  await number.pressSequentially('5555555555554445')
  assert.equal(await number.getAttribute('data-state'), 'invalid')
  await expectText(form.locator('[data-card-field-error]').first(), 'Błędny numer karty')
  // Saving with a field missing: the seed's message, nothing sent.
  await form.locator('[data-card-save]').click()
  await expectText(form.locator('[data-card-errors]'), 'Sprawdź dane karty.')
  await number.fill('')
  await number.pressSequentially('4242424242424242')
  assert.equal(await number.getAttribute('data-state'), 'valid')
  await expectText(form.locator('[data-card-brand]'), 'Visa')
  const thisYear = new Date().getUTCFullYear()
  // Year options: this year and the next 11.
  const years = await form.locator('[data-card-year] option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean))
  assert.deepEqual(years, Array.from({ length: 12 }, (_, i) => String(thisYear + i)))
  await form.locator('[data-card-year]').selectOption(String(thisYear + 2))
  await form.locator('[data-card-month]').selectOption('07')
  await form.locator('[data-card-cvv]').fill('321')
  assert.equal(await form.locator('[data-card-cvv]').getAttribute('data-state'), 'valid')
  await snap(page, 'membership-card-form')
  // The raw number never leaves the page: only the cypher is posted.
  const posted = page.waitForRequest((r) => r.url().endsWith('/my/membership/card') && r.method() === 'POST')
  await form.locator('[data-card-save]').click()
  const body = (await posted).postData() ?? ''
  assert.match(body, /cypher=v1\./)
  assert.doesNotMatch(body, /4242/)
  await page.waitForURL(/membership_notice=card_updated/)
  await expectText(page.locator(`[data-panel-membership="${CLUB}"] [data-membership-card]`), `Visa •••• 4242, ważna do 07/${thisYear + 2}`)
  await expectText(page.getByRole('status').filter({ hasText: 'Karta' }), 'Karta została zaktualizowana.')

  // Cancel: confirmation with CANCEL typed, then the exit survey.
  await page.locator(`[data-panel-membership="${CLUB}"] [data-membership-cancel]`).click()
  const confirm = page.locator('[data-cancel-modal]')
  await confirm.locator('[data-cancel-confirm-input]').waitFor()
  assert.equal(await confirm.locator('[data-cancel-confirm]').isDisabled(), true)
  await confirm.locator('[data-cancel-confirm-input]').fill('CANCEL')
  await confirm.locator('[data-cancel-confirm]').click()
  const survey = page.locator('[data-survey-modal] [data-cancel-survey]')
  await survey.waitFor()
  // Nothing chosen: both errors; the button is unlocked at once after an error.
  await survey.locator('[data-survey-submit]').click()
  await expectText(survey.locator('[data-survey-error="reason"]'), 'Wybierz powód.')
  await expectText(survey.locator('[data-survey-error="return_intent"]'), 'Wybierz odpowiedź.')
  assert.equal(await survey.locator('[data-survey-submit]').isDisabled(), false)
  await survey.locator('[data-survey-reason="other"]').check()
  await survey.locator('[data-survey-return="maybe_return"]').check()
  await survey.locator('[data-survey-other]').fill('abc')
  await survey.locator('[data-survey-submit]').click()
  await expectText(survey.locator('[data-survey-error="other_reason"]'), 'Wyjaśnij w co najmniej 4 znakach.')
  await survey.locator('[data-survey-other]').fill('Przechodzę na roczny plan gdzie indziej')
  await survey.locator('[data-survey-submit]').click()
  await expectText(page.locator('[data-survey-modal] [data-cancel-survey-done]'), 'Dziękujemy za odpowiedź.')
  await snap(page, 'membership-survey-done')
  // Closing the survey reloads the page: the membership shows canceled with access until the period end.
  await Promise.all([page.waitForURL(url(KASI, '/panel') + '#membership-*'), page.locator('[data-survey-modal] [data-survey-close]').click()])
  const after = page.locator(`[data-panel-membership="${CLUB}"] [data-membership-billing]`)
  await after.waitFor()
  assert.equal(await after.getAttribute('data-membership-status'), 'canceled')
  await expectText(after.locator('[data-membership-access-until]'), /^Dostęp do /)
  assert.equal(await after.locator('[data-membership-cancel]').count(), 0)
  // The notices of earlier answers are gone after the reload.
  assert.equal(await after.getByRole('status').count(), 0)
  await snap(page, 'membership-canceled')
})

browserTest(
  'without JavaScript the cancel and the exit survey are plain forms; the card form says it needs JavaScript',
  async ({ page }) => {
    await buyClub(page, 'Piotr Bez Skryptu')
    await visit(page, url(KASI, '/panel'))
    const card = page.locator(`[data-panel-membership="${CLUB}"]`)
    await card.locator('[data-membership-billing]').waitFor()
    assert.equal(await card.locator('[data-membership-update-card]').isDisabled(), true)
    // The note lives in <noscript> (shown only without JavaScript).
    assert.match((await card.locator('[data-card-nojs]').textContent()) ?? '', /^Zmiana karty wymaga JavaScriptu: dane karty są szyfrowane w przeglądarce/)
    assert.equal(await card.locator('[data-card-nojs]').isVisible(), true)
    const details = card.locator('[data-membership-cancel-nojs]')
    await details.locator('summary').click()
    await details.locator('[name="confirm"]').fill('cancel')
    await details.locator('button[type="submit"]').click()
    await expectText(page.getByRole('alert').filter({ hasText: 'CANCEL' }), 'Wpisz CANCEL, aby potwierdzić.')
    await page.locator(`[data-panel-membership="${CLUB}"] [data-membership-cancel-nojs] summary`).click()
    await page.locator(`[data-panel-membership="${CLUB}"] [data-membership-cancel-nojs] [name="confirm"]`).fill('CANCEL')
    await page.locator(`[data-panel-membership="${CLUB}"] [data-membership-cancel-nojs] button[type="submit"]`).click()
    await page.waitForURL(/cancel_survey=/)
    const survey = page.locator(`[data-panel-membership="${CLUB}"] [data-cancel-survey]`)
    await survey.locator('[data-survey-reason="technical"]').check()
    await survey.locator('[data-survey-submit]').click()
    await expectText(page.locator(`[data-panel-membership="${CLUB}"] [data-survey-error="other_reason"]`), 'Wyjaśnij w co najmniej 4 znakach.')
    await expectText(page.locator(`[data-panel-membership="${CLUB}"] [data-survey-error="return_intent"]`), 'Wybierz odpowiedź.')
    const again = page.locator(`[data-panel-membership="${CLUB}"] [data-cancel-survey]`)
    await again.locator('[data-survey-reason="no_time"]').check()
    await again.locator('[data-survey-return="never_return"]').check()
    await again.locator('[data-survey-submit]').click()
    await page.waitForURL(/membership_notice=survey_thanks/)
    const billing = page.locator(`[data-panel-membership="${CLUB}"] [data-membership-billing]`)
    // The thanks first: the URL changes before the page renders the answer (a transition).
    await expectText(billing.getByRole('status'), 'Dziękujemy za odpowiedź.')
    assert.equal(await billing.getAttribute('data-membership-status'), 'canceled')
  },
  { javaScriptEnabled: false },
)
