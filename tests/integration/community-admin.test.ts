// Issue 22 items 1 and 8 through the real routes: the owner's community topics (/home/community:
// create, edit, archive, reorder, delete; bad input writes nothing; a restricted topic keeps only
// this school's products; students and other schools get 404) and the community part of the
// moderation feed (/home/comments).
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { createComment, resolveCommentable } from '#app/models/comment.server.ts'
import { createPost, createTopic, getPost, getTopic, listTopicProductIds, listTopics, type TopicInput } from '#app/models/community.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

const form = { title: 'Introductions', description: 'Say hello', allowStudentsToAddPosts: 'on', access: 'public', courseId: '' }
const base: TopicInput = { title: 'Topic', description: '', allowStudentsToAddPosts: true, access: 'public', productIds: [], courseId: null }
const topicCount = async (tenantId: string) => (await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM community_topics WHERE tenant_id = ?').bind(tenantId).first<{ n: number }>())!.n

let school: TestSchool
let other: TestSchool
let owner: string
let otherOwner: string
let student: string
let studentUser: { id: string; name: string; role: 'student' }

beforeAll(async () => {
  school = await createTestSchool({ language: 'en' })
  other = await createTestSchool({ language: 'en' })
  const s = await createTestStudent(school.tenantId, { name: 'Sam Poster' })
  studentUser = { id: s.id, name: 'Sam Poster', role: 'student' }
  owner = await login(school.host, school.owner.email, school.owner.password)
  otherOwner = await login(other.host, other.owner.email, other.owner.password)
  student = await login(school.host, s.email, s.password)
})

describe('/home/community', () => {
  it('is staff-only: a student gets 404, a visitor is sent to sign in, nothing is written', async () => {
    expect((await appFetch(school.host, '/home/community', { cookie: student })).status).toBe(404)
    expect((await appFetch(school.host, '/home/community', { cookie: student, form })).status).toBe(404)
    const visitor = await appFetch(school.host, '/home/community')
    expect(visitor.status).toBe(302)
    expect(visitor.headers.get('Location')).toMatch(/^\/login/)
    expect((await appFetch(school.host, '/home/community', { form })).status).toBe(302)
    expect(await topicCount(school.tenantId)).toBe(0)
  })

  it('explains a school can run without topics, then creates one (students may post unless unticked)', async () => {
    const fresh = await createTestSchool({ language: 'en' })
    const cookie = await login(fresh.host, fresh.owner.email, fresh.owner.password)
    const empty = await (await appFetch(fresh.host, '/home/community', { cookie })).text()
    expect(empty).toContain('data-topics-empty')
    expect(empty).toContain('students see no community link')
    expect(empty).toContain('href="/home/community"')

    const course = await createProduct(db(), fresh.tenantId, { kind: 'course', title: 'Sourdough', published: true })
    const created = await appFetch(fresh.host, '/home/community', { cookie, form: { ...form, courseId: course.id } })
    expect(created.status).toBe(303)
    expect(created.headers.get('Location')).toBe('/home/community')
    expect(flashOf(created)).toMatchObject({ done: 'created', message: 'community_admin.done.created' })
    const [topic] = await listTopics(db(), fresh.tenantId)
    expect(topic).toMatchObject({ title: 'Introductions', description: 'Say hello', allowStudentsToAddPosts: true, access: 'public', courseId: course.id, archivedAt: null })

    const { allowStudentsToAddPosts: _unticked, ...closed } = form
    expect((await appFetch(fresh.host, '/home/community', { cookie, form: { ...closed, title: 'Announcements' } })).status).toBe(303)
    const topics = await listTopics(db(), fresh.tenantId)
    expect(topics.map((t) => [t.title, t.allowStudentsToAddPosts])).toEqual([
      ['Introductions', true],
      ['Announcements', false],
    ])

    const list = await (await appFetch(fresh.host, '/home/community', { cookie: followFlash(cookie, created) })).text()
    expect(list).toContain('data-done="created"')
    expect(list).toContain('data-topic-row="Introductions"')
    expect(list).toContain('data-topic-row="Announcements"')
    expect(list).not.toContain('data-topics-empty')
  })

  it('answers field errors in the school language and writes nothing on bad input', async () => {
    const theirs = await createProduct(db(), other.tenantId, { kind: 'course', title: 'Not yours', published: true })
    const membership = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Club', published: true })
    const before = await topicCount(school.tenantId)
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ ...form, title: '   ' }, 'title', 'This field is required'],
      [{ ...form, title: 'x'.repeat(121) }, 'title', 'May not be longer than 120 characters'],
      [{ ...form, description: 'y'.repeat(2001) }, 'description', 'May not be longer than 2000 characters'],
      [{ ...form, access: 'secret' }, 'access', ''],
      [{ ...form, access: 'restricted' }, 'products', 'Choose at least one of your products'],
      [{ ...form, access: 'restricted', [`product_${theirs.id}`]: 'on' }, 'products', 'Choose at least one of your products'],
      [{ ...form, courseId: theirs.id }, 'courseId', 'Choose one of your courses'],
      [{ ...form, courseId: membership.id }, 'courseId', 'Choose one of your courses'],
    ]
    for (const [input, field, message] of cases) {
      const res = await appFetch(school.host, '/home/community', { cookie: owner, form: input })
      expect(res.status, field).toBe(422)
      const html = await res.text()
      expect(html, field).toContain(`data-field-error="${field}"`)
      if (message) expect(html, field).toContain(message)
    }
    expect(await topicCount(school.tenantId)).toBe(before)

    const polish = await createTestSchool({ language: 'pl' })
    const cookie = await login(polish.host, polish.owner.email, polish.owner.password)
    const res = await appFetch(polish.host, '/home/community', { cookie, form: { ...form, title: '' } })
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('To pole jest wymagane')
    expect(html).toContain('Tematy społeczności')
    expect(await topicCount(polish.tenantId)).toBe(0)
  })

  it("keeps only this school's products on a restricted topic", async () => {
    const mine = await createProduct(db(), school.tenantId, { kind: 'membership', title: 'Inner circle', published: true })
    const theirs = await createProduct(db(), other.tenantId, { kind: 'membership', title: 'Their circle', published: true })
    const res = await appFetch(school.host, '/home/community', {
      cookie: owner,
      form: { ...form, title: 'Members only', access: 'restricted', [`product_${mine.id}`]: 'on', [`product_${theirs.id}`]: 'on' },
    })
    expect(res.status).toBe(303)
    const topic = (await listTopics(db(), school.tenantId)).find((t) => t.title === 'Members only')!
    expect(topic.access).toBe('restricted')
    expect(await listTopicProductIds(db(), school.tenantId, topic.id)).toEqual([mine.id])

    // Editing with another school's product only is refused and changes nothing.
    const refused = await appFetch(school.host, `/home/community/${topic.id}`, {
      cookie: owner,
      form: { ...form, intent: 'save', title: 'Members only', access: 'restricted', [`product_${theirs.id}`]: 'on' },
    })
    expect(refused.status).toBe(422)
    expect(await listTopicProductIds(db(), school.tenantId, topic.id)).toEqual([mine.id])

    // The edit page shows the stored choice.
    const page = await (await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner })).text()
    expect(page).toMatch(new RegExp(`name="product_${mine.id}"[^>]*checked`))

    // Made public, the topic drops its products.
    expect((await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner, form: { ...form, intent: 'save', title: 'Members only', [`product_${mine.id}`]: 'on' } })).status).toBe(303)
    expect(await listTopicProductIds(db(), school.tenantId, topic.id)).toEqual([])
  })

  it('edits, archives, restores and deletes a topic with its posts', async () => {
    const topic = await createTopic(db(), school.tenantId, { ...base, title: 'Questions' })
    const page = await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Questions')
    expect(html).toContain(`href="/community/topics/${topic.id}"`)

    const saved = await appFetch(school.host, `/home/community/${topic.id}`, {
      cookie: owner,
      form: { intent: 'save', title: 'Your questions', description: 'Ask away', access: 'public', courseId: '' },
    })
    expect(saved.status).toBe(303)
    expect(saved.headers.get('Location')).toBe(`/home/community/${topic.id}`)
    expect(flashOf(saved)).toMatchObject({ done: 'saved' })
    expect(await getTopic(db(), school.tenantId, topic.id)).toMatchObject({ title: 'Your questions', description: 'Ask away', allowStudentsToAddPosts: false })

    const badSave = await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner, form: { intent: 'save', title: '', access: 'public' } })
    expect(badSave.status).toBe(422)
    expect((await getTopic(db(), school.tenantId, topic.id))?.title).toBe('Your questions')

    const archived = await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner, form: { intent: 'archive' } })
    expect(archived.status).toBe(303)
    expect(flashOf(archived)).toMatchObject({ done: 'archived' })
    expect((await getTopic(db(), school.tenantId, topic.id))?.archivedAt).not.toBeNull()
    const archivedPage = await (await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner })).text()
    expect(archivedPage).toContain('data-topic-archived')
    expect(archivedPage).not.toContain(`href="/community/topics/${topic.id}"`)
    expect(await (await appFetch(school.host, '/home/community', { cookie: owner })).text()).toContain('data-topic-status="archived"')
    expect((await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner, form: { intent: 'unarchive' } })).status).toBe(303)
    expect((await getTopic(db(), school.tenantId, topic.id))?.archivedAt).toBeNull()

    const post = await createPost(db(), school.tenantId, topic.id, studentUser, { title: 'First post', body: 'Hello there', imagePath: null, videoUrl: null, videoId: null })
    const target = await resolveCommentable(db(), school.tenantId, 'community_post', post.id)
    await createComment(db(), school.tenantId, target!, studentUser, 'Nice post')

    const unconfirmed = await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner, form: { intent: 'delete' } })
    expect(unconfirmed.status).toBe(422)
    expect(await unconfirmed.text()).toContain('Tick the box to confirm the deletion')
    expect(await getTopic(db(), school.tenantId, topic.id)).toBeDefined()

    const deleted = await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner, form: { intent: 'delete', confirm: 'on' } })
    expect(deleted.status).toBe(303)
    expect(deleted.headers.get('Location')).toBe('/home/community')
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted' })
    expect(await getTopic(db(), school.tenantId, topic.id)).toBeUndefined()
    expect(await getPost(db(), school.tenantId, post.id)).toBeNull()
    expect(await env.DB_SHARD_0.prepare("SELECT id FROM comments WHERE commentable_type = 'community_post' AND commentable_id = ?").bind(post.id).first()).toBeNull()
    expect((await appFetch(school.host, `/home/community/${topic.id}`, { cookie: owner })).status).toBe(404)
  })

  it('reorders topics with Move up / Move down and with a whole order; a stale order writes nothing', async () => {
    const fresh = await createTestSchool({ language: 'en' })
    const cookie = await login(fresh.host, fresh.owner.email, fresh.owner.password)
    const [a, b, c] = [
      await createTopic(db(), fresh.tenantId, { ...base, title: 'A' }),
      await createTopic(db(), fresh.tenantId, { ...base, title: 'B' }),
      await createTopic(db(), fresh.tenantId, { ...base, title: 'C' }),
    ]
    const order = async () => (await listTopics(db(), fresh.tenantId)).map((t) => t.title)
    expect(await order()).toEqual(['A', 'B', 'C'])

    const moved = await appFetch(fresh.host, '/home/community', { cookie, form: { intent: 'move', id: a.id, move: 'down' } })
    expect(moved.status).toBe(303)
    expect(flashOf(moved)).toMatchObject({ done: 'order' })
    expect(await order()).toEqual(['B', 'A', 'C'])
    expect((await appFetch(fresh.host, '/home/community', { cookie, form: { intent: 'move', id: b.id, move: 'up' } })).status).toBe(409)
    expect((await appFetch(fresh.host, '/home/community', { cookie, form: { intent: 'move', id: 'no-such-topic', move: 'up' } })).status).toBe(409)

    expect((await appFetch(fresh.host, '/home/community', { cookie, form: { intent: 'order', order: [c.id, b.id, a.id].join(',') } })).status).toBe(303)
    expect(await order()).toEqual(['C', 'B', 'A'])
    // A missing, repeated or foreign id: the page was stale.
    const foreign = await createTopic(db(), other.tenantId, { ...base, title: 'Foreign' })
    for (const ids of [
      [a.id, b.id],
      [a.id, a.id, b.id],
      [a.id, b.id, foreign.id],
    ]) {
      expect((await appFetch(fresh.host, '/home/community', { cookie, form: { intent: 'order', order: ids.join(',') } })).status).toBe(409)
    }
    expect(await order()).toEqual(['C', 'B', 'A'])
    expect((await getTopic(db(), other.tenantId, foreign.id))?.position).toBe(foreign.position)
  })

  it("answers 404 for another school's topic to that school's owner, and changes nothing", async () => {
    const topic = await createTopic(db(), school.tenantId, { ...base, title: 'Private topic' })
    expect((await appFetch(other.host, `/home/community/${topic.id}`, { cookie: otherOwner })).status).toBe(404)
    const intents: Array<Record<string, string>> = [{ intent: 'save', title: 'Hijacked', access: 'public' }, { intent: 'archive' }, { intent: 'delete', confirm: 'on' }]
    for (const intent of intents) {
      expect((await appFetch(other.host, `/home/community/${topic.id}`, { cookie: otherOwner, form: intent })).status).toBe(404)
    }
    expect(await getTopic(db(), school.tenantId, topic.id)).toMatchObject({ title: 'Private topic', archivedAt: null })
  })
})

describe('/home/comments with a community', () => {
  it('lists comments on community posts with their topic and post, and a Community filter', async () => {
    const fresh = await createTestSchool({ language: 'en' })
    const cookie = await login(fresh.host, fresh.owner.email, fresh.owner.password)
    const s = await createTestStudent(fresh.tenantId, { name: 'Kim Commenter' })
    const kim = { id: s.id, name: 'Kim Commenter', role: 'student' as const }
    // Without a topic the feed has no community tab.
    expect(await (await appFetch(fresh.host, '/home/comments', { cookie })).text()).not.toContain('data-feed-tabs')

    const topic = await createTopic(db(), fresh.tenantId, { ...base, title: 'Show and tell' })
    const post = await createPost(db(), fresh.tenantId, topic.id, kim, { title: 'My first loaf', body: 'It rose!', imagePath: null, videoUrl: null, videoId: null })
    const comment = await createComment(db(), fresh.tenantId, (await resolveCommentable(db(), fresh.tenantId, 'community_post', post.id))!, kim, 'Proud of this one')

    for (const path of ['/home/comments', '/home/comments?course=community']) {
      const html = await (await appFetch(fresh.host, path, { cookie })).text()
      expect(html, path).toContain('data-feed-tabs')
      expect(html, path).toContain(`data-feed-comment="${comment.id}"`)
      expect(html, path).toContain('data-feed-on="community_post"')
      expect(html, path).toContain('Proud of this one')
      expect(html, path).toContain('Community › Show and tell › My first loaf')
      expect(html, path).toContain(`href="/community/posts/${post.id}#comment-${comment.id}"`)
      // A community comment has no course to review.
      expect(html, path).not.toContain('data-feed-convert')
    }

    // Deleted from the feed, the post's comment count follows.
    expect((await appFetch(fresh.host, '/home/comments', { cookie, form: { intent: 'delete', commentId: comment.id } })).status).toBe(200)
    expect((await getPost(db(), fresh.tenantId, post.id))?.commentsCount).toBe(0)
  })

  it('lists the newest community posts with author, topic and link, paged', async () => {
    const fresh = await createTestSchool({ language: 'en' })
    const cookie = await login(fresh.host, fresh.owner.email, fresh.owner.password)
    const s = await createTestStudent(fresh.tenantId, { name: 'Pat Poster' })
    const pat = { id: s.id, name: 'Pat Poster', role: 'student' as const }
    const topic = await createTopic(db(), fresh.tenantId, { ...base, title: 'Daily bakes' })
    const start = Date.now() - 60_000
    const posts: Awaited<ReturnType<typeof createPost>>[] = []
    for (let i = 0; i < 21; i++)
      posts.push(await createPost(db(), fresh.tenantId, topic.id, pat, { title: `Bake number ${i}`, body: `Body ${i}`, imagePath: null, videoUrl: null, videoId: null }, start + i * 1000))

    expect((await appFetch(fresh.host, '/home/comments?tab=posts', { cookie: await login(fresh.host, s.email, s.password) })).status).toBe(404)
    const first = await (await appFetch(fresh.host, '/home/comments?tab=posts', { cookie })).text()
    expect(first).toContain(`data-feed-post="${posts[20].id}"`)
    expect(first).toContain('Bake number 20')
    expect(first).toContain('Pat Poster')
    expect(first).toContain(`href="/home/students/${pat.id}"`)
    expect(first).toContain('in Daily bakes')
    expect(first).toContain(`href="/community/posts/${posts[20].id}"`)
    expect(first).not.toContain(`data-feed-post="${posts[0].id}"`)
    const older = /href="\/home\/comments(\?tab=posts&amp;after=[^"]+)"/.exec(first)?.[1].replace(/&amp;/g, '&')
    expect(older).toBeDefined()
    const second = await (await appFetch(fresh.host, `/home/comments${older}`, { cookie })).text()
    expect(second).toContain(`data-feed-post="${posts[0].id}"`)
    expect(second).not.toContain(`data-feed-post="${posts[1].id}"`)
    expect(first).not.toContain('Newest posts')
    expect(second).toContain('Newest posts')

    // Another school's owner sees none of them.
    const theirs = await (await appFetch(other.host, '/home/comments?tab=posts', { cookie: otherOwner })).text()
    expect(theirs).not.toContain('Bake number')
  })
})
