// /home/integrations/mailchimp against the Mailchimp peer through the app's DEV_PEERS binding:
// connect refused (bad key, missing list, no FNAME) with nothing written, connect, duplicate
// refused with the seed's message, options, the members table, disconnect after DELETE; and the
// producers (lead form, after a sale) that queue a MailingJob without ever failing their write.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { transactions } from '#app/db/schema.server.ts'
import { subscribeFromJob, type MailingEnv } from '#app/mailing/subscribe.server.ts'
import { getActiveIntegrationOfKind, integrationSettings } from '#app/models/business-integration.server.ts'
import { saveLead } from '#app/models/lead.server.ts'
import { afterSale } from '#app/payments/after-sale.server.ts'
import { submitLead } from '#app/storefront/lead-submission.server.ts'
import type { MailingJob } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool, d1For } from '#tests/factories.ts'

const testEnv = env as unknown as MailingEnv & { DB: D1Database; DB_SHARD_0: D1Database; DEV_PEERS: Fetcher; INTEGRATIONS_KEY: string }
const KEY = 'c0ffee00c0ffee00c0ffee00c0ffee00-us21'
const PATH = '/home/integrations/mailchimp'
const count = async (sql: string, ...binds: unknown[]) => (await d1For(sql).prepare(sql).bind(...binds).first<{ n: number }>())!.n

let school: TestSchool
let cookie: string

beforeAll(async () => {
  school = await createTestSchool()
  cookie = await login(school.host, school.owner.email, school.owner.password)
})

const connect = (form: Record<string, string>) => appFetch(school.host, PATH, { cookie, form: { intent: 'connect', subscribeBuyers: 'on', subscribeLeads: 'on', ...form } })

describe('/home/integrations/mailchimp', () => {
  it('is for owners and admins only', async () => {
    const student = await createTestStudent(school.tenantId)
    const studentCookie = await login(school.host, student.email, student.password)
    const res = await appFetch(school.host, PATH, { cookie: studentCookie })
    expect([302, 303, 403, 404]).toContain(res.status)
    expect((await appFetch(school.host, PATH)).status).toBe(302)
  })

  it('refuses a bad key, a missing list and a list without FNAME, writing nothing', async () => {
    const shapeless = await connect({ apiKey: 'not-a-key', listId: 'c0de000001' })
    expect(shapeless.status).toBe(422)
    expect(await shapeless.text()).toContain('This is not a Mailchimp API key')

    const wrong = await connect({ apiKey: 'deadbeefdeadbeefdeadbeefdeadbeef-us21', listId: 'c0de000001' })
    expect(wrong.status).toBe(422)
    const wrongPage = await wrong.text()
    expect(wrongPage).toContain('Mailchimp refused this API key.')
    expect(wrongPage).not.toContain('deadbeefdeadbeef')

    const missing = await connect({ apiKey: KEY, listId: 'ffffffffff' })
    expect(missing.status).toBe(422)
    const missingPage = await missing.text()
    expect(missingPage).toContain('Mailchimp has no list with this id on your account.')
    expect(missingPage).toContain('value="ffffffffff"')

    const noFname = await connect({ apiKey: KEY, listId: 'c0de000002' })
    expect(noFname.status).toBe(422)
    expect(await noFname.text()).toContain('This list has no FNAME merge tag.')

    const badList = await connect({ apiKey: KEY, listId: 'x y' })
    expect(badList.status).toBe(422)
    expect(await badList.text()).toContain('A list id has letters and digits only')

    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(0)
  })

  it('connects, refuses a duplicate, saves options, lists members, and disconnects after DELETE', async () => {
    const created = await connect({ apiKey: KEY, listId: 'c0de000001' })
    expect(created.status).toBe(303)
    expect(created.headers.get('Location')).toBe(PATH)
    expect(flashOf(created)).toMatchObject({ done: 'created', message: 'mailing.done.created' })
    const page = await (await appFetch(school.host, PATH, { cookie: followFlash(cookie, created) })).text()
    expect(page).toContain('Integration created')
    expect(page).toContain('…ee00-us21')
    expect(page).toContain('Newsletter')
    expect(page).not.toContain(KEY)
    expect(page).toContain('Nobody has been subscribed yet.')
    const row = await testEnv.DB_SHARD_0.prepare('SELECT credentials, public_ref, settings FROM business_integrations WHERE tenant_id = ?').bind(school.tenantId).first<{ credentials: string; public_ref: string; settings: string }>()
    expect(row!.credentials).not.toContain('c0ffee00')
    expect(JSON.parse(row!.settings)).toEqual({ listId: 'c0de000001', listName: 'Newsletter', subscribeBuyers: true, subscribeLeads: true })

    const duplicate = await connect({ apiKey: KEY, listId: 'c0de000001' })
    expect(duplicate.status).toBe(409)
    expect(await duplicate.text()).toContain('A duplicate integration is rejected: Mailchimp is already connected as your mailing tool.')
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(1)

    // Unticked checkboxes are absent from the post: leads off.
    const saved = await appFetch(school.host, PATH, { cookie, form: { intent: 'options', subscribeBuyers: 'on' } })
    expect(saved.headers.get('Location')).toBe(PATH)
    expect(flashOf(saved)).toMatchObject({ done: 'saved', message: 'mailing.done.saved' })
    const integration = (await getActiveIntegrationOfKind(db(), school.tenantId, 'mailing'))!
    expect(integrationSettings(integration)).toMatchObject({ subscribeBuyers: true, subscribeLeads: false })
    expect(await (await appFetch(school.host, PATH, { cookie: followFlash(cookie, saved) })).text()).toContain('Changes saved')
    await appFetch(school.host, PATH, { cookie, form: { intent: 'options', subscribeBuyers: 'on', subscribeLeads: 'on' } })

    // A consenting lead, subscribed the way the mail worker does it: the table shows it.
    const email = `lead-${Date.now().toString(36)}@example.com`
    const lead = await saveLead(db(), school.tenantId, { email, name: 'Lena', source: 'subpage:offer', fields: { name: 'Lena', email, consent: true } })
    const outcome = await subscribeFromJob(db(), testEnv, { tenantId: school.tenantId, source: 'lead', subjectId: lead.id }, { final: false })
    expect(outcome.kind).toBe('subscribed')
    const withMember = await (await appFetch(school.host, PATH, { cookie })).text()
    expect(withMember).toMatch(new RegExp(`data-mailing-member="${email}" data-status="subscribed"`))
    expect(withMember).toContain('Subscribed')

    const unconfirmed = await appFetch(school.host, PATH, { cookie, form: { intent: 'disconnect', confirm: 'delete me' } })
    expect(unconfirmed.status).toBe(422)
    expect(await unconfirmed.text()).toContain('Type DELETE to confirm.')
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(1)

    const deleted = await appFetch(school.host, PATH, { cookie, form: { intent: 'disconnect', confirm: 'DELETE' } })
    expect(deleted.headers.get('Location')).toBe(PATH)
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted', message: 'mailing.done.deleted' })
    const after = await (await appFetch(school.host, PATH, { cookie: followFlash(cookie, deleted) })).text()
    expect(after).toContain('Integration deleted')
    expect(after).toContain('Connect Mailchimp')
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', school.tenantId)).toBe(0)
    expect(await count('SELECT count(*) AS n FROM mailing_members WHERE tenant_id = ?', school.tenantId)).toBe(0)
  })

  it("shows a school only its own integration", async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const aCookie = await login(a.host, a.owner.email, a.owner.password)
    expect((await appFetch(a.host, PATH, { cookie: aCookie, form: { intent: 'connect', apiKey: KEY, listId: 'c0de000001' } })).status).toBe(303)
    const bCookie = await login(b.host, b.owner.email, b.owner.password)
    const bPage = await (await appFetch(b.host, PATH, { cookie: bCookie })).text()
    expect(bPage).toContain('Connect Mailchimp')
    expect(bPage).not.toContain('…ee00-us21')
    // A's cookie is not a session on B's host.
    expect((await appFetch(b.host, PATH, { cookie: aCookie, form: { intent: 'disconnect', confirm: 'DELETE' } })).status).not.toBe(303)
    expect(await count('SELECT count(*) AS n FROM business_integrations WHERE tenant_id = ?', a.tenantId)).toBe(1)
  })
})

/** Records what the producers send; `fail` makes send() throw like an unavailable queue. */
function recordingQueue(fail = false) {
  const sent: MailingJob[] = []
  const queue = {
    send: async (job: MailingJob) => {
      if (fail) throw new Error('queue unavailable')
      sent.push(job)
    },
  } as unknown as Queue<MailingJob>
  return { queue, sent }
}

describe('mailing producers', () => {
  async function leadFormSchool() {
    const s = await createTestSchool()
    const blockId = `lead-${Date.now().toString(36)}`
    const now = Date.now()
    await testEnv.DB_SHARD_0.prepare("INSERT INTO subpages (id, tenant_id, slug, title, published, created_at, updated_at) VALUES (?, ?, 'offer', 'Offer', 1, ?, ?)").bind(`sp-${blockId}`, s.tenantId, now, now).run()
    const props = {
      fields: [
        { label: 'Email', placeholder: '', name: 'email', type: 'email', required: true, checked: false, options: [] },
        { label: 'Consent', placeholder: '', name: 'consent', type: 'checkbox', required: false, checked: false, options: [] },
      ],
      hiddenFields: [],
      labels: true,
      successHeader: '',
      successText: '',
      redirectTo: '',
      buttonText: 'Send',
      buttonClass: '',
    }
    await testEnv.DB_SHARD_0.prepare("INSERT INTO blocks (id, tenant_id, subpage_id, type, position, props, created_at, updated_at) VALUES (?, ?, ?, 'lead_form', 0, ?, ?, ?)").bind(blockId, s.tenantId, `sp-${blockId}`, JSON.stringify(props), now, now).run()
    return { school: s, blockId }
  }

  it('the lead form queues one job after storing the lead, and a failing queue does not fail it', async () => {
    const { school: s, blockId } = await leadFormSchool().catch((e: unknown) => {
      throw new Error(`lead form fixture: ${String(e)}`)
    })
    const tenant = { id: s.tenantId, name: 'School', language: 'en' as const }
    const { queue, sent } = recordingQueue()
    const ok = await submitLead({ db: db(), queue: undefined, origin: `http://${s.host}`, mailingQueue: queue }, tenant, '192.0.2.1', { block_id: blockId, email: 'Lena@Example.com', consent: 'on' })
    expect(ok.ok).toBe(true)
    const leadId = (await testEnv.DB_SHARD_0.prepare('SELECT id FROM leads WHERE tenant_id = ? AND email = ?').bind(s.tenantId, 'lena@example.com').first<{ id: string }>())!.id
    expect(sent).toEqual([{ tenantId: s.tenantId, source: 'lead', subjectId: leadId }])

    const broken = recordingQueue(true)
    const stillOk = await submitLead({ db: db(), queue: undefined, origin: `http://${s.host}`, mailingQueue: broken.queue }, tenant, '192.0.2.2', { block_id: blockId, email: 'max@example.com' })
    expect(stillOk.ok).toBe(true)
    expect(await count('SELECT count(*) AS n FROM leads WHERE tenant_id = ?', s.tenantId)).toBe(2)
  })

  it('a completed sale queues one buyer job; a pending one none', async () => {
    const s = await createTestSchool()
    const now = Date.now()
    const sale = async (status: 'completed' | 'pending') =>
      (
        await db()
          .insert(transactions)
          .values({ id: newId(), tenantId: s.tenantId, hash: newId(20), productKind: 'course', productTitle: 'Course', currency: 'USD', unitAmount: 1000, totalAmount: 1000, status, buyer: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com' }), termsAcceptedAt: now, checkoutPath: '/x', createdAt: now, updatedAt: now })
          .returning()
      )[0]!.id
    const { queue, sent } = recordingQueue()
    const context = { db: db(), cloudflare: { env: { ...env, MAIL_QUEUE: undefined, MAILING_QUEUE: queue }, ctx: { waitUntil() {} } } } as unknown as AppLoadContext
    const completed = await sale('completed')
    await afterSale(context, s.tenantId, completed, `http://${s.host}`)
    await afterSale(context, s.tenantId, await sale('pending'), `http://${s.host}`)
    expect(sent).toEqual([{ tenantId: s.tenantId, source: 'buyer', subjectId: completed }])
  })
})
