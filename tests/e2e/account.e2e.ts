// The user's own account (issue 23 item 12) and a US payout account (item 5), in Chromium: a
// student changes their name, their e-mail through the link mailed to the new address (read in
// /dev/mail), their password, and deletes the account; a USD school's owner saves a US account.
import assert from 'node:assert/strict'
import { browserTest, expectText, expectUrl, fieldError, heading, logIn, newSchool, platformUrl, register, signUp, subdomain, unique, url, visit } from './support.ts'

browserTest('a student changes name, e-mail (link from /dev/mail) and password, then deletes the account', async ({ page }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await page.context().clearCookies()

  const student = { name: 'Sam Student', email: `${unique('acct')}@example.com`, password: 'student-pass-1' }
  await register(page, host, student)
  await expectUrl(page, host, '/panel')
  await page.locator('[data-account-link]').click()
  await expectUrl(page, host, '/account')
  await expectText(heading(page), 'Your account')

  await page.locator('[data-account-name] [name="name"]').fill('Samantha Student')
  await page.locator('[data-account-name]').getByRole('button', { name: 'Save name' }).click()
  await expectText(page.locator('[data-done="account_name"]'), 'Your name is saved.')

  const newEmail = `${unique('moved')}@example.com`
  await page.locator('[data-account-email] [name="email"]').fill(newEmail)
  await page.locator('[data-account-email]').getByRole('button', { name: 'Send confirmation link' }).click()
  await expectText(page.locator('[data-done="account_email"]'), `We sent a link to ${newEmail}`)
  await expectText(page.locator('[data-current-email]'), student.email)

  await visit(page, platformUrl('/dev/mail'))
  await page.locator('tbody tr', { hasText: newEmail }).first().getByRole('link').click()
  const text = (await page.getByTestId('mail-text').textContent()) ?? ''
  const link = new URL(text.match(/https?:\/\/\S*\/account\/email\/[a-z2-7]+/)![0])
  assert.equal(link.hostname, host)
  await visit(page, url(host, link.pathname))
  await page.getByRole('button', { name: 'Confirm the new address' }).click()
  await expectText(page.locator('[data-email-changed]'), `is now ${newEmail}`)

  await visit(page, url(host, '/account'))
  await expectText(page.locator('[data-current-email]'), newEmail)
  await page.locator('[data-account-password] [name="currentPassword"]').fill('not-my-password')
  await page.locator('[data-account-password] [name="newPassword"]').fill('another-pass-2')
  await page.locator('[data-account-password]').getByRole('button', { name: 'Change password' }).click()
  await expectText(fieldError(page, 'currentPassword'), 'This is not your current password')
  await page.locator('[data-account-password] [name="currentPassword"]').fill(student.password)
  await page.locator('[data-account-password] [name="newPassword"]').fill('another-pass-2')
  await page.locator('[data-account-password]').getByRole('button', { name: 'Change password' }).click()
  await expectText(page.locator('[data-done="account_password"]'), 'Your password is changed.')

  await page.locator('[data-account-delete] [name="password"]').fill('another-pass-2')
  await page.locator('[data-account-delete]').getByRole('button', { name: 'Delete my account' }).click()
  await expectUrl(page, host, '/')
  await logIn(page, host, newEmail, 'another-pass-2')
  await expectUrl(page, host, '/login')
})

browserTest('a USD school saves a US bank account (routing number checked)', async ({ page }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'USD')
  await expectUrl(page, host, '/home')
  await visit(page, url(host, '/home/settings/page'))
  await page.locator('form [name="authorName"]').fill('Ewa Testowa')
  await page.locator('form [name="contactEmail"]').fill(school.owner.email)
  await page.locator('form[data-page-settings]').getByRole('button', { name: 'Save changes' }).click()
  await page.locator('[data-done="saved"]').waitFor()

  await visit(page, url(host, '/home/balance'))
  const form = page.locator('form[data-bank-form]')
  await form.locator('[data-bank-type-option="us"]').check()
  // With JavaScript only the chosen type's fields show.
  assert.equal(await form.locator('[name="bankSwift"]').isVisible(), false)
  await form.locator('[name="bankRoutingNumber"]').fill('011000016')
  await form.locator('[name="bankAccount"]').fill('000123456789')
  await form.locator('[name="bankAccountHolder"]').fill('Ewa Testowa')
  await form.getByRole('button', { name: 'Save bank account' }).click()
  await expectText(fieldError(page, 'bankRoutingNumber'), 'This routing number is not valid: check its digits')
  await page.locator('form[data-bank-form] [name="bankRoutingNumber"]').fill('011000015')
  await page.locator('form[data-bank-form]').getByRole('button', { name: 'Save bank account' }).click()
  await expectText(page.locator('[data-bank-current]'), 'US bank account')
  await expectText(page.locator('[data-bank-current]'), '011000015')
})
