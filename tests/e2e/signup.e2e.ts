// Creator signup on the platform ends in a working school with its owner signed in.
import assert from 'node:assert/strict'
import { browserTest, expectText, expectUrl, heading, logIn, newSchool, platformUrl, signUp, snap, subdomain, url, visit } from './support.ts'

browserTest('creator signup produces a working school with the owner signed in', async ({ page, newContext }) => {
  const school = { ...newSchool('en'), name: `Pottery ${Date.now().toString(36)}` }
  const host = subdomain(school.slug)

  await visit(page, platformUrl('/'))
  await page.getByRole('navigation').getByRole('link', { name: 'Start your school' }).click()
  await expectUrl(page, 'localhost', '/signup')
  await expectText(heading(page), 'Create your school')
  await snap(page, 'platform-signup')

  await signUp(page, school)
  // Signup continues on the school's own host (one-time handover token) and lands on /home.
  await expectUrl(page, host, '/home')
  await expectText(heading(page), 'Instructor panel')
  await expectText(page.locator('main'), `${school.name} is live`)
  await expectText(page.locator('main li'), `${host}:`)
  await expectText(page.locator('main li'), school.owner.email)
  await expectText(page.getByRole('navigation').getByRole('button'), 'Log out')
  await snap(page, 'signup-landed-home')

  // The school's public home works for anyone.
  const visitor = await (await newContext()).newPage()
  await visit(visitor, url(host, '/'))
  await expectText(heading(visitor), `Welcome to ${school.name}`)

  // The owner can sign out and back in with the password chosen at signup.
  await page.getByRole('navigation').getByRole('button', { name: 'Log out' }).click()
  await expectUrl(page, host, '/')
  await logIn(page, host, school.owner.email, school.owner.password)
  await expectUrl(page, host, '/home')

  // The unconfirmed address got only the confirmation link (no school or owner name, ADR 024) …
  await visit(page, platformUrl('/dev/mail'))
  const rows = page.locator('tbody tr', { hasText: school.owner.email })
  assert.equal(await rows.count(), 1)
  await expectText(rows, 'Confirm your email address')
  await rows.getByRole('link').click()
  const text = (await page.getByTestId('mail-text').textContent()) ?? ''
  assert.ok(!text.includes(school.name) && !text.includes(school.owner.name) && !text.includes(school.slug))
  const link = new URL(text.match(/https?:\/\/\S+/)![0])
  assert.equal(link.hostname, 'localhost')
  // … which asks for a click (keyboard here) before anything happens …
  await visit(page, platformUrl(link.pathname + link.search))
  await expectText(heading(page), 'Confirm your email address')
  await page.getByRole('button', { name: 'Confirm my email address' }).focus()
  await page.keyboard.press('Enter')
  await expectText(page.getByRole('status'), 'Your school’s welcome email is on its way.')
  await expectUrl(page, 'localhost', link.pathname + link.search)

  // … and then the welcome email with the school's name follows.
  await visit(page, platformUrl('/dev/mail'))
  await expectText(page.locator('tbody tr', { hasText: school.owner.email }).first(), `Your school ${school.name} is ready`)
})

browserTest('signup refuses a school address that is already taken', async ({ page }) => {
  const school = { ...newSchool('pl'), slug: 'code-academy' }
  await signUp(page, school)
  await expectText(page.locator('[data-field-error="slug"]'), 'This address is already taken')
  assert.equal(new URL(page.url()).host, `localhost:${new URL(platformUrl()).port}`)
})
