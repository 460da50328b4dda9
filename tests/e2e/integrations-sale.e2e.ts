// Issue 9's acceptance in one sale: Akademia Kasi is seeded with Fakturownia, Mailchimp and a
// "student has paid" webhook pointing at the dev peers' receiver (tenants/akademia-kasi.json). A
// visitor buys a course with the test provider; through the queues (events → webhooks worker →
// deliveries; invoicing; mailing → mail worker) the sale produces exactly one signed webhook
// delivery, one invoice in the Fakturownia peer and one Mailchimp member — checked in the peers and
// on the owner's pages (delivery log, the transaction's invoice, the Mailchimp member list), and the
// buyer finds the invoice in /panel.
import assert from 'node:assert/strict'
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Page } from 'playwright-core'
import { browserTest, buyAsNewVisitor, demoSchool, demoUser, expectText, logIn, snap, subdomain, unique, url, visit } from './support.ts'

const kasi = demoSchool('akademia-kasi')
const KASI = subdomain(kasi.slug)
const owner = demoUser(kasi, 'owner')
const INBOX = 'akademia-kasi'
const SECRET = 'whsec_akademia_kasi_demo_secret_0000'
const COURSE = 'budzet-domowy-od-zera'

type Received = { headers: Record<string, string>; body: string; status: number }
type PeerInvoice = { reference: string | null; number: string }

/** JSON from a dev peer's control endpoint (reached in development through the S3 host, which forwards to the peers). */
async function peerJson<T>(page: Page, path: string): Promise<T> {
  await visit(page, url('s3.localhost', path))
  return JSON.parse(await page.locator('body').innerText()) as T
}

/** student.paid carries the buyer as `data.buyer` (docs/webhooks.md). */
const buyerOf = (r: Received) => (JSON.parse(r.body) as { data?: { buyer?: { email?: string } } }).data?.buyer?.email

function verify(secret: string, header: string, body: string) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]))
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex')
  return timingSafeEqual(Buffer.from(expected), Buffer.from(parts.v1 ?? ''))
}

/** Polls `check` (the queues work in the background) until it returns a value, up to ~30 s. */
async function eventually<T>(what: string, check: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 30; i++) {
    const value = await check()
    if (value !== null) return value
    await new Promise((r) => setTimeout(r, 1000))
  }
  assert.fail(`never happened: ${what}`)
}

browserTest('one sale at a school with every integration: one signed webhook, one Fakturownia invoice, one Mailchimp member', async ({ page, newContext }) => {
  const email = `${unique('integrated')}@example.com`
  await buyAsNewVisitor(page, KASI, COURSE, { name: 'Iga Zintegrowana', email, password: 'iga-pass-123' }, 'pl')
  const hash = /\/transaction\/([^/?#]+)/.exec(page.url())?.[1]
  assert.ok(hash, `the pending page's URL carries the transaction hash: ${page.url()}`)

  const peer = await (await newContext()).newPage()
  // The webhook receiver: one POST for this buyer, signed with the seeded secret.
  const posts = await eventually('the webhook delivery', async () => {
    const { requests } = await peerJson<{ requests: Received[] }>(peer, `/webhook-receiver/${INBOX}/_log`)
    const mine = requests.filter((r) => buyerOf(r) === email)
    return mine.length ? mine : null
  })
  const [post] = posts
  const body = JSON.parse(post!.body) as { id: string; type: string; data: { transactionId: string } }
  assert.equal(body.type, 'student.paid')
  assert.equal(post!.headers['coursefront-event-id'], body.id)
  assert.ok(verify(SECRET, post!.headers['coursefront-signature']!, post!.body), 'the signature verifies with the webhook secret')

  // The Fakturownia peer: one invoice whose reference is this transaction.
  const invoice = await eventually('the Fakturownia invoice', async () => {
    const { invoices } = await peerJson<{ invoices: PeerInvoice[] }>(peer, '/_peer/invoicing/invoices?system=fakturownia&account=coursefront-dev')
    const mine = invoices.filter((i) => i.reference === hash)
    return mine.length ? mine : null
  })
  assert.equal(invoice.length, 1, 'one invoice')

  // The owner's side: the delivery log, the transaction's invoice, the Mailchimp member.
  const ownerPage = await (await newContext()).newPage()
  await logIn(ownerPage, KASI, owner.email, owner.password)
  await visit(ownerPage, url(KASI, '/home/integrations/mailchimp'))
  const member = ownerPage.locator(`[data-mailing-member="${email}"]`)
  await eventually('the Mailchimp member', async () => {
    await visit(ownerPage, url(KASI, '/home/integrations/mailchimp'))
    return (await member.getAttribute('data-status').catch(() => null)) === 'subscribed' ? true : null
  })
  await snap(ownerPage, 'mailchimp-member')

  await visit(ownerPage, url(KASI, `/home/transactions?email=${encodeURIComponent(email)}`))
  await ownerPage.locator('[data-transaction]', { hasText: email }).locator('a').last().click()
  await ownerPage.waitForURL(/\/home\/transactions\/[a-z0-9]+$/)
  await expectText(ownerPage.locator('[data-invoice-panel] [data-invoice-number]'), invoice[0]!.number)

  await visit(ownerPage, url(KASI, '/home/webhooks'))
  await ownerPage.locator('a[href^="/home/webhooks/"]', { hasText: `webhook-receiver/${INBOX}` }).first().click()
  await ownerPage.waitForURL(/\/home\/webhooks\/[a-z0-9]+$/)
  // The log shows the sale's delivery as delivered (newest first).
  await expectText(ownerPage.locator('[data-delivery-row]').first(), /Kursant zapłacił/)
  assert.equal(await ownerPage.locator('[data-delivery-row]').first().getAttribute('data-delivery-status'), 'delivered')
  await snap(ownerPage, 'delivery-log')

  // The buyer's invoice in /panel.
  await visit(page, url(KASI, '/panel'))
  await expectText(page.locator('[data-panel-invoices]'), `Faktura ${invoice[0]!.number}`)

  // Seconds later, still exactly one of each (no redelivery doubled anything).
  const { requests } = await peerJson<{ requests: Received[] }>(peer, `/webhook-receiver/${INBOX}/_log`)
  assert.equal(requests.filter((r) => buyerOf(r) === email).length, 1, 'one webhook delivery for the sale')
  const { invoices } = await peerJson<{ invoices: PeerInvoice[] }>(peer, '/_peer/invoicing/invoices?system=fakturownia&account=coursefront-dev')
  assert.equal(invoices.filter((i) => i.reference === hash).length, 1, 'one invoice for the sale')
})
