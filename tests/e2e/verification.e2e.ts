// Login verification (issue 7 item 6, ADR 017) in Chromium: the owner turns it on in the page
// settings; a student's new login lands on /verify. Email mode: send → resend locked with a
// countdown → a wrong code is refused → the code from the dev mail outbox → /panel. Phone mode:
// the phone form (+48, masked number), then the code from the SMSAPI peer → /panel.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { alertBox, browserTest, expectText, expectUrl, heading, newSchool, platformUrl, register, signUp, snap, subdomain, unique, url, visit } from './support.ts'

async function schoolWithVerification(page: Page, mode: 'email' | 'phone') {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await visit(page, url(host, '/home/settings/page'))
  await page.locator('select[name="loginVerification"]').selectOption(mode)
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expectUrl(page, host, '/home/settings/page')
  await page.locator('[data-done="saved"]').waitFor()
  assert.equal(await page.locator('select[name="loginVerification"]').inputValue(), mode)
  return { school, host }
}

async function registerStudent(page: Page, host: string) {
  const user = { name: 'Vera Verify', email: `${unique('verify')}@example.com`, password: 'student-pass-1' }
  await register(page, host, user)
  // /panel is gated: the new session has not confirmed a code yet.
  await expectUrl(page, host, '/verify')
  await expectText(heading(page), 'Confirm it’s you')
  return user
}

browserTest('email mode: send, resend locked with a countdown, wrong code refused, code from the dev outbox opens /panel', async ({ page, newContext }) => {
  const { host, school } = await schoolWithVerification(page, 'email')
  const student = await (await newContext()).newPage()
  const user = await registerStudent(student, host)
  await expectText(student.locator('[data-destination]'), user.email)

  await student.getByRole('button', { name: 'Send code' }).click()
  await expectText(student.getByRole('status'), `We sent a 6-digit code to ${user.email}`)
  const resend = student.getByRole('button', { name: 'Send a new code' })
  assert.equal(await resend.isDisabled(), true, 'resend is locked right after sending')
  const countdown = student.locator('[data-resend-countdown]')
  await expectText(countdown, /You can send a new code in \d+ s\./)
  const first = Number(await countdown.getAttribute('data-resend-countdown'))
  assert.ok(first > 50 && first <= 60, `countdown starts near 60 s (${first})`)
  await student.waitForTimeout(2100)
  const later = Number(await countdown.getAttribute('data-resend-countdown'))
  assert.ok(later < first, `the countdown runs (${first} → ${later})`)
  assert.equal(await resend.isDisabled(), true)
  await snap(student, 'verify-email-sent')

  // The code input takes at most 6 characters.
  const codeInput = student.getByLabel('Verification code')
  assert.equal(await codeInput.getAttribute('maxlength'), '6')

  // The code from the dev mail outbox (subject "<code> is your login code for <school>").
  const mail = await (await newContext()).newPage()
  await visit(mail, platformUrl('/dev/mail'))
  const row = mail.locator('tbody tr', { hasText: user.email }).filter({ hasText: `is your login code for ${school.name}` })
  await expectText(row, /\d{6} is your login code/)
  const code = /(\d{6}) is your login code/.exec(await row.first().innerText())![1]

  await codeInput.fill(code === '000000' ? '111111' : '000000')
  await student.getByRole('button', { name: 'Verify' }).click()
  await expectText(alertBox(student), 'Invalid or expired verification code.')

  await codeInput.fill(code)
  await student.getByRole('button', { name: 'Verify' }).click()
  await expectUrl(student, host, '/panel')
  await expectText(heading(student), /Hello|Your/)
  // The verified session stays verified.
  await visit(student, url(host, '/panel'))
  assert.equal(new URL(student.url()).pathname, '/panel')
})

browserTest('phone mode: save the phone (masked, +48 default), then the code by SMS from the SMSAPI peer opens /panel', async ({ page, newContext }) => {
  const { host } = await schoolWithVerification(page, 'phone')
  const student = await (await newContext()).newPage()
  await student.setViewportSize({ width: 375, height: 800 })
  await registerStudent(student, host)

  const prefix = student.getByLabel('Prefix')
  assert.equal(await prefix.inputValue(), '+48')
  assert.equal(await prefix.getAttribute('maxlength'), '4')
  // Both fields are required.
  await student.getByRole('button', { name: 'Save phone number' }).click()
  await expectText(alertBox(student), 'Failed to save phone number.')
  await student.getByLabel('Phone number').fill('500 600-789')
  await snap(student, 'verify-phone-form-375')
  await student.getByRole('button', { name: 'Save phone number' }).click()
  await expectText(student.locator('[data-destination]'), 'Codes go to •••••••0789.')
  assert.equal(await student.locator('main').innerText().then((t) => t.includes('500600789')), false, 'the full number is never shown')

  await student.getByRole('button', { name: 'Send code' }).click()
  await expectText(student.getByRole('status'), 'We sent a 6-digit code by SMS to •••••••0789.')
  assert.equal(await student.getByRole('button', { name: 'Send a new code' }).isDisabled(), true)

  // What the SMSAPI peer received (its control API, reached on the dev S3 host that forwards to the peers).
  const peer = await (await newContext()).newPage()
  await visit(peer, url('s3.localhost', '/_peer/sms/messages?to=48500600789'))
  const { messages } = JSON.parse(await peer.locator('body').innerText()) as { messages: Array<{ message: string; sender: string }> }
  assert.equal(messages.length, 1)
  assert.equal(messages[0].sender, 'Coursefront')
  const code = /^(\d{6}) is your login code for /.exec(messages[0].message)![1]

  await student.getByLabel('Verification code').fill(code)
  await student.getByRole('button', { name: 'Verify' }).click()
  await expectUrl(student, host, '/panel')
})

browserTest('without JavaScript the same forms post to /verify: send, wrong code refused, right code opens /panel', async ({ page, newContext }) => {
  const { host, school } = await schoolWithVerification(page, 'email')
  const student = await (await newContext({ javaScriptEnabled: false })).newPage()
  const user = await registerStudent(student, host)
  await student.getByRole('button', { name: 'Send code' }).click()
  await expectText(student.getByRole('status'), `We sent a 6-digit code to ${user.email}`)
  // The server keeps the lock too: asking again at once is refused with the seconds left.
  await student.getByRole('button', { name: 'Send a new code' }).click()
  await expectText(alertBox(student), /Wait \d+ s before asking for a new code\./)

  const mail = await (await newContext()).newPage()
  await visit(mail, platformUrl('/dev/mail'))
  const row = mail.locator('tbody tr', { hasText: user.email }).filter({ hasText: `is your login code for ${school.name}` })
  await expectText(row, /\d{6} is your login code/)
  const code = /(\d{6}) is your login code/.exec(await row.first().innerText())![1]

  await student.getByLabel('Verification code').fill(code === '000000' ? '111111' : '000000')
  await student.getByRole('button', { name: 'Verify' }).click()
  await expectText(alertBox(student), 'Invalid or expired verification code.')
  await student.getByLabel('Verification code').fill(code)
  await student.getByRole('button', { name: 'Verify' }).click()
  await expectUrl(student, host, '/panel')
})
