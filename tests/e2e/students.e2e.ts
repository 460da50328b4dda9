// Students (issue 5 §4) in Code Academy: the owner's import is refused at 51 lines and with bad
// lines (listed), goes through at 50; the CSV export works once a minute; access is granted and
// denied with a reason; an imported student opens the invitation from the dev mail viewer and
// sets a password.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, fieldError, heading, logIn, platformUrl, subdomain, unique, url, visit } from './support.ts'

const academy = demoSchool('code-academy')
const HOST = subdomain(academy.slug)
const owner = demoUser(academy, 'owner')

async function importEmails(page: import('playwright-core').Page, emails: string[]) {
  const form = page.locator('form[data-import-students]')
  await form.locator('[name="emails"]').fill(emails.join('\n'))
  await form.getByRole('button', { name: 'Import' }).click()
}

browserTest('import: 51 lines refused, bad lines listed, 50 imported; export once per minute', async ({ page }) => {
  await logIn(page, HOST, owner.email, owner.password)
  await expectUrl(page, HOST, '/home')
  await visit(page, url(HOST, '/home/students'))
  await expectText(heading(page), 'Students')

  const tag = unique('imp')
  const emails = Array.from({ length: 50 }, (_, i) => `${tag}-${i}@example.com`)
  await importEmails(page, [...emails, `${tag}-extra@example.com`])
  await expectText(fieldError(page, 'emails'), 'You can import at most 50 emails at a time (51 lines given).')

  const withBad = [...emails]
  withBad[2] = 'not an email'
  withBad[10] = `${tag}@`
  withBad[40] = 'still@bad@example.com'
  await importEmails(page, withBad)
  await expectText(fieldError(page, 'emails'), 'Remove invalid records and try again')
  assert.deepEqual(await page.locator('[data-invalid-lines] li').allInnerTexts(), ['Line 3: not an email', `Line 11: ${tag}@`, 'Line 41: still@bad@example.com'])
  // Nothing was imported; the owner fixes the list and sends it again.
  await importEmails(page, emails)
  await expectText(page.locator('[data-import-report]'), 'Created 50 student accounts; the invitations are on their way.')
  await visit(page, url(HOST, `/home/students?q=${tag}`))
  await expectText(page.locator('[data-student-total]'), '50 students found')
  await expectText(page.locator('[data-pager]'), 'Page 1 of 2')

  // Export: a file, then the message on the second try within a minute.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button[data-export]').click()])
  assert.match(download.suggestedFilename(), /^students-\d{4}-\d{2}-\d{2}\.csv$/)
  const csv = readFileSync((await download.path())!)
  assert.deepEqual([...csv.subarray(0, 3)], [0xef, 0xbb, 0xbf])
  assert.ok(csv.toString('utf8').includes(`${tag}-49@example.com`))
  await page.locator('button[data-export]').click()
  await expectUrl(page, HOST, '/home/students?error=export_limit')
  await expectText(page.getByRole('alert'), 'You can only make one export per minute')
})

browserTest('grant and deny access with a reason; an imported student accepts the invitation', async ({ page, newContext }) => {
  await logIn(page, HOST, owner.email, owner.password)
  await expectUrl(page, HOST, '/home')

  // A product to grant (a file product is the quickest to make).
  const productTitle = unique('Cheat sheet')
  await visit(page, url(HOST, '/home/files'))
  await page.locator('main form [name="title"]').fill(productTitle)
  await page.getByRole('button', { name: 'Create', exact: true }).click()
  await page.waitForURL(/\/home\/files\/[a-z2-7]+$/)
  await page.locator('[data-done="created"]').waitFor()

  const email = `${unique('invitee')}@example.com`
  await visit(page, url(HOST, '/home/students'))
  await importEmails(page, [email])
  await expectText(page.locator('[data-import-report]'), 'Created 1 student account')
  await visit(page, url(HOST, `/home/students?q=${encodeURIComponent(email)}`))
  await page.locator(`[data-student-email="${email}"] a`).click()
  await page.waitForURL(/\/home\/students\/[a-z2-7]+$/)
  await expectText(page.locator('[data-transactions-empty]'), 'No transactions yet')

  const grant = page.locator('form[data-grant]')
  await grant.locator('[name="productId"]').selectOption({ label: `${productTitle} (file)` })
  await grant.getByRole('button', { name: 'Grant access' }).click()
  await expectText(fieldError(page, 'reason'), 'This field is required')
  await grant.locator('[name="reason"]').fill('Conference gift')
  await grant.getByRole('button', { name: 'Grant access' }).click()
  await expectText(page.getByRole('status'), 'Access granted')
  const row = page.locator(`[data-access-product="${productTitle}"]`)
  await expectText(row, 'Conference gift')
  assert.equal(await row.getAttribute('data-access-status'), 'active')

  await page.locator('form[data-grant] [name="productId"]').selectOption({ label: `${productTitle} (file)` })
  await page.locator('form[data-grant] [name="reason"]').fill('Twice')
  await page.locator('form[data-grant]').getByRole('button', { name: 'Grant access' }).click()
  await expectText(fieldError(page, 'productId'), 'This student already has access to this product')

  await row.locator('[name="reason"]').fill('Chargeback')
  await row.getByRole('button', { name: `Deny access to ${productTitle}` }).click()
  await expectText(page.getByRole('status'), 'Access denied')
  await expectText(page.locator(`[data-access-product="${productTitle}"][data-access-status="revoked"] [data-revoked-reason]`), 'Chargeback')

  // The invited student: the mail in the dev viewer, the link, a password, the panel.
  const student = await (await newContext()).newPage()
  await visit(student, platformUrl('/dev/mail'))
  await student.locator('tr', { hasText: email }).getByRole('link', { name: 'Your account at Code Academy' }).click()
  const link = student.locator('a', { hasText: '/invitation/' }).first()
  const href = await link.getAttribute('href')
  assert.match(href ?? '', new RegExp(`^http://${HOST.replace(/\./g, '\\.')}:\\d+/invitation/[a-z2-7]+$`))
  await link.click()
  await student.waitForURL(/\/invitation\//)
  await expectText(heading(student), 'Set up your account')
  await student.locator('form [name="name"]').fill('Ivy Invitee')
  await student.locator('form [name="password"]').fill('ivy-pass-123')
  await student.locator('form [name="password_confirmation"]').fill('ivy-pass-124')
  await student.locator('main form button[type="submit"]').click()
  await fieldError(student, 'password_confirmation').waitFor()
  await student.locator('form [name="password"]').fill('ivy-pass-123')
  await student.locator('form [name="password_confirmation"]').fill('ivy-pass-123')
  await student.locator('main form button[type="submit"]').click()
  await expectUrl(student, HOST, '/panel')
  // The link is used up.
  await visit(student, href!, 404)
})
