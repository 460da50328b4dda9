// Issue 9 item 1 in Code Academy: the owner adds a webhook for "Student has registered" pointing
// at the dev peers' webhook receiver and copies the secret shown once; a student registers; the
// event goes app → coursefront-events → webhooks worker → coursefront-webhook-deliveries → a
// signed POST, and the delivery log shows it delivered. The receiver's log (through the dev S3
// host, which forwards to the peers) proves one POST with a signature the secret verifies. Then a
// test event is scheduled, and the webhook is deleted so other flows' registrations go nowhere.
import assert from 'node:assert/strict'
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, logIn, register, subdomain, unique, url, visit } from './support.ts'

const academy = demoSchool('code-academy')
const HOST = subdomain(academy.slug)
const owner = demoUser(academy, 'owner')

type Received = { headers: Record<string, string>; body: string; status: number }

async function receiverLog(page: Page, inbox: string) {
  await visit(page, url('s3.localhost', `/webhook-receiver/${inbox}/_log`))
  return (JSON.parse(await page.locator('body').innerText()) as { requests: Received[] }).requests
}

/** The receiver's side of docs/webhooks.md. */
function verify(secret: string, header: string, body: string) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]))
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex')
  return Math.abs(Date.now() / 1000 - Number(parts.t)) <= 300 && timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1 ?? ''))
}

/** Reload the webhook page until its log has `count` rows in `status` (the queues work in the background). */
async function waitForLog(page: Page, status: string, count: number) {
  for (let i = 0; i < 40; i++) {
    if ((await page.locator(`[data-delivery-status="${status}"]`).count()) >= count) return
    await page.waitForTimeout(500)
    await page.reload()
  }
  assert.fail(`the delivery log never showed ${count} × ${status}: ${await page.locator('[data-webhook-deliveries]').innerText().catch(() => 'no log')}`)
}

browserTest('a student registers: the webhook receives one signed delivery and the log shows it delivered', async ({ page, newContext }) => {
  const inbox = unique('e2e-hook').replace(/[^a-z0-9-]/gi, '-').slice(0, 60)
  const target = `http://webhooks.dev-peers.internal/webhook-receiver/${inbox}`

  await logIn(page, HOST, owner.email, owner.password)
  await expectUrl(page, HOST, '/home')
  await visit(page, url(HOST, '/home/webhooks'))
  await page.getByLabel('Event').selectOption({ label: 'Student has registered' })
  await page.getByLabel('Target URL').fill(target)
  await page.getByRole('button', { name: 'Create webhook' }).click()
  await expectText(page.getByRole('status'), 'Webhook created')
  const secret = await page.locator('[data-webhook-secret]').inputValue()
  assert.match(secret, /^whsec_/)
  await page.getByRole('link', { name: target }).first().click()
  await page.waitForURL(/\/home\/webhooks\/[a-z0-9]+$/)
  const webhookPath = new URL(page.url()).pathname
  assert.equal(await page.locator('main').innerText().then((t) => t.includes(secret)), false, 'the secret is shown only once')
  await expectText(page.locator('main'), 'Nothing delivered yet.')

  // A student registers at the school (another browser).
  const studentPage = await (await newContext()).newPage()
  const email = `${unique('hooked')}@example.com`
  await register(studentPage, HOST, { name: 'Hugo Hook', email, password: 'student-pass-1' })
  await expectUrl(studentPage, HOST, '/panel')

  await page.reload()
  await waitForLog(page, 'delivered', 1)
  const row = page.locator('[data-delivery-status="delivered"]').first()
  await expectText(row, 'Student has registered')
  await expectText(row.locator('[data-delivery-code]'), '200')
  await expectText(row.locator('[data-delivery-attempts]'), '1')

  const peer = await (await newContext()).newPage()
  const requests = await receiverLog(peer, inbox)
  assert.equal(requests.length, 1, 'one POST')
  const [req] = requests
  const body = JSON.parse(req.body) as { id: string; type: string; data: { email: string } }
  assert.equal(body.type, 'student.registered')
  assert.equal(body.data.email, email)
  assert.equal(req.headers['coursefront-event-id'], body.id)
  assert.equal(req.headers['user-agent'], 'Coursefront-Webhooks/1')
  assert.ok(verify(secret, req.headers['coursefront-signature'], req.body), 'the signature verifies with the secret shown at creation')
  assert.equal(verify('whsec_wrong', req.headers['coursefront-signature'], req.body), false)

  // Send test event: a test delivery in the log. (It is delivered once the app has its producer
  // binding for coursefront-webhook-deliveries; until then the worker's sweep picks it up.)
  await page.getByRole('button', { name: 'Send test event' }).click()
  await expectText(page.getByRole('status'), 'Webhook test scheduled')
  assert.equal(await page.locator('[data-delivery-row]').count(), 2)
  await expectText(page.locator('[data-delivery-row]').first(), 'test')

  // Delete (typing DELETE): gone from the list.
  await page.getByLabel('Type DELETE to delete this webhook and its delivery log').fill('DELETE')
  await page.getByRole('button', { name: 'Delete webhook' }).click()
  await expectUrl(page, HOST, '/home/webhooks')
  await page.locator('[data-done="deleted"]').waitFor()
  await expectText(page.getByRole('status'), 'Webhook deleted')
  assert.equal(await page.locator(`a[href="${webhookPath}"]`).count(), 0)
})
