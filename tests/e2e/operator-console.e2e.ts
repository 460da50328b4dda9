// Issue 27 in Chromium: a new operator joins by invitation and must set up the second factor
// before any console page; support views a school as its owner (banner, read-only, audited).
import { decodeBase32IgnorePadding } from '@oslojs/encoding'
import { generateTOTP } from '@oslojs/otp'
import { browserTest, demoOperator, expectText, expectUrl, heading, operatorLogIn, platformUrl, snap, subdomain, url, visit } from './support.ts'

browserTest('an invited operator joins, cannot reach the console without a second factor, and sets one up', async ({ page, newContext }) => {
  await operatorLogIn(page, demoOperator('console@coursefront.test'))
  await expectText(heading(page), 'Dashboard')
  await snap(page, 'operator-dashboard')
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Operators' }).click()
  await expectUrl(page, 'localhost', '/operator/operators')
  const email = `new-op-${Date.now()}@coursefront.test`
  const invite = page.locator('form').filter({ has: page.locator('input[name="intent"][value="invite"]') })
  await invite.getByLabel('Name').fill('Nina Newcomer')
  await invite.getByLabel('E-mail').fill(email)
  await invite.getByLabel('Role').selectOption('support')
  await invite.getByRole('button', { name: 'Create invitation' }).click()
  const link = (await page.locator('[data-invite-url]').textContent())!.trim()

  const newcomer = await (await newContext()).newPage()
  await visit(newcomer, link)
  await expectText(heading(newcomer), 'Join the Coursefront operators')
  await newcomer.getByLabel('Password', { exact: true }).fill('newcomer-pass-1')
  await newcomer.getByLabel('Repeat the password').fill('newcomer-pass-1')
  await newcomer.getByRole('button', { name: 'Create my operator account' }).click()
  await expectUrl(newcomer, 'localhost', '/operator/two-factor/setup')
  // No console page before the second factor.
  await newcomer.goto(platformUrl('/operator/schools'))
  await expectUrl(newcomer, 'localhost', '/operator/two-factor/setup')
  await expectText(heading(newcomer), 'Set up two-step verification')
  const key = decodeBase32IgnorePadding((await newcomer.locator('[data-totp-key]').textContent())!.replace(/\s/g, ''))
  await newcomer.getByLabel('Code').fill(generateTOTP(key, 30, 6))
  await newcomer.getByRole('button', { name: 'Turn on' }).click()
  await expectText(heading(newcomer), 'Your recovery codes')
  await expectText(newcomer.locator('[data-recovery-codes] li').first(), /^[a-z0-9]{5}-[a-z0-9]{5}$/)
  // Shown this once: they stay until the operator moves on (no revalidation navigates away).
  await newcomer.waitForLoadState('networkidle')
  await expectUrl(newcomer, 'localhost', '/operator/two-factor/setup')
  await expectText(heading(newcomer), 'Your recovery codes')
  await newcomer.getByRole('link', { name: 'I have saved them — go to the console' }).click()
  await expectUrl(newcomer, 'localhost', '/operator')
  await expectText(heading(newcomer), 'Dashboard')
})

browserTest('support views a school as its owner: a banner on every page, no changes, an audit row', async ({ page, newContext }) => {
  await operatorLogIn(page, demoOperator('support@coursefront.test'))
  await visit(page, platformUrl('/operator/schools?q=code-academy'))
  await page.locator('tr[data-school="code-academy"]').getByRole('link').first().click()
  await page.getByRole('link', { name: 'View as owner' }).click()
  await expectText(heading(page), 'View Code Academy as its owner')
  await page.getByRole('button', { name: 'Start a 30-minute read-only view' }).click()
  const href = await page.locator('[data-view-as-link]').getAttribute('href')

  // Without JavaScript: the forms post as plain HTML, so the refusal is the page itself.
  const view = await (await newContext({ allowStatuses: [403], javaScriptEnabled: false })).newPage()
  await visit(view, href!)
  const host = subdomain('code-academy')
  await expectUrl(view, host, '/home')
  await expectText(view.locator('[data-view-as-banner]'), 'you are viewing Code Academy as its owner, read-only')
  await snap(view, 'view-as-owner')
  await visit(view, url(host, '/home/settings/page'))
  await expectText(view.locator('[data-view-as-banner]'), 'read-only')
  await view.locator('form[data-page-settings]').getByRole('button', { name: 'Save changes' }).click()
  await expectText(heading(view), 'Read-only view')
  await visit(view, url(host, '/'))
  await view.getByRole('button', { name: 'End the view' }).click()
  await expectUrl(view, host, '/')
  await visit(view, url(host, '/home'))
  await expectUrl(view, host, '/login?redirectTo=%2Fhome')

  await visit(page, platformUrl('/operator/audit?action=support.view_as_owner'))
  await expectText(page.locator('main table'), 'Sam Support')
})
