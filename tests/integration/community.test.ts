// Community pages through the app (issue 22; seed 000 widget 16, §3, §5, §6): who reads which topic
// (public / restricted by a membership), 404 for another school and for a topic the viewer may not
// read, the post editor's rules on the server (title, body, image size and content, YouTube/Vimeo
// only, image or video), plain text vs sanitized markdown, author-only edit/delete, the owner's
// delete and pin, keyset paging, comments on a post, subscriptions, and the panel's link.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createPost, createTopic } from '#app/models/community.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, login, type TestSchool } from '#tests/factories.ts'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...new Array(100).fill(7)])

let school: TestSchool
let other: TestSchool
let owner: string
let member: string
let memberId: string
let plain: string
let plainId: string
let stranger: string
let publicTopic: string
let membersTopic: string
let quietTopic: string

const topicInput = { description: '', allowStudentsToAddPosts: true, productIds: [] as string[], courseId: null }

function postForm(fields: Record<string, string>, image?: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string }) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  if (image) form.set('image', new File([image.bytes], image.name, { type: image.type }))
  return form
}

function publish(topicId: string, cookie: string, fields: Record<string, string>, image?: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string }) {
  return appFetch(school.host, `/community/topics/${topicId}`, { method: 'POST', body: postForm({ intent: 'create', ...fields }, image), cookie })
}

async function postsIn(topicId: string) {
  const { results } = await env.DB_SHARD_0.prepare('SELECT id, title, body, user_id, by_admin, image_path, video_url FROM community_posts WHERE topic_id = ? ORDER BY created_at')
    .bind(topicId)
    .all<Record<string, unknown>>()
  return results
}

beforeAll(async () => {
  school = await createTestSchool({ name: 'Clay Club' })
  other = await createTestSchool()
  const membership = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Studio members', published: true })
  publicTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Introductions', access: 'public' })).id
  membersTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Members lounge', access: 'restricted', productIds: [membership.id] })).id
  quietTopic = (await createTopic(db(), school.tenantId, { ...topicInput, title: 'Announcements', access: 'public', allowStudentsToAddPosts: false })).id
  const m = await createTestStudent(school.tenantId, { name: 'Mia Member' })
  const p = await createTestStudent(school.tenantId, { name: 'Pat Plain' })
  memberId = m.id
  plainId = p.id
  await grantProductAccess(db(), school.tenantId, { productId: membership.id, userId: m.id, source: 'manual' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  member = await login(school.host, m.email, m.password)
  plain = await login(school.host, p.email, p.password)
  const o = await createTestStudent(other.tenantId)
  stranger = await login(other.host, o.email, o.password)
})

describe('who reads which topic', () => {
  it('sends a visitor to log in and back', async () => {
    const res = await appFetch(school.host, `/community/topics/${publicTopic}`)
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent(`/community/topics/${publicTopic}`)}`)
  })

  it('shows a student without the membership only the public topics; the members topic is 404 to them', async () => {
    const home = await (await appFetch(school.host, '/community', { cookie: plain })).text()
    expect(home).toContain('Introductions')
    expect(home).toContain('Announcements')
    expect(home).not.toContain('Members lounge')
    expect((await appFetch(school.host, `/community/topics/${membersTopic}`, { cookie: plain })).status).toBe(404)
    expect(
      (await appFetch(school.host, `/community/topics/${membersTopic}`, { method: 'POST', body: postForm({ intent: 'create', title: 'Sneaking in', body: 'Let me in please' }), cookie: plain }))
        .status,
    ).toBe(404)
    expect(await postsIn(membersTopic)).toEqual([])
  })

  it('opens the members topic to a member and to the owner', async () => {
    for (const cookie of [member, owner]) {
      const res = await appFetch(school.host, `/community/topics/${membersTopic}`, { cookie })
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('Members lounge')
    }
  })

  it('answers 404 to another school, its students and its owner', async () => {
    expect((await appFetch(other.host, `/community/topics/${publicTopic}`, { cookie: stranger })).status).toBe(404)
    expect((await appFetch(other.host, `/community/topics/${publicTopic}`)).status).toBe(404)
    const post = await createPost(
      db(),
      school.tenantId,
      publicTopic,
      { id: memberId, name: 'Mia Member', role: 'student' },
      { title: 'Hello all', body: 'Nice to meet you', imagePath: null, videoUrl: null, videoId: null },
    )
    expect((await appFetch(other.host, `/community/posts/${post.id}`, { cookie: stranger })).status).toBe(404)
    expect((await appFetch(other.host, `/community/posts/${post.id}`, { method: 'POST', form: { intent: 'delete' }, cookie: stranger })).status).toBe(404)
    expect((await appFetch(school.host, `/community/posts/${post.id}`, { cookie: plain })).status).toBe(200)
  })
})

describe('the post editor on the server (seed 000 §5)', () => {
  it('refuses a short title, a short body, a foreign video link and an image with a video; writes nothing', async () => {
    const before = (await postsIn(publicTopic)).length
    const short = await publish(publicTopic, plain, { title: 'Hi', body: 'Four' })
    expect(short.status).toBe(422)
    const page = await short.text()
    expect(page).toContain('Must be at least 5 characters')
    const foreign = await publish(publicTopic, plain, { title: 'My video', body: 'Watch this one', video: 'https://www.dailymotion.com/video/x7tgad0' })
    expect(foreign.status).toBe(422)
    expect(await foreign.text()).toContain('Paste a link to a YouTube or Vimeo video.')
    const both = await publish(publicTopic, plain, { title: 'Both at once', body: 'Image and video', video: 'https://youtu.be/dQw4w9WgXcQ' }, { bytes: PNG, name: 'cat.png', type: 'image/png' })
    expect(both.status).toBe(422)
    expect(await both.text()).toContain('Attach an image or a video, not both.')
    expect((await postsIn(publicTopic)).length).toBe(before)
  })

  it('refuses a 700 KB image with the max-size message, and a file that is not the image it claims', async () => {
    const big = new Uint8Array(700 * 1024)
    big.set(PNG)
    const res = await publish(publicTopic, plain, { title: 'Big picture', body: 'Too large to post' }, { bytes: big, name: 'big.png', type: 'image/png' })
    expect(res.status).toBe(422)
    expect(await res.text()).toContain('The file may not be greater than 600 kilobytes.')
    const fake = await publish(publicTopic, plain, { title: 'Fake picture', body: 'Not a real gif' }, { bytes: PNG, name: 'cat.gif', type: 'image/gif' })
    expect(fake.status).toBe(422)
    expect((await postsIn(publicTopic)).some((p) => p.title === 'Big picture' || p.title === 'Fake picture')).toBe(false)
  })

  it('publishes text, an image and a YouTube embed; a student post is plain text', async () => {
    const text = await publish(publicTopic, plain, { title: 'Plain words', body: '**not bold** <b>nor this</b>' })
    expect(text.status).toBe(302)
    expect(text.headers.get('Location')).toBe(`/community/topics/${publicTopic}`)
    expect(flashOf(text)).toMatchObject({ message: 'community.post.saved' })
    const image = await publish(publicTopic, plain, { title: 'Picture post', body: 'Look at my mug' }, { bytes: PNG, name: 'mug.png', type: 'image/png' })
    expect(image.status).toBe(302)
    const video = await publish(publicTopic, plain, { title: 'Video post', body: 'Throwing a bowl', video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })
    expect(video.status).toBe(302)
    const rows = await postsIn(publicTopic)
    const byTitle = new Map(rows.map((r) => [r.title, r]))
    expect(byTitle.get('Picture post')?.image_path).toMatch(new RegExp(`^tenants/${school.tenantId}/post_image/`))
    expect(byTitle.get('Video post')?.video_url).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(byTitle.get('Plain words')).toMatchObject({ user_id: plainId, by_admin: 0 })
    const feed = await (await appFetch(school.host, `/community/topics/${publicTopic}`, { cookie: member })).text()
    expect(feed).toContain('**not bold** &lt;b&gt;nor this&lt;/b&gt;')
    expect(feed).toContain('src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"')
  })

  it('renders the owner post as sanitized markdown under the school name', async () => {
    const res = await publish(publicTopic, owner, { title: 'Welcome, everyone', body: 'Read **the rules** first.\n\n<script>alert(1)</script>' })
    expect(res.status).toBe(302)
    const [row] = (await postsIn(publicTopic)).filter((r) => r.title === 'Welcome, everyone')
    const page = await (await appFetch(school.host, `/community/posts/${row!.id}`, { cookie: plain })).text()
    expect(page).toContain('<strong>the rules</strong>')
    expect(page).not.toContain('<script>alert(1)</script>')
    expect(page).toContain('by Clay Club')
  })

  it('lets students post only where the topic allows it', async () => {
    const res = await publish(quietTopic, plain, { title: 'Can I post?', body: 'Trying my luck' })
    expect(res.status).toBe(403)
    expect(await postsIn(quietTopic)).toEqual([])
    expect((await publish(quietTopic, owner, { title: 'Studio closed', body: 'Closed on Monday' })).status).toBe(302)
  })
})

describe('edit, delete, pin (seed 000 §6)', () => {
  it('lets only the author student edit and delete; the owner deletes any post', async () => {
    const mine = await createPost(
      db(),
      school.tenantId,
      publicTopic,
      { id: plainId, name: 'Pat Plain', role: 'student' },
      { title: 'My own post', body: 'Written by Pat', imagePath: null, videoUrl: null, videoId: null },
    )
    const page = await (await appFetch(school.host, `/community/posts/${mine.id}`, { cookie: plain })).text()
    expect(page).toContain('data-post-edit')
    const asOther = await (await appFetch(school.host, `/community/posts/${mine.id}`, { cookie: member })).text()
    expect(asOther).not.toContain('data-post-edit')
    expect(asOther).not.toContain('data-post-delete')
    const asOwner = await (await appFetch(school.host, `/community/posts/${mine.id}`, { cookie: owner })).text()
    expect(asOwner).not.toContain('data-post-edit')
    expect(asOwner).toContain('data-post-delete')

    const hijack = await appFetch(school.host, `/community/posts/${mine.id}`, { method: 'POST', body: postForm({ intent: 'update', title: 'Hijacked title', body: 'Hijacked body' }), cookie: member })
    expect(hijack.status).toBe(404)
    expect((await appFetch(school.host, `/community/posts/${mine.id}`, { method: 'POST', form: { intent: 'delete' }, cookie: member })).status).toBe(404)
    const edit = await appFetch(school.host, `/community/posts/${mine.id}`, { method: 'POST', body: postForm({ intent: 'update', title: 'My edited post', body: 'Edited by Pat' }), cookie: plain })
    expect(edit.status).toBe(302)
    expect((await postsIn(publicTopic)).find((r) => r.id === mine.id)).toMatchObject({ title: 'My edited post', body: 'Edited by Pat' })
    const gone = await appFetch(school.host, `/community/posts/${mine.id}`, { method: 'POST', form: { intent: 'delete' }, cookie: owner })
    expect(gone.status).toBe(302)
    expect((await postsIn(publicTopic)).find((r) => r.id === mine.id)).toBeUndefined()
  })

  it('keeps the pinned post first; only staff pin', async () => {
    const old = await createPost(
      db(),
      school.tenantId,
      publicTopic,
      { id: memberId, name: 'Mia Member', role: 'student' },
      { title: 'An old question', body: 'Asked long ago', imagePath: null, videoUrl: null, videoId: null },
      Date.now() - 86_400_000,
    )
    expect((await appFetch(school.host, `/community/posts/${old.id}`, { method: 'POST', form: { intent: 'pin' }, cookie: member })).status).toBe(404)
    expect((await appFetch(school.host, `/community/posts/${old.id}`, { method: 'POST', form: { intent: 'pin' }, cookie: owner })).status).toBe(302)
    await createPost(
      db(),
      school.tenantId,
      publicTopic,
      { id: plainId, name: 'Pat Plain', role: 'student' },
      { title: 'A brand new post', body: 'Just now', imagePath: null, videoUrl: null, videoId: null },
    )
    const feed = await (await appFetch(school.host, `/community/topics/${publicTopic}`, { cookie: plain })).text()
    const first = /data-post="([^"]+)"/.exec(feed)?.[1]
    expect(first).toBe(old.id)
    expect(feed.indexOf('An old question')).toBeLessThan(feed.indexOf('A brand new post'))
  })
})

describe('feed paging and comments', () => {
  it('pages a topic by keyset: no post twice, none skipped', async () => {
    const topic = await createTopic(db(), school.tenantId, { ...topicInput, title: 'Busy topic', access: 'public' })
    const base = Date.now() - 1_000_000
    for (let i = 0; i < 45; i++)
      await createPost(
        db(),
        school.tenantId,
        topic.id,
        { id: plainId, name: 'Pat Plain', role: 'student' },
        { title: `Numbered post ${i}`, body: 'Body text', imagePath: null, videoUrl: null, videoId: null },
        base + Math.floor(i / 2) * 1000,
      )
    const seen: string[] = []
    let path: string | null = `/community/topics/${topic.id}`
    while (path) {
      const html: string = await (await appFetch(school.host, path, { cookie: plain })).text()
      seen.push(...[...html.matchAll(/data-post="([^"]+)"/g)].map((m) => m[1]!))
      path = /data-feed-older[^>]*href="([^"]+)"|href="([^"]+)"[^>]*data-feed-older/.exec(html)?.slice(1).find(Boolean)?.replace(/&amp;/g, '&') ?? null
    }
    expect(seen.length).toBe(45)
    expect(new Set(seen).size).toBe(45)
  })

  it('takes comments on a post from its readers and counts them', async () => {
    const post = await createPost(
      db(),
      school.tenantId,
      membersTopic,
      { id: memberId, name: 'Mia Member', role: 'student' },
      { title: 'Members only chat', body: 'Just for us', imagePath: null, videoUrl: null, videoId: null },
    )
    const headers = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': 'application/json' }
    const ok = await appFetch(school.host, '/comments', { method: 'POST', headers, body: JSON.stringify({ id: post.id, type: 'community_post', body: 'Great idea', file: 0 }), cookie: member })
    expect(ok.status).toBe(201)
    const refused = await appFetch(school.host, '/comments', { method: 'POST', headers, body: JSON.stringify({ id: post.id, type: 'community_post', body: 'Let me in', file: 0 }), cookie: plain })
    expect(refused.status).toBe(404)
    const row = await env.DB_SHARD_0.prepare('SELECT comments_count FROM community_posts WHERE id = ?').bind(post.id).first<{ comments_count: number }>()
    expect(row?.comments_count).toBe(1)
    const page = await (await appFetch(school.host, `/community/posts/${post.id}`, { cookie: member })).text()
    expect(page).toContain('Great idea')
  })
})

describe('subscriptions and the panel', () => {
  it('subscribes and unsubscribes a student to a topic', async () => {
    const on = await appFetch(school.host, `/community/topics/${publicTopic}`, { form: { intent: 'subscribe' }, cookie: plain })
    expect(on.status).toBe(302)
    expect(flashOf(on)).toMatchObject({ message: 'community.subscribe.subscribed' })
    const row = await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM community_subscriptions WHERE user_id = ? AND topic_id = ?').bind(plainId, publicTopic).first<{ n: number }>()
    expect(row?.n).toBe(1)
    await appFetch(school.host, `/community/topics/${publicTopic}`, { form: { intent: 'unsubscribe' }, cookie: plain })
    const after = await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM community_subscriptions WHERE user_id = ? AND topic_id = ?').bind(plainId, publicTopic).first<{ n: number }>()
    expect(after?.n).toBe(0)
  })

  it('links the player to the course topic for viewers who may read it', async () => {
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Throwing basics', published: true })
    const section = await createSection(db(), school.tenantId, course.id, 'Start')
    const made = await createLecture(db(), school.tenantId, course.id, section!.id, { title: 'Wedging', kind: 'text', body: 'Wedge the clay', published: true })
    if (!made || !made.ok) throw new Error('lecture')
    const topic = await createTopic(db(), school.tenantId, { ...topicInput, title: 'Throwing basics talk', access: 'public', courseId: course.id })
    await grantProductAccess(db(), school.tenantId, { productId: course.id, userId: plainId, source: 'manual' })
    const html = await (await appFetch(school.host, `/${course.slug}/watch/${made.lecture.id}`, { cookie: plain })).text()
    expect(html).toContain(`href="/community/topics/${topic.id}"`)
    expect(html).toContain('data-course-topic')
  })

  it('links the student panel to the topics the student may read', async () => {
    const panel = await (await appFetch(school.host, '/panel', { cookie: plain })).text()
    expect(panel).toContain(`/community/topics/${publicTopic}`)
    expect(panel).not.toContain(`/community/topics/${membersTopic}`)
  })
})
