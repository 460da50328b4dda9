// Issue 23 §6, §7, §11 in Chromium: the platform's "Log in to your school" by an e-mailed link,
// the signup form's address suggestion and all-errors-at-once, and a school's "registration
// temporarily disabled" switch.
import assert from 'node:assert/strict'
import { browserTest, expectText, expectUrl, fieldError, heading, newSchool, platformUrl, register, signUp, subdomain, unique, url, visit } from './support.ts'

browserTest('a creator logs in to their school from the platform site through an e-mailed link', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')

  // Another browser: the platform's header leads to "Log in to your school".
  const browser = await (await newContext({ ownClientIp: true })).newPage()
  await visit(browser, platformUrl('/'))
  await browser.getByRole('navigation').getByRole('link', { name: 'Log in to your school' }).click()
  await expectUrl(browser, 'localhost', '/login')
  await expectText(heading(browser), 'Log in to your school')
  await browser.getByLabel('Email').fill(school.owner.email)
  await browser.getByRole('button', { name: 'E-mail me a sign-in link' }).click()
  await expectText(browser.getByRole('status'), 'If that address has an account, we sent it a link')
  // Nothing about the school on screen.
  assert.ok(!(await browser.locator('main').innerText()).includes(school.name))

  // The mail lists the school with a link on its own address.
  await visit(browser, platformUrl('/dev/mail'))
  await browser.locator('tbody tr', { hasText: school.owner.email }).filter({ hasText: 'Your sign-in links' }).first().getByRole('link').click()
  const text = (await browser.getByTestId('mail-text').textContent()) ?? ''
  assert.ok(text.includes(`${school.name} (owner)`), text)
  const link = new URL(text.match(/https?:\/\/\S*\/login-link\/\S+/)![0])
  assert.equal(link.hostname, host)

  // Opening it asks for a click, then signs in on the school and lands on the instructor panel.
  await visit(browser, url(host, link.pathname))
  await browser.getByRole('button', { name: `Continue to ${school.name}` }).click()
  await expectUrl(browser, host, '/home')
  await expectText(heading(browser), 'Instructor panel')
  // Used once.
  await visit(browser, url(host, link.pathname), 404)
  await expectText(browser.locator('main'), 'This sign-in link is no longer valid')
})

browserTest('signup suggests the school address from the name and shows every field error at once', async ({ page }) => {
  await visit(page, platformUrl('/signup'))
  const form = page.locator('main form')
  await form.locator('[name="school_name"]').fill('Szkoła Tańca Żółw')
  assert.equal(await form.locator('[name="slug"]').inputValue(), 'szkola-tanca-zolw')
  // Prices follow the currency until the creator picks: USD → no VAT, PLN → VAT 23 %.
  await form.locator('[name="currency"]').selectOption('USD')
  assert.equal(await form.locator('[name="vat_mode"]').inputValue(), 'none')
  await form.locator('[name="currency"]').selectOption('PLN')
  assert.equal(await form.locator('[name="vat_mode"]').inputValue(), 'vat')
  assert.equal(await form.locator('[name="vat_rate"]').inputValue(), '23')

  await form.locator('[name="name"]').fill('')
  await form.locator('[name="email"]').fill('not-an-address')
  await form.locator('[name="password"]').fill('abc')
  await form.locator('[name="password_confirmation"]').fill('abd')
  await form.locator('button[type="submit"]').click()
  await expectText(page.getByRole('alert'), 'Please correct 3 fields below.')
  for (const field of ['name', 'email', 'password']) {
    await fieldError(page, field).waitFor()
    assert.equal(await form.locator(`[name="${field}"]`).getAttribute('aria-invalid'), 'true')
  }
  // The address typed from the name is kept.
  assert.equal(await form.locator('[name="slug"]').inputValue(), 'szkola-tanca-zolw')
})

browserTest('a school with registration switched off shows the seed text on /register', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await visit(page, url(host, '/home/settings/page'))
  await page.getByLabel('Registration temporarily disabled').check()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expectText(page.locator('main'), 'Changes saved')

  const visitor = await (await newContext()).newPage()
  await visit(visitor, url(host, '/register'))
  await expectText(visitor.locator('main'), 'Registration temporarily disabled')
  assert.equal(await visitor.locator('form [name="password_confirmation"]').count(), 0)
})

browserTest('a student registers and the owner gets the "new student" e-mail', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  const visitor = await (await newContext({ ownClientIp: true })).newPage()
  const student = { name: 'Nina Newcomer', email: `${unique('nina')}@example.com`, password: 'nina-pass-123' }
  await register(visitor, host, student)
  await expectUrl(visitor, host, '/panel')
  // The mail to the owner names the student (the outbox is read in /dev/mail on the platform).
  await visit(page, platformUrl('/dev/mail'))
  await expectText(page.locator('tbody tr', { hasText: school.owner.email }), `New student at ${school.name}: Nina Newcomer`)
})
