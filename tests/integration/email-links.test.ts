// Issue 19 §6: every e-mailed link is built from the school's configured primary host (its active
// primary custom domain, else {slug}.{PLATFORM_HOST}) and the deployment's scheme (https; in
// development/tests http and the local stack's PUBLIC_PORT) — never from the request's Host
// header, whose port (`:6666`) or scheme an attacker chooses.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { and, desc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { domains, emailOutbox } from '#app/db/schema.server.ts'
import { notifyStaff } from '#app/models/notification.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTransaction, settleTransaction } from '#app/models/transaction.server.ts'
import { afterSale } from '#app/payments/after-sale.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool, control } from '#tests/factories.ts'

async function mailsTo(tenantId: string, to: string) {
  return db().select().from(emailOutbox).where(and(eq(emailOutbox.tenantId, tenantId), eq(emailOutbox.toAddress, to))).orderBy(desc(emailOutbox.createdAt))
}

/** Every http(s) URL in a mail's text body. */
const linksIn = (text: string) => [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0])

async function requestReset(host: string, email: string, vars?: Record<string, string>) {
  const res = await appFetch(host, '/forgot-password', { form: { email }, vars })
  expect(res.status).toBe(200)
}

async function makePrimary(school: TestSchool, hostname: string) {
  const now = Date.now()
  await control().insert(domains).values({ id: `dom-${hostname}`, tenantId: school.tenantId, hostname, kind: 'custom', verificationStatus: 'active', isPrimary: true, createdAt: now, updatedAt: now })
}

describe('password reset link', () => {
  it('a Host header carrying :6666 does not reach the link: the school host, no port in tests', async () => {
    const school = await createTestSchool()
    await requestReset(`${school.host}:6666`, school.owner.email)
    const [mail] = await mailsTo(school.tenantId, school.owner.email)
    const links = linksIn(mail.textBody)
    expect(links.length).toBeGreaterThan(0)
    expect(links.every((l) => l.startsWith(`http://${school.host}/reset-password/`)), links.join(' ')).toBe(true)
    expect(mail.textBody + mail.htmlBody).not.toContain('6666')
  })

  it('development: the configured PUBLIC_PORT of the local stack, whatever port the request named', async () => {
    const school = await createTestSchool()
    await requestReset(`${school.host}:1`, school.owner.email, { PUBLIC_PORT: '8787' })
    const [mail] = await mailsTo(school.tenantId, school.owner.email)
    expect(linksIn(mail.textBody)[0]).toMatch(new RegExp(`^http://${school.host.replace(/\./g, '\\.')}:8787/reset-password/[^/]+$`))
    expect(mail.htmlBody).not.toContain(`${school.host}:1/`)
  })

  it('production: https on the school host, no port, even with PUBLIC_PORT set and a crafted port', async () => {
    const school = await createTestSchool()
    await requestReset(`${school.host}:6666`, school.owner.email, { ENVIRONMENT: 'production', PUBLIC_PORT: '6666' })
    const [mail] = await mailsTo(school.tenantId, school.owner.email)
    expect(linksIn(mail.textBody).every((l) => l.startsWith(`https://${school.host}/reset-password/`))).toBe(true)
    expect(mail.textBody).not.toContain('6666')
  })

  it('a school with an active primary custom domain: the link is on that domain, even when asked on the subdomain', async () => {
    const school = await createTestSchool()
    const custom = `kurs.${school.slug}.test`
    await makePrimary(school, custom)
    await requestReset(`${school.host}:6666`, school.owner.email)
    const [mail] = await mailsTo(school.tenantId, school.owner.email)
    expect(linksIn(mail.textBody).every((l) => l.startsWith(`http://${custom}/reset-password/`)), mail.textBody).toBe(true)
  })
})

describe('seat invitations', () => {
  it('the invitation link uses the configured origin, not the Host of the buyer\'s request', async () => {
    const school = await createTestSchool()
    const buyer = await createTestStudent(school.tenantId, { name: 'Bea Buyer' })
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Team course', published: true })
    const tx = await createTransaction(db(), school.tenantId, {
      userId: buyer.id,
      productId: course.id,
      productKind: 'course',
      productTitle: 'Team course',
      quantity: 2,
      currency: 'USD',
      unitAmount: 4900,
      totalAmount: 9800,
      buyer: JSON.stringify({ name: 'Bea Buyer', email: buyer.email }),
      termsAcceptedAt: Date.now(),
      checkoutPath: '/team-course/checkout',
    })
    await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'test', eventKey: `${tx.id}:paid`, providerStatus: 'PAID', status: 'completed' }, status: 'completed' })
    const cookie = await login(school.host, buyer.email, buyer.password)
    const invitee = `invitee-${tx.id}@example.com`
    const res = await appFetch(`${school.host}:6666`, `/home/access-manager/${course.id}`, {
      method: 'POST',
      headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify({ course_id: course.id, parent_transaction_id: tx.hash, name: 'Ivy Invitee', email: invitee }),
      cookie,
      vars: { PUBLIC_PORT: '8787' },
    })
    expect(res.status).toBe(201)
    const [mail] = await mailsTo(school.tenantId, invitee)
    const links = linksIn(mail.textBody)
    expect(links.length).toBeGreaterThan(0)
    expect(links.every((l) => l.startsWith(`http://${school.host}:8787/invitation/`)), links.join(' ')).toBe(true)
    expect(mail.textBody + mail.htmlBody).not.toContain('6666')
  })
})

describe('mails sent after a sale and to staff', () => {
  /** A load context as a request on `host` would give one, with vars over the test env. */
  function contextFor(school: TestSchool, vars: Record<string, string>) {
    return {
      cloudflare: { env: { ...env, ...vars }, ctx: createExecutionContext() },
      db: db(),
      control: control(),
      site: { kind: 'school', hostname: school.host, via: 'subdomain', tenant: { id: school.tenantId, slug: school.slug, name: `School ${school.slug}`, status: 'active', language: 'en', currency: 'USD', avatarPath: null, coverPath: null }, primaryHostname: null },
      memo: new Map(),
    } as unknown as AppLoadContext
  }

  it('the receipt and the owner\'s sale notification ignore the request origin their caller passes', async () => {
    const school = await createTestSchool()
    const buyerEmail = `receipt-${school.slug}@example.com`
    const tx = await createTransaction(db(), school.tenantId, {
      productKind: 'course',
      productTitle: 'Solo course',
      quantity: 1,
      currency: 'USD',
      unitAmount: 4900,
      totalAmount: 4900,
      buyer: JSON.stringify({ name: 'Rita Receipt', email: buyerEmail }),
      termsAcceptedAt: Date.now(),
      checkoutPath: '/solo/checkout',
    })
    await settleTransaction(db(), school.tenantId, tx.id, { event: { provider: 'test', eventKey: `${tx.id}:paid`, providerStatus: 'PAID', status: 'completed' }, status: 'completed' })
    await afterSale(contextFor(school, { ENVIRONMENT: 'production' }), school.tenantId, tx.id, 'http://evil.example:6666')
    const [receipt] = await mailsTo(school.tenantId, buyerEmail)
    expect(linksIn(receipt.textBody)).toContain(`https://${school.host}/panel`)
    expect(receipt.textBody + receipt.htmlBody).not.toMatch(/evil\.example|6666/)
    const [sale] = await mailsTo(school.tenantId, school.owner.email)
    expect(sale.template).toBe('staff_sale')
    expect(linksIn(sale.textBody)).toContain(`https://${school.host}/home/transactions/${tx.id}`)
    expect(sale.textBody + sale.htmlBody).not.toMatch(/evil\.example|6666/)
  })

  it('a staff notification on behalf of another school (no matching site) reads that school\'s primary domain', async () => {
    const school = await createTestSchool()
    const custom = `www.${school.slug}.test`
    await makePrimary(school, custom)
    const elsewhere = await createTestSchool()
    await notifyStaff(contextFor(elsewhere, { PUBLIC_PORT: '8787' }), school.tenantId, { kind: 'review', subjectId: 'r1', actorName: 'Sam', excerpt: 'Great', link: '/home/reviews', origin: 'http://evil.example:6666' })
    const [mail] = await mailsTo(school.tenantId, school.owner.email)
    expect(linksIn(mail.textBody)).toContain(`http://${custom}:8787/home/reviews`)
    expect(mail.textBody).not.toMatch(/evil\.example|6666/)
  })
})
