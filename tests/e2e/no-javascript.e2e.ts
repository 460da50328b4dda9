// Progressive enhancement: the core forms work as plain HTML forms, with JavaScript disabled.
import assert from 'node:assert/strict'
import {
  alertBox,
  browserTest,
  demoSchool,
  demoUser,
  expectText,
  expectUrl,
  fieldError,
  heading,
  logIn,
  newSchool,
  register,
  signUp,
  subdomain,
  unique,
  url,
  visit,
} from './support.ts'

const noJs = { javaScriptEnabled: false }
const KASI = subdomain(demoSchool('akademia-kasi').slug)
const code = demoSchool('code-academy')
const CODE = subdomain(code.slug)

browserTest(
  'registration, logout and login work without JavaScript',
  async ({ page }) => {
    // Sanity check: scripts really are off in this context.
    await visit(page, url(KASI, '/register'))
    assert.equal(await page.evaluate(() => typeof (window as unknown as { __remixContext?: unknown }).__remixContext), 'undefined')

    const user = { name: 'Bez Skryptów', email: `${unique('nojs')}@example.com`, password: 'nojs-pass-123' }
    await register(page, KASI, { ...user, confirmation: 'different-123' })
    await expectText(fieldError(page, 'password_confirmation'), 'Hasła nie są takie same')

    await register(page, KASI, user)
    await expectUrl(page, KASI, '/panel')
    await expectText(heading(page), `Cześć, ${user.name}!`)

    await page.getByRole('navigation').getByRole('button', { name: 'Wyloguj się' }).click()
    await expectUrl(page, KASI, '/')
    await expectText(page.getByRole('navigation').getByRole('link'), 'Zaloguj się')

    await logIn(page, KASI, user.email, 'wrong-password')
    await expectText(alertBox(page), 'Podane dane logowania nie zgadzają się z naszymi danymi.')
    await logIn(page, KASI, user.email, user.password)
    await expectUrl(page, KASI, '/panel')
    await expectText(heading(page), `Cześć, ${user.name}!`)
  },
  noJs,
)

browserTest(
  'the demo owner logs in without JavaScript',
  async ({ page }) => {
    const owner = demoUser(code, 'owner')
    await logIn(page, CODE, owner.email, owner.password)
    await expectUrl(page, CODE, '/home')
    await expectText(heading(page), 'Instructor panel')
  },
  noJs,
)

browserTest(
  'creator signup works without JavaScript',
  async ({ page }) => {
    const school = newSchool('en')
    await signUp(page, school)
    await expectUrl(page, subdomain(school.slug), '/home')
    await expectText(heading(page), 'Instructor panel')
  },
  noJs,
)
