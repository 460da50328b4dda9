// Topic e-mail subscriptions (issue 22 item 6): a new post sends exactly one e-mail per subscriber
// (not to its author, not to a subscriber who can no longer read the topic), in the school's
// language, through the outbox; a second post within the hour waits for the digest the cron sends;
// the signed unsubscribe link works without logging in, and after it no e-mail comes.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { sendDueCommunityDigests } from '#app/community/topic-mail.server.ts'
import { grantProductAccess, revokeProductAccess } from '#app/models/access.server.ts'
import { createTopic, SUBSCRIPTION_EMAIL_GAP_MS } from '#app/models/community.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

type Mail = { to_address: string; template: string; subject: string; text_body: string; html_body: string }

let school: TestSchool
let polish: TestSchool
let owner: string
let ann: string
let annEmail: string
let bob: string
let bobEmail: string

const topicInput = { description: '', allowStudentsToAddPosts: true, productIds: [] as string[], courseId: null }

async function mailsTo(email: string, template?: string): Promise<Mail[]> {
  const { results } = await env.DB_SHARD_0.prepare(
    `SELECT to_address, template, subject, text_body, html_body FROM email_outbox WHERE to_address = ? ${template ? 'AND template = ?' : "AND template LIKE 'community_%'"} ORDER BY created_at`,
  )
    .bind(...(template ? [email, template] : [email]))
    .all<Mail>()
  return results
}

function publish(host: string, topicId: string, cookie: string, title: string, body = 'Something worth reading') {
  const form = new FormData()
  form.set('intent', 'create')
  form.set('title', title)
  form.set('body', body)
  return appFetch(host, `/community/topics/${topicId}`, { method: 'POST', body: form, cookie })
}

const subscribe = (host: string, topicId: string, cookie: string) => appFetch(host, `/community/topics/${topicId}`, { form: { intent: 'subscribe' }, cookie })

const unsubscribeLink = (mail: Mail) => /(https?:\/\/[^\s]+\/community\/unsubscribe\?token=[^\s]+)/.exec(mail.text_body)?.[1] ?? ''

beforeAll(async () => {
  school = await createTestSchool({ name: 'Pottery Hub' })
  polish = await createTestSchool({ name: 'Szkoła Ceramiki', language: 'pl' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  const a = await createTestStudent(school.tenantId, { name: 'Ann Author' })
  const b = await createTestStudent(school.tenantId, { name: 'Bob Reader' })
  annEmail = a.email
  bobEmail = b.email
  ann = await login(school.host, a.email, a.password)
  bob = await login(school.host, b.email, b.password)
})

describe('e-mail to subscribers', () => {
  it('sends exactly one e-mail per subscriber for a new post, none to its author; later posts in the hour wait for the digest', async () => {
    const topic = await createTopic(db(), school.tenantId, { ...topicInput, title: 'Glazes', access: 'public' })
    for (const cookie of [ann, bob]) expect((await subscribe(school.host, topic.id, cookie)).status).toBe(302)
    expect((await publish(school.host, topic.id, ann, 'Celadon recipe', 'My favourite celadon glaze')).status).toBe(302)
    const first = await mailsTo(bobEmail)
    expect(first).toHaveLength(1)
    expect(first[0]).toMatchObject({ template: 'community_post', subject: 'New post in Glazes — Pottery Hub' })
    expect(first[0]!.text_body).toContain('Ann Author wrote a new post in Glazes')
    expect(first[0]!.text_body).toMatch(new RegExp(`^Read the post: http://${school.host.replace(/\./g, '\\.')}/community/posts/\\w+$`, 'm'))
    expect(await mailsTo(annEmail)).toHaveLength(0)

    expect((await publish(school.host, topic.id, owner, 'Kiln schedule', 'Firing on **Friday**')).status).toBe(302)
    expect((await publish(school.host, topic.id, owner, 'Kiln schedule, part two', 'And on Sunday')).status).toBe(302)
    // Ann got her first e-mail now (she never had one); Bob waits for his digest.
    expect(await mailsTo(annEmail)).toHaveLength(1)
    expect(await mailsTo(bobEmail)).toHaveLength(1)

    const early = await sendDueCommunityDigests(env as never, Date.now() + 60_000)
    expect(await mailsTo(bobEmail)).toHaveLength(1)
    expect(early.sent).toBe(0)
    const later = Date.now() + SUBSCRIPTION_EMAIL_GAP_MS + 60_000
    await sendDueCommunityDigests(env as never, later)
    const digests = await mailsTo(bobEmail, 'community_digest')
    expect(digests).toHaveLength(1)
    expect(digests[0]!.subject).toBe('2 new posts in Glazes — Pottery Hub')
    expect(digests[0]!.text_body).toContain('Kiln schedule (Pottery Hub)')
    expect(digests[0]!.text_body).toContain('Kiln schedule, part two (Pottery Hub)')
    // Run again: nothing is due any more.
    await sendDueCommunityDigests(env as never, later + 1000)
    expect(await mailsTo(bobEmail, 'community_digest')).toHaveLength(1)
  })

  it('leaves out a subscriber who can no longer read a restricted topic', async () => {
    const club = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Glaze club', published: true })
    const c = await createTestStudent(school.tenantId, { name: 'Cid Lapsed' })
    await grantProductAccess(db(), school.tenantId, { productId: club.id, userId: c.id, source: 'manual' })
    const cid = await login(school.host, c.email, c.password)
    const topic = await createTopic(db(), school.tenantId, { ...topicInput, title: 'Club room', access: 'restricted', productIds: [club.id] })
    expect((await subscribe(school.host, topic.id, cid)).status).toBe(302)
    await revokeProductAccess(db(), school.tenantId, club.id, c.id, 'membership ended')
    expect((await publish(school.host, topic.id, owner, 'Members news', 'Only for members')).status).toBe(302)
    expect(await mailsTo(c.email)).toHaveLength(0)
  })

  it('writes in the school language', async () => {
    const topic = await createTopic(db(), polish.tenantId, { ...topicInput, title: 'Szkliwa', access: 'public' })
    const s = await createTestStudent(polish.tenantId, { name: 'Ola' })
    const ola = await login(polish.host, s.email, s.password)
    await subscribe(polish.host, topic.id, ola)
    const polishOwner = await login(polish.host, polish.owner.email, polish.owner.password)
    expect((await publish(polish.host, topic.id, polishOwner, 'Nowe szkliwo', 'Spróbujcie tego')).status).toBe(302)
    const [mail] = await mailsTo(s.email)
    expect(mail?.subject).toBe('Nowy post w temacie Szkliwa — Szkoła Ceramiki')
    expect(mail?.text_body).toContain('Wyłącz e-maile o temacie Szkliwa')
  })
})

describe('the unsubscribe link', () => {
  it('works without logging in, only on its own school, and stops the e-mails', async () => {
    const topic = await createTopic(db(), school.tenantId, { ...topicInput, title: 'Wheel tips', access: 'public' })
    const d = await createTestStudent(school.tenantId, { name: 'Dee Subscriber' })
    const dee = await login(school.host, d.email, d.password)
    await subscribe(school.host, topic.id, dee)
    await publish(school.host, topic.id, owner, 'Centering first', 'Always center first')
    const [mail] = await mailsTo(d.email)
    const link = new URL(unsubscribeLink(mail!))
    expect(link.host).toBe(school.host)
    const path = link.pathname + link.search

    // Another school's host, an altered token: not valid.
    const other = await createTestSchool()
    expect((await appFetch(other.host, path)).status).toBe(404)
    // The last character's two unused bits and a flipped character in the middle of the signature.
    const last = path.at(-1)!
    const sibling = String.fromCharCode(last.charCodeAt(0) + 1)
    expect((await appFetch(school.host, path.slice(0, -1) + sibling)).status).toBe(404)
    const middle = path.length - 10
    expect((await appFetch(school.host, path.slice(0, middle) + (path[middle] === 'A' ? 'B' : 'A') + path.slice(middle + 1))).status).toBe(404)

    const ask = await appFetch(school.host, path)
    expect(ask.status).toBe(200)
    expect(await ask.text()).toContain('Stop e-mails about new posts in Wheel tips?')
    // Opening the link alone changes nothing (mail scanners open links).
    const still = await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM community_subscriptions WHERE topic_id = ?').bind(topic.id).first<{ n: number }>()
    expect(still?.n).toBe(1)

    const token = link.searchParams.get('token')!
    const done = await appFetch(school.host, path, { form: { token } })
    expect(done.status).toBe(200)
    expect(await done.text()).toContain('You will not get e-mails about Wheel tips any more.')
    await publish(school.host, topic.id, owner, 'Trimming next', 'Trim when leather hard')
    expect(await mailsTo(d.email)).toHaveLength(1)
  })
})
