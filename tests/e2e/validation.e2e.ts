// Forms given empty, over-long and hostile input: field errors in the page's language, no 5xx
// (checked by browserTest for every response), no script runs, nothing is written.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import {
  alertBox,
  browserTest,
  demoSchool,
  demoUser,
  expectText,
  expectUrl,
  fieldError,
  fillRaw,
  heading,
  logIn,
  platformUrl,
  snap,
  subdomain,
  unique,
  url,
  visit,
} from './support.ts'

const KASI = subdomain(demoSchool('akademia-kasi').slug)
const CODE = subdomain(demoSchool('code-academy').slug)
const XSS = '<script>alert(1)</script>'
const LONG = 'x'.repeat(500)

/** Submit the page's main form and wait for the server's answer to that POST. */
async function submit(page: Page) {
  const path = new URL(page.url()).pathname
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith(path)),
    page.locator('main form button[type="submit"]').click(),
  ])
}

browserTest('registration with empty, over-long and malformed input shows Polish field errors and writes nothing', async ({ page }) => {
  await visit(page, url(KASI, '/register'))
  await submit(page)
  await expectText(fieldError(page, 'name'), 'To pole jest wymagane')
  await expectText(fieldError(page, 'email'), 'To pole jest wymagane')
  await expectText(fieldError(page, 'password'), /To pole jest wymagane|Hasło musi mieć/)
  await snap(page, 'kasi-register-empty')

  // Hostile name, malformed email, over-long password.
  await fillRaw(page, 'name', XSS)
  await fillRaw(page, 'email', 'not-an-email')
  await fillRaw(page, 'password', LONG)
  await fillRaw(page, 'password_confirmation', LONG)
  await submit(page)
  await expectText(fieldError(page, 'email'), 'Podaj poprawny adres e-mail')
  await expectText(fieldError(page, 'password'), /najwyżej 200/)
  assert.equal(await fieldError(page, 'name').count(), 0, 'the name itself is acceptable text')
  // Echoed back as a value, not as markup.
  assert.equal(await page.locator('form [name="name"]').inputValue(), XSS)
  assert.equal(await page.locator('main script').count(), 0)

  // Over-long name with otherwise valid data: refused, and no account exists afterwards.
  const email = `${unique('long')}@example.com`
  await fillRaw(page, 'name', LONG)
  await fillRaw(page, 'email', email)
  await fillRaw(page, 'password', 'valid-pass-123')
  await fillRaw(page, 'password_confirmation', 'valid-pass-123')
  await submit(page)
  await expectText(fieldError(page, 'name'), /najwyżej 70/)
  assert.equal(new URL(page.url()).pathname, '/register')

  // Mismatched confirmation.
  await fillRaw(page, 'name', 'Anna Test')
  await fillRaw(page, 'password', 'valid-pass-123')
  await fillRaw(page, 'password_confirmation', 'other-pass-123')
  await submit(page)
  await expectText(fieldError(page, 'password_confirmation'), 'Hasła nie są takie same')
  await snap(page, 'kasi-register-errors')

  await logIn(page, KASI, email, 'valid-pass-123')
  await expectText(alertBox(page), 'Podane dane logowania nie zgadzają się z naszymi danymi.')
})

browserTest('a script tag as a name is stored and shown as text, never run', async ({ page, newContext }) => {
  const email = `${unique('xss')}@example.com`
  await visit(page, url(KASI, '/register'))
  await fillRaw(page, 'name', XSS)
  await fillRaw(page, 'email', email)
  await fillRaw(page, 'password', 'valid-pass-123')
  await fillRaw(page, 'password_confirmation', 'valid-pass-123')
  await page.locator('main form button[type="submit"]').click()
  await expectUrl(page, KASI, '/panel')
  await expectText(heading(page), `Cześć, ${XSS}!`)

  // The owner sees the new student, as text, in the instructor panel.
  const kasi = demoSchool('akademia-kasi')
  const owner = demoUser(kasi, 'owner')
  const ownerPage = await (await newContext()).newPage()
  await logIn(ownerPage, KASI, owner.email, owner.password)
  await expectUrl(ownerPage, KASI, '/home')
  await expectText(ownerPage.locator('main li', { hasText: email }), XSS)
  // (browserTest fails the test if any alert() dialog opened.)
})

browserTest('login with empty, malformed and over-long input shows field errors in the school language', async ({ page }) => {
  await visit(page, url(KASI, '/login'))
  await submit(page)
  await expectText(fieldError(page, 'email'), 'To pole jest wymagane')
  await expectText(fieldError(page, 'password'), 'To pole jest wymagane')
  await fillRaw(page, 'email', 'jan@')
  await fillRaw(page, 'password', 'whatever')
  await submit(page)
  await expectText(fieldError(page, 'email'), 'Podaj poprawny adres e-mail')

  await visit(page, url(CODE, '/login'))
  await fillRaw(page, 'email', `${LONG}@example.com`)
  await fillRaw(page, 'password', LONG)
  await submit(page)
  await expectText(fieldError(page, 'email'), 'May not be longer than 254 characters')
  await fillRaw(page, 'email', XSS)
  await submit(page)
  await expectText(fieldError(page, 'email'), 'Provide a valid email address')
  await snap(page, 'code-login-errors')
})

browserTest('forgot and reset password forms reject bad input in Polish', async ({ page }) => {
  await visit(page, url(KASI, '/forgot-password'))
  await submit(page)
  await expectText(fieldError(page, 'email'), 'To pole jest wymagane')
  await fillRaw(page, 'email', XSS)
  await submit(page)
  await expectText(fieldError(page, 'email'), 'Podaj poprawny adres e-mail')
  await fillRaw(page, 'email', `${unique('nobody')}@example.com`)
  await submit(page)
  await expectText(fieldError(page, 'email'), 'Nie możemy znaleźć użytkownika z tym adresem e-mail.')

  // Bogus tokens: the invalid-token message (status 4xx is fine, 5xx fails the test).
  for (const token of [encodeURIComponent(XSS), 'a'.repeat(500)]) {
    const response = await page.goto(url(KASI, `/reset-password/${token}`))
    assert.ok(response && response.status() < 500)
    await expectText(alertBox(page), 'Ten token resetowania hasła jest nieprawidłowy.')
  }
})

browserTest('platform signup with bad input shows English field errors and creates no school', async ({ page }) => {
  await visit(page, platformUrl('/signup'))
  await submit(page)
  for (const field of ['name', 'email']) await expectText(fieldError(page, field), 'This field is required')
  await expectText(fieldError(page, 'school_name'), /This field is required|Must be at least 2 characters/)
  await expectText(fieldError(page, 'slug'), /This field is required|Use 3–40/)

  const slug = unique('bad')
  await fillRaw(page, 'school_name', LONG)
  await fillRaw(page, 'slug', slug)
  await fillRaw(page, 'name', XSS)
  await fillRaw(page, 'email', 'owner@')
  await fillRaw(page, 'password', '123')
  await fillRaw(page, 'password_confirmation', '123')
  await submit(page)
  await expectText(fieldError(page, 'school_name'), 'May not be longer than 70 characters')
  await expectText(fieldError(page, 'email'), 'Provide a valid email address')
  await expectText(fieldError(page, 'password'), 'The password must be at least 6 characters')
  await snap(page, 'signup-errors')

  await fillRaw(page, 'school_name', 'Fine School')
  await fillRaw(page, 'slug', XSS)
  await fillRaw(page, 'email', `${slug}@example.com`)
  await fillRaw(page, 'password', 'valid-pass-123')
  await fillRaw(page, 'password_confirmation', 'valid-pass-123')
  await submit(page)
  await expectText(fieldError(page, 'slug'), /Use 3–40 lowercase letters/)
  await fillRaw(page, 'slug', 'www')
  await submit(page)
  await expectText(fieldError(page, 'slug'), 'This address is reserved')

  // Nothing was created under the slug that was typed.
  await visit(page, url(subdomain(slug), '/'), 404)
  await expectText(heading(page), 'No school at this address')
})
