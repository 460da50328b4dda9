// Accounts belong to one school; login throttling; password reset through the dev mail viewer.
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import {
  alertBox,
  browserTest,
  demoSchool,
  demoUser,
  expectText,
  expectUrl,
  heading,
  logIn,
  platformUrl,
  register,
  snap,
  subdomain,
  unique,
  url,
  visit,
} from './support.ts'

const kasi = demoSchool('akademia-kasi')
const code = demoSchool('code-academy')
const KASI = subdomain(kasi.slug)
const CODE = subdomain(code.slug)

// workers/mail consumes the mail queue when it is part of the stack (tests/e2e/run.mjs runs every worker).
const hasMailWorker = existsSync(join(import.meta.dirname, '..', '..', 'workers', 'mail', 'wrangler.toml'))

const FAILED_PL = 'Podane dane logowania nie zgadzają się z naszymi danymi.'
const FAILED_EN = 'These credentials do not match our records.'

/** Submit the login form and wait for the server's answer to that POST. */
async function submitLogin(page: Page, email: string, password: string) {
  await page.locator('form [name="email"]').fill(email)
  await page.locator('form [name="password"]').fill(password)
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/login')),
    page.locator('main form button[type="submit"]').click(),
  ])
}

browserTest('a Code Academy student cannot sign in to Akademia Kasi with the same credentials', async ({ page }) => {
  const sam = code.users.find((u) => u.email === 'sam@example.com') ?? demoUser(code, 'student')
  await logIn(page, KASI, sam.email, sam.password)
  await expectText(alertBox(page), FAILED_PL)
  assert.equal(new URL(page.url()).pathname, '/login')
  await snap(page, 'kasi-login-failed')

  // Jan has an account in both schools, with different passwords: each works only at its own school.
  const janCode = code.users.find((u) => u.email === 'jan@example.com')
  const janKasi = kasi.users.find((u) => u.email === 'jan@example.com')
  if (janCode && janKasi) {
    await logIn(page, KASI, janCode.email, janCode.password)
    await expectText(alertBox(page), FAILED_PL)
  }

  // The same credentials do work at the school they belong to.
  await logIn(page, CODE, sam.email, sam.password)
  await expectUrl(page, CODE, '/panel')
  await expectText(heading(page), `Hello, ${sam.name}!`)
})

browserTest("a session cookie from one school is refused on another", async ({ page, context }) => {
  const sam = demoUser(code, 'student')
  await logIn(page, CODE, sam.email, sam.password)
  await expectUrl(page, CODE, '/panel')

  const cookies = await context.cookies(url(CODE, '/'))
  const session = cookies.find((c) => /session/.test(c.name))
  assert.ok(session, `a session cookie is set on ${CODE} (got ${cookies.map((c) => c.name).join(', ') || 'none'})`)
  await context.addCookies([{ name: session.name, value: session.value, url: url(KASI, '/') }])
  const copied = await context.cookies(url(KASI, '/'))
  assert.ok(copied.some((c) => c.name === session.name && c.value === session.value), 'the cookie was copied to the other school')

  await page.goto(url(KASI, '/panel'))
  await expectUrl(page, KASI, '/login?redirectTo=%2Fpanel')
  await expectText(heading(page), 'Logowanie')
  await expectText(page.getByRole('navigation').getByRole('link'), 'Zaloguj się')

  // Still valid where it was issued.
  await visit(page, url(CODE, '/panel'))
  await expectText(heading(page), `Hello, ${sam.name}!`)
})

browserTest('five wrong passwords lock the login with the remaining seconds', async ({ page }) => {
  const user = { name: 'Throttle Tester', email: `${unique('throttle')}@example.com`, password: 'right-pass-123' }
  await register(page, CODE, user)
  await expectUrl(page, CODE, '/panel')
  await page.getByRole('navigation').getByRole('button', { name: 'Log out' }).click()
  await expectUrl(page, CODE, '/')

  await visit(page, url(CODE, '/login'))
  for (let attempt = 1; attempt <= 4; attempt++) {
    await submitLogin(page, user.email, `wrong-${attempt}`)
    await expectText(alertBox(page), FAILED_EN)
  }
  await submitLogin(page, user.email, 'wrong-5')
  const throttled = /Too many login attempts\. Please try again in (\d+) seconds?\./
  await expectText(alertBox(page), throttled)
  const seconds = Number(throttled.exec(await alertBox(page).innerText())![1])
  assert.ok(seconds > 0 && seconds <= 60, `remaining seconds ${seconds} within the lockout`)
  await snap(page, 'login-throttled')

  // While locked, even the right password is refused.
  await submitLogin(page, user.email, user.password)
  await expectText(alertBox(page), throttled)
  assert.equal(new URL(page.url()).pathname, '/login')
})

browserTest('forgot password: mail in the dev viewer, link sets a new password once', async ({ page }) => {
  const user = { name: 'Reset Tester', email: `${unique('reset')}@example.com`, password: 'old-pass-123' }
  const newPassword = 'new-pass-456'
  await register(page, CODE, user)
  await expectUrl(page, CODE, '/panel')
  await page.getByRole('navigation').getByRole('button', { name: 'Log out' }).click()
  await expectUrl(page, CODE, '/')

  await visit(page, url(CODE, '/login'))
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expectUrl(page, CODE, '/forgot-password')
  await page.locator('form [name="email"]').fill(user.email)
  await page.locator('main form button[type="submit"]').click()
  await expectText(page.getByRole('status'), 'We have e-mailed your password reset link!')

  // The dev mail viewer on the platform has the message.
  await visit(page, platformUrl('/dev/mail'))
  const row = page.locator('tbody tr', { hasText: user.email })
  await expectText(row, `Reset your password at ${code.name}`)
  await row.getByRole('link').click()
  await expectText(heading(page), `Reset your password at ${code.name}`)
  await expectText(page.getByTestId('mail-text'), `Hello ${user.name},`)
  await snap(page, 'dev-mail-message')
  const link = page.locator('main a[href*="/reset-password/"]').first()
  const href = await link.getAttribute('href')
  if (!href?.startsWith(url(CODE, '/reset-password/'))) assert.fail(`the reset link should point at the school, it is ${href}`)

  await link.click()
  await expectUrl(page, CODE, new URL(href).pathname)
  await expectText(heading(page), 'Set a new password')
  await page.locator('form [name="password"]').fill(newPassword)
  await page.locator('form [name="password_confirmation"]').fill(newPassword)
  await page.locator('main form button[type="submit"]').click()
  await expectUrl(page, CODE, '/panel')
  await expectText(heading(page), `Hello, ${user.name}!`)

  // The link works once (the page may answer 404 for a spent token; any 5xx fails the test).
  await page.goto(href)
  await expectText(alertBox(page), 'This password reset token is invalid.')
  await snap(page, 'reset-token-invalid')

  // Old password no longer works, the new one does.
  await page.getByRole('navigation').getByRole('button', { name: 'Log out' }).click()
  await expectUrl(page, CODE, '/')
  await logIn(page, CODE, user.email, user.password)
  await expectText(alertBox(page), FAILED_EN)
  await logIn(page, CODE, user.email, newPassword)
  await expectUrl(page, CODE, '/panel')

  // With a mail worker in the stack, the queued message is delivered (its status turns "sent").
  if (hasMailWorker) {
    const deadline = Date.now() + 30_000
    let status = ''
    while (Date.now() < deadline) {
      await visit(page, platformUrl('/dev/mail'))
      const rows = page.locator('tbody tr', { hasText: user.email }).filter({ hasText: 'Reset your password' })
      status = (await rows.first().locator('td').last().innerText()).trim()
      if (status === 'sent') break
      await page.waitForTimeout(1000)
    }
    assert.equal(status, 'sent', 'the mail worker delivered the reset email (status in the dev mail viewer)')
  }
})
