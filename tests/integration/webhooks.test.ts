// Webhooks in /home through the app (issue 9 item 1): owners and admins only, create with the
// secret shown once and sealed at rest, the target rules and the duplicate refusal as field errors
// in the school's language (nothing written), the delivery log with paging, send test event,
// redeliver, enable/disable, delete with DELETE, and another school's ids. Delivery itself is
// tested in workers/webhooks.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { claimDeliveryAttempt, createWebhook, getWebhook, getWebhookDelivery, listWebhookDeliveries, markDeliveryFinal, recordDeliveryAttempt, scheduleTestDelivery } from '#app/models/webhook.server.ts'
import { openSecret } from '#app/utils/secret-box.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'
import { routes as crossTenantRoutes, victims } from './cross-tenant/webhooks.ts'

const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
let school: TestSchool
let other: TestSchool
let owner: string
let student: string
let otherOwner: string

const count = async (tenantId: string) => (await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM webhooks WHERE tenant_id = ?').bind(tenantId).first<{ n: number }>())!.n
const form = (path: string, body: Record<string, string>, cookie = owner, host = school.host) => appFetch(host, path, { form: body, cookie })
const page = async (path: string, cookie = owner, host = school.host) => {
  const res = await appFetch(host, path, { cookie })
  return { status: res.status, html: await res.text() }
}

async function webhookOf(s: TestSchool, url = `http://webhooks.dev-peers.internal/webhook-receiver/${crypto.randomUUID().slice(0, 8)}`) {
  const created = await createWebhook(db(), KEY, s.tenantId, { event: 'student.paid', url })
  if (!created.ok) throw new Error('webhook')
  return created.webhook
}

/** A delivery whose retries ran out (as the worker leaves it). */
async function deadDelivery(tenantId: string, webhook: { id: string; event: 'student.paid' | 'student.registered' }) {
  const { delivery } = await scheduleTestDelivery(db(), undefined, tenantId, webhook)
  for (let i = 0; i < 3; i++) {
    await claimDeliveryAttempt(db(), tenantId, delivery.id, i)
    await recordDeliveryAttempt(db(), tenantId, delivery.id, { delivered: false, statusCode: 500, durationMs: 12, error: 'HTTP 500' })
  }
  await markDeliveryFinal(db(), tenantId, delivery.id, 'dead', null)
  return delivery
}

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool({ language: 'pl' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  otherOwner = await login(other.host, other.owner.email, other.owner.password)
  const s = await createTestStudent(school.tenantId)
  student = await login(school.host, s.email, s.password)
})

describe('/home/webhooks', () => {
  it('is for owners and admins: a visitor is sent to log in, a student gets 404', async () => {
    expect((await page('/home/webhooks')).status).toBe(200)
    const visitor = await appFetch(school.host, '/home/webhooks')
    expect(visitor.status).toBe(302)
    expect(visitor.headers.get('Location')).toContain('/login')
    expect((await page('/home/webhooks', student)).status).toBe(404)
    expect((await form('/home/webhooks', { event: 'student.paid', url: 'https://hooks.example.com/student' }, student)).status).toBe(404)
    expect(await count(school.tenantId)).toBe(0)
  })

  it('creates a webhook and shows its secret once; the secret is stored sealed', async () => {
    const res = await form('/home/webhooks', { event: 'student.registered', url: 'https://Hooks.Example.com/registered' })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Webhook created')
    const secret = /data-webhook-secret[^>]*value="(whsec_[A-Za-z0-9_-]+)"|value="(whsec_[A-Za-z0-9_-]+)"[^>]*data-webhook-secret/.exec(html)
    const plain = secret?.[1] ?? secret?.[2]
    expect(plain).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    const id = /data-webhook-created="([a-z0-9]+)"/.exec(html)![1]
    const row = await getWebhook(db(), school.tenantId, id)
    expect(row).toMatchObject({ event: 'student.registered', url: 'https://hooks.example.com/registered', enabled: true, secretHint: plain!.slice(-4) })
    expect(row!.secret).not.toContain(plain!.slice(6))
    expect(await openSecret(KEY, school.tenantId, 'webhook', row!.secret)).toBe(plain)
    // Another school's tenant cannot open it.
    expect(await openSecret(KEY, other.tenantId, 'webhook', row!.secret)).toBeNull()

    // Never shown again: the list and the webhook page carry only the last 4 characters.
    const list = await page('/home/webhooks')
    expect(list.html).toContain('https://hooks.example.com/registered')
    expect(list.html).not.toContain(plain!)
    const details = await page(`/home/webhooks/${id}`)
    expect(details.html).not.toContain(plain!)
    expect(details.html).toContain(`Signing secret ending in ${plain!.slice(-4)}`)
  })

  it('refuses bad input with field errors and writes nothing; a duplicate with the seed message', async () => {
    const before = await count(school.tenantId)
    const cases: [Record<string, string>, string][] = [
      [{ event: 'student.paid', url: '' }, 'This field is required'],
      [{ event: 'student.paid', url: 'not a url' }, 'Enter a full http(s) address'],
      [{ event: 'student.paid', url: 'ftp://example.com/x' }, 'Enter a full http(s) address'],
      [{ event: 'student.paid', url: 'https://user:pw@example.com/x' }, 'Do not put a user name or password'],
      [{ event: 'student.refunded', url: 'https://hooks.example.com/x' }, 'Choose one of the options'],
      [{ url: 'https://hooks.example.com/x' }, 'This field is required'],
    ]
    for (const [body, message] of cases) {
      const res = await form('/home/webhooks', body)
      expect(res.status, JSON.stringify(body)).toBe(422)
      expect(await res.text(), JSON.stringify(body)).toContain(message)
    }
    expect(await count(school.tenantId)).toBe(before)

    expect((await form('/home/webhooks', { event: 'student.paid', url: 'https://hooks.example.com/paid' })).status).toBe(200)
    const duplicate = await form('/home/webhooks', { event: 'student.paid', url: 'https://hooks.example.com/paid' })
    expect(duplicate.status).toBe(422)
    expect(await duplicate.text()).toContain('A duplicate integration is rejected')
    // The same URL for the other event is a different webhook.
    expect((await form('/home/webhooks', { event: 'student.registered', url: 'https://hooks.example.com/paid' })).status).toBe(200)
    expect(await count(school.tenantId)).toBe(before + 2)

    // In the school's language.
    const pl = await form('/home/webhooks', { event: 'student.paid', url: 'ftp://x' }, otherOwner, other.host)
    expect(await pl.text()).toContain('Podaj pełny adres http(s)')
  })
})

describe('/home/webhooks/:id', () => {
  it('sends a test event: a pending test delivery in the log, with the seed message', async () => {
    const webhook = await webhookOf(school)
    const res = await form(`/home/webhooks/${webhook.id}`, { intent: 'test' })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/home/webhooks/${webhook.id}`)
    expect(flashOf(res)).toMatchObject({ done: 'test', message: 'webhooks.done.test' })
    const { deliveries } = await listWebhookDeliveries(db(), school.tenantId, webhook.id)
    expect(deliveries).toHaveLength(1)
    expect(deliveries[0]).toMatchObject({ isTest: true, status: 'pending', attempts: 0, eventType: 'student.paid' })
    expect(deliveries[0].eventId).toMatch(/^test:/)
    const { html } = await page(`/home/webhooks/${webhook.id}`, followFlash(owner, res))
    expect(html).toContain('Webhook test scheduled')
    expect(html).toContain(`data-delivery-row="${deliveries[0].id}" data-delivery-status="pending"`)
  })

  it('shows a dead delivery as failed with its code, duration and attempts, and redelivers it with the attempts kept', async () => {
    const webhook = await webhookOf(school)
    const dead = await deadDelivery(school.tenantId, webhook)
    const before = await page(`/home/webhooks/${webhook.id}`)
    const row = new RegExp(`data-delivery-row="${dead.id}" data-delivery-status="failed"[\\s\\S]*?</tr>`).exec(before.html)?.[0] ?? ''
    expect(row).toContain('Failed')
    expect(row).toContain('500')
    expect(row).toContain('12 ms')
    expect(row).toMatch(/data-delivery-attempts="?[^>]*>3</)
    expect(row).toContain('Redeliver')

    const res = await form(`/home/webhooks/${webhook.id}`, { intent: 'redeliver', deliveryId: dead.id })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/home/webhooks/${webhook.id}`)
    expect(flashOf(res)).toMatchObject({ done: 'redeliver', message: 'webhooks.done.redeliver' })
    expect(await getWebhookDelivery(db(), school.tenantId, dead.id)).toMatchObject({ status: 'pending', attempts: 3 })
    const redelivered = (await page(`/home/webhooks/${webhook.id}`, followFlash(owner, res))).html
    expect(redelivered).toContain(`data-delivery-row="${dead.id}" data-delivery-status="retrying"`)
    expect(redelivered).toContain('data-done="redeliver"')

    // Pending now: not redeliverable (409, nothing changed); another school's delivery id is 404.
    const again = await form(`/home/webhooks/${webhook.id}`, { intent: 'redeliver', deliveryId: dead.id })
    expect(again.status).toBe(409)
    expect(await again.text()).toContain('Only failed deliveries can be sent again.')
    const foreignWebhook = await webhookOf(other)
    const foreign = await deadDelivery(other.tenantId, foreignWebhook)
    expect((await form(`/home/webhooks/${webhook.id}`, { intent: 'redeliver', deliveryId: foreign.id })).status).toBe(404)
    expect(await getWebhookDelivery(db(), other.tenantId, foreign.id)).toMatchObject({ status: 'dead' })
    // Another webhook's delivery of the same school is not this page's either.
    const sibling = await webhookOf(school)
    const siblingDead = await deadDelivery(school.tenantId, sibling)
    expect((await form(`/home/webhooks/${webhook.id}`, { intent: 'redeliver', deliveryId: siblingDead.id })).status).toBe(404)
  })

  it('pages the delivery log, 25 a page', async () => {
    const webhook = await webhookOf(school)
    for (let i = 0; i < 30; i++) await scheduleTestDelivery(db(), undefined, school.tenantId, webhook, Date.now() + i)
    const first = await page(`/home/webhooks/${webhook.id}`)
    const second = await page(`/home/webhooks/${webhook.id}?page=2`)
    expect(first.html.match(/data-delivery-row=/g)).toHaveLength(25)
    expect(second.html.match(/data-delivery-row=/g)).toHaveLength(5)
    expect(first.html).toContain('Page 1 of 2')
    expect((await page(`/home/webhooks/${webhook.id}?page=abc`)).status).toBe(200)
  })

  it('disables and enables; deletes only with DELETE typed, with its log', async () => {
    const webhook = await webhookOf(school)
    await scheduleTestDelivery(db(), undefined, school.tenantId, webhook)
    const disabled = await form(`/home/webhooks/${webhook.id}`, { intent: 'disable' })
    expect(disabled.headers.get('Location')).toBe(`/home/webhooks/${webhook.id}`)
    expect(flashOf(disabled)).toMatchObject({ done: 'disabled', message: 'webhooks.done.disabled' })
    expect((await getWebhook(db(), school.tenantId, webhook.id))?.enabled).toBe(false)
    expect((await form(`/home/webhooks/${webhook.id}`, { intent: 'enable' })).status).toBe(303)
    expect((await getWebhook(db(), school.tenantId, webhook.id))?.enabled).toBe(true)

    const unconfirmed = await form(`/home/webhooks/${webhook.id}`, { intent: 'delete', confirm: 'delete me' })
    expect(unconfirmed.status).toBe(422)
    expect(await unconfirmed.text()).toContain('Type DELETE to confirm.')
    expect(await getWebhook(db(), school.tenantId, webhook.id)).not.toBeNull()

    const res = await form(`/home/webhooks/${webhook.id}`, { intent: 'delete', confirm: 'DELETE' })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/home/webhooks')
    expect(flashOf(res)).toMatchObject({ done: 'deleted', message: 'webhooks.done.deleted' })
    expect(await getWebhook(db(), school.tenantId, webhook.id)).toBeNull()
    expect((await listWebhookDeliveries(db(), school.tenantId, webhook.id)).total).toBe(0)
    expect((await page('/home/webhooks', followFlash(owner, res))).html).toContain('Webhook deleted')
    expect((await page(`/home/webhooks/${webhook.id}`)).status).toBe(404)
  })

  it('a bad intent is 400 and changes nothing', async () => {
    const webhook = await webhookOf(school)
    expect((await form(`/home/webhooks/${webhook.id}`, { intent: 'explode' })).status).toBe(400)
    expect((await form(`/home/webhooks/${webhook.id}`, { intent: 'redeliver' })).status).toBe(400)
    expect(await getWebhook(db(), school.tenantId, webhook.id)).toMatchObject({ enabled: true })
  })
})

describe('cross-tenant registry of this area (tests/integration/cross-tenant/webhooks.ts)', () => {
  it('every probe is 404 from another school (student, owner, visitor); controls hold at home', async () => {
    const objects = await victims({ tenantId: school.tenantId, ownerId: school.owner.id, studentId: '' })
    const otherStudent = await createTestStudent(other.tenantId)
    const otherStudentCookie = await login(other.host, otherStudent.email, otherStudent.password)
    for (const [route, probes] of Object.entries(crossTenantRoutes)) {
      for (const probe of probes) {
        for (const cookie of [otherStudentCookie, otherOwner, undefined]) {
          const res = await appFetch(other.host, probe.path(objects as never), { method: probe.method, form: probe.form, cookie })
          expect(res.status, `${probe.method} ${route} ${JSON.stringify(probe.form ?? {})}`).toBe(404)
        }
        if (probe.control) expect((await appFetch(school.host, probe.path(objects as never), { method: probe.method, form: probe.form })).status, `control ${route}`).toBe(probe.control.status)
      }
    }
    expect(await getWebhook(db(), school.tenantId, objects.webhookId)).toMatchObject({ enabled: true })
    expect((await listWebhookDeliveries(db(), school.tenantId, objects.webhookId)).total).toBe(1)
  })
})
