// The live topic feed's socket through the app (issue 22 item 7, ADR 029): a reader's socket on
// /community/topics/{id}/live gets a small hint ({kind, topicId, postId}, no content) when a post
// is published through the page or a comment is written on a post of the topic; a socket on
// another topic gets nothing; another school's topic, a restricted topic the viewer may not read,
// a visitor and a foreign Origin are refused; a request that is not an upgrade is 426.
import { env } from 'cloudflare:workers'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPost, createTopic } from '#app/models/community.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'

let school: TestSchool
let other: TestSchool
let reader: string
let writer: string
let stranger: string
let readerId: string
let publicTopic: string
let quietTopic: string
let membersTopic: string

const topicInput = { description: '', allowStudentsToAddPosts: true, productIds: [] as string[], courseId: null }
const open: WebSocket[] = []

type Hint = { kind: string; topicId: string; postId: string }

function upgrade(host: string, topicId: string, cookie?: string, origin = `http://${host}`) {
  return appFetch(host, `/community/topics/${topicId}/live`, { cookie, headers: { Upgrade: 'websocket', Connection: 'Upgrade', Origin: origin } })
}

/** A socket on a topic's live feed, with the hints it receives. */
async function listen(topicId: string, cookie: string) {
  const res = await upgrade(school.host, topicId, cookie)
  expect(res.status).toBe(101)
  const ws = res.webSocket
  if (!ws) throw new Error('no WebSocket in the 101 answer')
  ws.accept()
  open.push(ws)
  const hints: Hint[] = []
  const raw: string[] = []
  ws.addEventListener('message', (event) => {
    raw.push(String(event.data))
    hints.push(JSON.parse(String(event.data)) as Hint)
  })
  return { ws, hints, raw }
}

async function waitFor(check: () => boolean, ms = 2000) {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) return false
    await new Promise((r) => setTimeout(r, 20))
  }
  return true
}

function publish(topicId: string, cookie: string, title: string, body: string) {
  const form = new FormData()
  for (const [k, v] of Object.entries({ intent: 'create', title, body })) form.set(k, v)
  return appFetch(school.host, `/community/topics/${topicId}`, { method: 'POST', body: form, cookie })
}

beforeAll(async () => {
  school = await createTestSchool({ name: 'Live Loom' })
  other = await createTestSchool()
  const membership = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Loom members', published: true })
  publicTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Open studio', access: 'public' })).id
  quietTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Quiet corner', access: 'public' })).id
  membersTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Members loom', access: 'restricted', productIds: [membership.id] })).id
  const r = await createTestStudent(school.tenantId, { name: 'Rita Reader' })
  const w = await createTestStudent(school.tenantId, { name: 'Wes Writer' })
  readerId = r.id
  reader = await login(school.host, r.email, r.password)
  writer = await login(school.host, w.email, w.password)
  const o = await createTestStudent(other.tenantId)
  stranger = await login(other.host, o.email, o.password)
})

afterEach(() => {
  for (const ws of open.splice(0)) ws.close(1000)
})

describe('live topic feed', () => {
  it('sends an open feed a hint, without content, when a post is published through the page', async () => {
    const feed = await listen(publicTopic, reader)
    const elsewhere = await listen(quietTopic, reader)
    const res = await publish(publicTopic, writer, 'Warp and weft today', 'A secret pattern in the body')
    expect(res.status).toBe(302)
    const row = await env.DB_SHARD_0.prepare('SELECT id FROM community_posts WHERE topic_id = ? AND title = ?').bind(publicTopic, 'Warp and weft today').first<{ id: string }>()
    expect(row).toBeTruthy()
    expect(await waitFor(() => feed.hints.length > 0)).toBe(true)
    expect(feed.hints).toEqual([{ kind: 'post_created', topicId: publicTopic, postId: row!.id }])
    expect(feed.raw.join('')).not.toContain('Warp')
    expect(feed.raw.join('')).not.toContain('secret')
    // Another topic's feed hears nothing.
    await new Promise((r) => setTimeout(r, 200))
    expect(elsewhere.hints).toEqual([])
  })

  it('sends a comments hint when a comment is written on a post of the topic', async () => {
    const post = await createPost(
      db(),
      school.tenantId,
      publicTopic,
      { id: readerId, name: 'Rita Reader', role: 'student' },
      { title: 'Thread count', body: 'What do you use?', imagePath: null, videoUrl: null, videoId: null },
    )
    const feed = await listen(publicTopic, reader)
    const headers = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': 'application/json' }
    const res = await appFetch(school.host, '/comments', { method: 'POST', headers, body: JSON.stringify({ id: post.id, type: 'community_post', body: 'Cotton, mostly', file: 0 }), cookie: writer })
    expect(res.status).toBe(201)
    expect(await waitFor(() => feed.hints.length > 0)).toBe(true)
    expect(feed.hints).toEqual([{ kind: 'comments_changed', topicId: publicTopic, postId: post.id }])
  })

  it('answers a request that is not a WebSocket upgrade with 426', async () => {
    const res = await appFetch(school.host, `/community/topics/${publicTopic}/live`, { cookie: reader })
    expect(res.status).toBe(426)
    expect(res.headers.get('Upgrade')).toBe('websocket')
    expect(res.webSocket).toBeNull()
  })

  it('is 404 for another school, a topic the viewer may not read, and a visitor; 403 from another origin', async () => {
    // Another school's topic, from that school's host with its student's cookie: 404 before anything.
    const foreign = await upgrade(other.host, publicTopic, stranger)
    expect(foreign.status).toBe(404)
    expect(foreign.webSocket).toBeNull()
    expect((await appFetch(other.host, `/community/topics/${publicTopic}/live`, { cookie: stranger })).status).toBe(404)
    // A restricted topic the student has no membership for.
    const restricted = await upgrade(school.host, membersTopic, reader)
    expect(restricted.status).toBe(404)
    expect(restricted.webSocket).toBeNull()
    // A visitor without a session.
    expect((await upgrade(school.host, publicTopic)).status).toBe(404)
    // A page of another site opening the socket with the reader's cookie.
    const crossSite = await upgrade(school.host, publicTopic, reader, 'https://evil.example')
    expect(crossSite.status).toBe(403)
    expect(crossSite.webSocket).toBeNull()
  })
})
