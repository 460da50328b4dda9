// Comments, replies, votes and moderation through the app (seed 000 widget 8, §4–§8; issue 7):
// the answers of every call (401, 419, 422, 404, 403), the vote arithmetic, delete rights, reply
// images, review conversion, the no-JS form, the /home/comments feed, and another school's ids.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadCommentsBox } from '#app/comments/comments-box.server.ts'
import { grantProductAccess } from '#app/models/access.server.ts'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool } from '#tests/factories.ts'
import { routes as crossTenantRoutes, victims } from './cross-tenant/comments.ts'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...new Array(100).fill(7)])

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

let school: TestSchool
let other: TestSchool
let owner: string
let sam: string
let samId: string
let kim: string
let outsider: string
let otherStudent: string
let courseSlug: string
let courseId: string
let lectureId: string
let closedLectureId: string

async function makeCourse(s: TestSchool, title: string) {
  const course = await createProduct(db(), s.tenantId, { kind: 'course', title, published: true })
  const section = await createSection(db(), s.tenantId, course.id, 'Start')
  const open = await createLecture(db(), s.tenantId, course.id, section!.id, { title: 'Welcome', kind: 'text', body: 'Hi', published: true })
  const closed = await createLecture(db(), s.tenantId, course.id, section!.id, { title: 'Quiet', kind: 'text', body: 'Hi', published: true, commentsEnabled: false })
  if (!open || !open.ok || !closed || !closed.ok) throw new Error('lecture')
  return { course, lectureId: open.lecture.id, closedLectureId: closed.lecture.id }
}

/** A script call as the comments box makes it. */
function call(path: string, { body, cookie, method = 'POST', host = school.host }: { body?: Record<string, unknown> | FormData; cookie?: string; method?: string; host?: string } = {}) {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' }
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  return appFetch(host, path, { method, headers, body: payload, cookie })
}

async function comment(body: string, cookie: string, id = lectureId) {
  const res = await call('/comments', { body: { id, type: 'lecture', body, file: 0 }, cookie })
  return { status: res.status, json: (await res.json()) as Json }
}

beforeAll(async () => {
  school = await createTestSchool()
  other = await createTestSchool()
  const made = await makeCourse(school, 'Rust basics')
  courseId = made.course.id
  courseSlug = made.course.slug
  lectureId = made.lectureId
  closedLectureId = made.closedLectureId
  const s = await createTestStudent(school.tenantId, { name: 'Sam Student' })
  const k = await createTestStudent(school.tenantId, { name: 'Kim Learner' })
  const o = await createTestStudent(school.tenantId, { name: 'Out Sider' })
  samId = s.id
  for (const id of [s.id, k.id]) await grantProductAccess(db(), school.tenantId, { productId: courseId, userId: id, source: 'manual' })
  owner = await login(school.host, school.owner.email, school.owner.password)
  sam = await login(school.host, s.email, s.password)
  kim = await login(school.host, k.email, k.password)
  outsider = await login(school.host, o.email, o.password)
  const os = await createTestStudent(other.tenantId)
  otherStudent = await login(other.host, os.email, os.password)
})

describe('POST /comments', () => {
  it('answers 401 to a visitor and 419 to a browser whose session is gone', async () => {
    const visitor = await call('/comments', { body: { id: lectureId, type: 'lecture', body: 'Hello there' } })
    expect(visitor.status).toBe(401)
    expect(await visitor.json()).toMatchObject({ message: 'Log in' })
    const stale = await call('/comments', { body: { id: lectureId, type: 'lecture', body: 'Hello there' }, cookie: 'cf_session=abc.def' })
    expect(stale.status).toBe(419)
    expect(await stale.json()).toMatchObject({ message: 'Session expired', redirectTo: '/login' })
  })

  it('refuses 1 and 1201 characters with 422 errors.body[0], and writes nothing', async () => {
    const short = await comment('a', sam)
    expect(short.status).toBe(422)
    expect(short.json.errors.body[0]).toBe('The comment must be at least 2 characters.')
    const long = await comment('x'.repeat(1201), sam)
    expect(long.status).toBe(422)
    expect(long.json.errors.body[0]).toContain('1200')
    expect(long.json.length).toBe(1201)
    const rows = await env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM comments WHERE commentable_id = ?').bind(lectureId).first<{ n: number }>()
    expect(rows?.n).toBe(0)
  })

  it('stores 2..1200 trimmed characters; staff comments are by_admin', async () => {
    const ok = await comment('  Great lesson!  ', sam)
    expect(ok.status).toBe(201)
    expect(ok.json.comment).toMatchObject({ body: 'Great lesson!', byAdmin: false, repliesCount: 0, upVotesCount: 0, vote: 0, canDelete: true, author: { name: 'Sam Student', profilePath: null } })
    expect((await comment('x'.repeat(1200), sam)).status).toBe(201)
    const staff = await comment('Thanks for watching', owner)
    expect(staff.json.comment.byAdmin).toBe(true)
    const row = await env.DB_SHARD_0.prepare('SELECT product_id, user_id, by_admin FROM comments WHERE id = ?').bind(ok.json.comment.id).first()
    expect(row).toEqual({ product_id: courseId, user_id: samId, by_admin: 0 })
  })

  it('is for viewers with access: a student without it gets 404, a closed lecture 403', async () => {
    expect((await comment('Let me in', outsider)).status).toBe(404)
    const closed = await comment('Anyone here?', sam, closedLectureId)
    expect(closed.status).toBe(403)
  })

  it('works without JavaScript: 303 back to the lecture, errors in the query string', async () => {
    const ok = await appFetch(school.host, '/comments', { form: { id: lectureId, type: 'lecture', body: 'Posted by a plain form' }, cookie: kim })
    expect(ok.status).toBe(303)
    expect(ok.headers.get('Location')).toMatch(new RegExp(`^/${courseSlug}/watch/${lectureId}#comment-`))
    const bad = await appFetch(school.host, '/comments', { form: { id: lectureId, type: 'lecture', body: 'x' }, cookie: kim })
    expect(bad.status).toBe(303)
    expect(bad.headers.get('Location')).toBe(`/${courseSlug}/watch/${lectureId}?comment_error=min&comment_length=1#comments`)
    const visitor = await appFetch(school.host, '/comments', { form: { id: lectureId, type: 'lecture', body: 'Hello' } })
    expect(visitor.status).toBe(303)
    expect(visitor.headers.get('Location')).toMatch(/^\/login\?redirectTo=/)
  })
})

describe('votes (seed 000 §4)', () => {
  it('follows the toggle arithmetic on up_votes_count', async () => {
    const { json } = await comment('Vote on me', kim)
    const id = json.comment.id as string
    const vote = async (value: number, cookie = sam) => (await (await call('/vote', { body: { value, type: 'comment', id }, cookie })).json()) as Json
    expect(await vote(1)).toEqual({ value: 1, up_votes_count: 1 }) // up → +1
    expect(await vote(1)).toEqual({ value: 0, up_votes_count: 0 }) // up when up → 0, −1
    expect(await vote(-1)).toEqual({ value: -1, up_votes_count: 0 }) // down → count unchanged
    expect(await vote(1)).toEqual({ value: 1, up_votes_count: 1 }) // up after down → +1
    expect(await vote(-1)).toEqual({ value: -1, up_votes_count: 0 }) // down after up → −1
    expect(await vote(-1)).toEqual({ value: 0, up_votes_count: 0 }) // down when down → 0
    expect(await vote(1, kim)).toEqual({ value: 1, up_votes_count: 1 })
    expect(await vote(1, owner)).toEqual({ value: 1, up_votes_count: 2 })
    const n = await env.DB_SHARD_0.prepare("SELECT count(*) AS n FROM votes WHERE votable_id = ? AND votable_type = 'comment'").bind(id).first<{ n: number }>()
    expect(n?.n).toBe(2)
  })

  it('keeps the count exact under concurrent votes', async () => {
    const { json } = await comment('Race me', kim)
    const id = json.comment.id as string
    await Promise.all([sam, kim, owner].map((cookie) => call('/vote', { body: { value: 1, type: 'comment', id }, cookie })))
    const row = await env.DB_SHARD_0.prepare('SELECT up_votes_count AS n FROM comments WHERE id = ?').bind(id).first<{ n: number }>()
    expect(row?.n).toBe(3)
  })

  it('refuses visitors (401), bad values (422) and students without access (404)', async () => {
    const { json } = await comment('Another one', kim)
    expect((await call('/vote', { body: { value: 1, type: 'comment', id: json.comment.id } })).status).toBe(401)
    expect((await call('/vote', { body: { value: 2, type: 'comment', id: json.comment.id }, cookie: sam })).status).toBe(422)
    expect((await call('/vote', { body: { value: 1, type: 'comment', id: json.comment.id }, cookie: outsider })).status).toBe(404)
  })
})

describe('replies', () => {
  it('creates replies, keeps replies_count, lists them oldest first; 422 below 2 characters', async () => {
    const { json } = await comment('Question about lifetimes', sam)
    const id = json.comment.id as string
    const first = await call(`/comment/${id}/reply`, { body: { body: '@Sam Student good question' }, cookie: kim })
    expect(first.status).toBe(201)
    expect(await first.json()).toMatchObject({ repliesCount: 1, reply: { body: '@Sam Student good question', byAdmin: false, author: { name: 'Kim Learner' } } })
    const staff = await call(`/comment/${id}/reply`, { body: { body: '@Sam Student see chapter 4' }, cookie: owner })
    expect(((await staff.json()) as Json).repliesCount).toBe(2)
    const short = await call(`/comment/${id}/reply`, { body: { body: 'x' }, cookie: kim })
    expect(short.status).toBe(422)
    expect(((await short.json()) as Json).errors.body[0]).toMatch(/at least 2/)
    const list = (await (await call(`/comment/${id}/replies`, { cookie: sam })).json()) as Json
    expect(list.replies.map((r: Json) => [r.author.name, r.byAdmin])).toEqual([
      ['Kim Learner', false],
      ['Owner Person', true],
    ])
    expect((await call(`/comment/${id}/replies`, { cookie: outsider })).status).toBe(404)
  })

  it('takes an image from staff only, checked by extension and content, served from the media host', async () => {
    const { json } = await comment('Show me a diagram', sam)
    const id = json.comment.id as string
    const form = () => {
      const f = new FormData()
      f.set('body', '@Sam Student here it is')
      return f
    }
    const fromStudent = form()
    fromStudent.set('image', new File([PNG], 'diagram.png', { type: 'image/png' }))
    expect((await call(`/comment/${id}/reply`, { body: fromStudent, cookie: kim })).status).toBe(422)
    const fake = form()
    fake.set('image', new File(['<html>not an image</html>'], 'diagram.png', { type: 'image/png' }))
    expect((await call(`/comment/${id}/reply`, { body: fake, cookie: owner })).status).toBe(422)
    const webp = form()
    webp.set('image', new File([PNG], 'diagram.webp', { type: 'image/webp' }))
    const badExt = await call(`/comment/${id}/reply`, { body: webp, cookie: owner })
    expect(badExt.status).toBe(422)
    expect(((await badExt.json()) as Json).errors.image[0]).toBe('Bad file extension')
    const good = form()
    good.set('image', new File([PNG], 'diagram.png', { type: 'image/png' }))
    const res = await call(`/comment/${id}/reply`, { body: good, cookie: owner })
    expect(res.status).toBe(201)
    const reply = ((await res.json()) as Json).reply
    expect(reply.imageUrl).toMatch(new RegExp(`^http://media\\.localhost/tenants/${school.tenantId}/reply_image/[a-z2-7]{26}\\.png$`))
    const served = await appFetch('media.localhost', new URL(reply.imageUrl).pathname)
    expect(served.status).toBe(200)
    expect(served.headers.get('Content-Type')).toBe('image/png')
    // Deleting the comment removes the reply and its image.
    expect((await call(`/comments/${id}`, { method: 'DELETE', cookie: owner })).status).toBe(200)
    expect((await appFetch('media.localhost', new URL(reply.imageUrl).pathname)).status).toBe(404)
  })
})

describe('delete rights (seed 000 §6)', () => {
  it('lets a student delete only their own non-admin items; the owner deletes anything', async () => {
    const samsComment = (await comment('Mine to delete', sam)).json.comment.id as string
    const kimsComment = (await comment('Not yours', kim)).json.comment.id as string
    const adminComment = (await comment('Pinned by staff', owner)).json.comment.id as string
    expect((await call(`/comments/${kimsComment}`, { method: 'DELETE', cookie: sam })).status).toBe(403)
    expect((await call(`/comments/${adminComment}`, { method: 'DELETE', cookie: sam })).status).toBe(403)
    const adminReply = (await (await call(`/comment/${samsComment}/reply`, { body: { body: '@Sam Student noted' }, cookie: owner })).json()) as Json
    const kimReply = (await (await call(`/comment/${samsComment}/reply`, { body: { body: '@Sam Student me too' }, cookie: kim })).json()) as Json
    expect((await call(`/replies/${adminReply.reply.id}`, { method: 'DELETE', cookie: sam })).status).toBe(403)
    expect((await call(`/replies/${kimReply.reply.id}`, { method: 'DELETE', cookie: sam })).status).toBe(403)
    const own = await call(`/replies/${kimReply.reply.id}`, { method: 'DELETE', cookie: kim })
    expect(await own.json()).toEqual({ deleted: true, repliesCount: 1 })
    // A vote on the comment and on its remaining reply go with it.
    await call('/vote', { body: { value: 1, type: 'comment', id: samsComment }, cookie: kim })
    await call('/vote', { body: { value: 1, type: 'reply', id: adminReply.reply.id }, cookie: kim })
    expect((await call(`/comments/${samsComment}`, { method: 'DELETE', cookie: sam })).status).toBe(200)
    const left = await env.DB_SHARD_0.prepare('SELECT (SELECT count(*) FROM replies WHERE comment_id = ?1) AS replies, (SELECT count(*) FROM votes WHERE votable_id IN (?1, ?2)) AS votes').bind(samsComment, adminReply.reply.id).first()
    expect(left).toEqual({ replies: 0, votes: 0 })
    expect((await call(`/comments/${kimsComment}`, { method: 'DELETE', cookie: owner })).status).toBe(200)
    expect((await call(`/comments/${adminComment}`, { method: 'DELETE', cookie: owner })).status).toBe(200)
  })

  it('takes POST with _method=DELETE from a form without JavaScript (303 back)', async () => {
    const id = (await comment('Form delete', kim)).json.comment.id as string
    const res = await appFetch(school.host, `/comments/${id}`, { form: { _method: 'DELETE' }, cookie: kim })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/${courseSlug}/watch/${lectureId}#comments`)
    expect(await env.DB_SHARD_0.prepare('SELECT id FROM comments WHERE id = ?').bind(id).first()).toBeNull()
  })
})

describe('convert to review', () => {
  it('lets the owner turn a comment into an approved review once (10/5/1), 422 after', async () => {
    const id = (await comment('Best course I took this year', kim)).json.comment.id as string
    expect((await call(`/comments/${id}/set-as-review`, { body: { score: 10 }, cookie: sam })).status).toBe(403)
    expect((await call(`/comments/${id}/set-as-review`, { body: { score: 0 }, cookie: owner })).status).toBe(422)
    const ok = await call(`/comments/${id}/set-as-review`, { body: { score: 5 }, cookie: owner })
    expect(ok.status).toBe(201)
    const review = await env.DB_SHARD_0.prepare('SELECT rating, status, first_name, body, product_id FROM reviews WHERE source_comment_id = ?').bind(id).first()
    expect(review).toEqual({ rating: 5, status: 'approved', first_name: 'Kim', body: 'Best course I took this year', product_id: courseId })
    const again = await call(`/comments/${id}/set-as-review`, { body: { score: 10 }, cookie: owner })
    expect(again.status).toBe(422)
    expect(((await again.json()) as Json).message).toBe('This comment has already been converted to a review.')
    const second = (await comment('Also loved the exercises', kim)).json.comment.id as string
    const reviewed = await call(`/comments/${second}/set-as-review`, { body: { score: 1 }, cookie: owner })
    expect(reviewed.status).toBe(422)
    expect(((await reviewed.json()) as Json).message).toBe('The author has already reviewed this course.')
  })
})

describe('the comments box data', () => {
  it('gives visitors nothing, readers the list with their votes, staff the profile links', async () => {
    const ctx = { db: db(), cloudflare: { env } } as never
    const visitor = await loadCommentsBox(ctx, school.tenantId, { type: 'lecture', id: lectureId }, null, { loginPath: `/${courseSlug}/watch/login` })
    expect(visitor).toMatchObject({ comments: [], canRead: false, loginPath: `/${courseSlug}/watch/login` })
    const none = await loadCommentsBox(ctx, school.tenantId, { type: 'lecture', id: lectureId }, { id: 'nobody', name: 'X', role: 'student' }, { loginPath: '/' })
    expect(none.canRead).toBe(false)
    const asStaff = await loadCommentsBox(ctx, school.tenantId, { type: 'lecture', id: lectureId }, { id: school.owner.id, name: 'Owner Person', role: 'owner' }, { loginPath: '/' })
    expect(asStaff.canComment).toBe(true)
    const student = asStaff.comments.find((c) => !c.byAdmin && c.author.id)!
    expect(student.author.profilePath).toBe(`/home/students/${student.author.id}`)
    const closed = await loadCommentsBox(ctx, school.tenantId, { type: 'lecture', id: closedLectureId }, { id: samId, name: 'Sam Student', role: 'student' }, { loginPath: '/' })
    expect(closed).toMatchObject({ canRead: true, canComment: false })
    // Another school's lecture does not exist here.
    const foreign = await loadCommentsBox(ctx, other.tenantId, { type: 'lecture', id: lectureId }, { id: other.owner.id, name: 'O', role: 'owner' }, { loginPath: '/' })
    expect(foreign.canRead).toBe(false)
  })
})

describe('/home/comments', () => {
  it('lists the newest comments for staff (filter by course), 404 for students', async () => {
    expect((await appFetch(school.host, '/home/comments', { cookie: sam })).status).toBe(404)
    const page = await appFetch(school.host, `/home/comments?course=${courseId}`, { cookie: owner })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Rust basics')
    expect(html).toContain('data-feed-comment')
    expect(page.headers.get('Cache-Control') ?? '').not.toMatch(/s-maxage/)
  })

  it('deletes and converts from the feed', async () => {
    const id = (await comment('Feed delete me', sam)).json.comment.id as string
    const del = await appFetch(school.host, '/home/comments', { form: { intent: 'delete', commentId: id }, cookie: owner })
    expect(del.status).toBe(200)
    expect(await env.DB_SHARD_0.prepare('SELECT id FROM comments WHERE id = ?').bind(id).first()).toBeNull()
    const conv = (await comment('Feed convert me', sam)).json.comment.id as string
    const res = await appFetch(school.host, '/home/comments', { form: { intent: 'convert', commentId: conv, score: '10' }, cookie: owner })
    expect(res.status).toBe(200)
    expect(await env.DB_SHARD_0.prepare('SELECT rating FROM reviews WHERE source_comment_id = ?').bind(conv).first()).toEqual({ rating: 10 })
  })
})

describe('another school', () => {
  it("answers 404 to its student for every comment and reply id, and changes nothing", async () => {
    const id = (await comment('Private to this school', sam)).json.comment.id as string
    const reply = (await (await call(`/comment/${id}/reply`, { body: { body: '@Sam Student hi' }, cookie: kim })).json()) as Json
    const probes: Array<[string, string, Record<string, unknown> | undefined]> = [
      ['POST', '/comments', { id: lectureId, type: 'lecture', body: 'Sneaky comment' }],
      ['DELETE', `/comments/${id}`, undefined],
      ['POST', `/comments/${id}/set-as-review`, { score: 10 }],
      ['POST', `/comment/${id}/replies`, undefined],
      ['POST', `/comment/${id}/reply`, { body: 'Sneaky reply' }],
      ['DELETE', `/replies/${reply.reply.id}`, undefined],
      ['POST', '/vote', { value: 1, type: 'comment', id }],
      ['POST', '/vote', { value: 1, type: 'reply', id: reply.reply.id }],
    ]
    for (const [method, path, body] of probes) {
      for (const cookie of [otherStudent, undefined]) {
        const res = await call(path, { method, body, cookie, host: other.host })
        expect(res.status, `${method} ${path}`).toBe(404)
      }
    }
    const row = await env.DB_SHARD_0.prepare('SELECT replies_count, up_votes_count FROM comments WHERE id = ?').bind(id).first()
    expect(row).toEqual({ replies_count: 1, up_votes_count: 0 })
  })
})

describe('cross-tenant registry of this area (tests/integration/cross-tenant/comments.ts)', () => {
  it('every probe is 404 from another school (student, owner, visitor); controls hold at home', async () => {
    const objects = await victims({ tenantId: school.tenantId, ownerId: school.owner.id, studentId: samId })
    const otherOwner = await login(other.host, other.owner.email, other.owner.password)
    for (const [route, probes] of Object.entries(crossTenantRoutes)) {
      for (const probe of probes) {
        for (const cookie of [otherStudent, otherOwner, undefined]) {
          const res = await appFetch(other.host, probe.path(objects as never), { method: probe.method, form: probe.form, cookie })
          expect(res.status, `${probe.method} ${route}`).toBe(404)
        }
        if (probe.control) expect((await appFetch(school.host, probe.path(objects as never), { method: probe.method, form: probe.form })).status, `control ${route}`).toBe(probe.control.status)
      }
    }
    expect(await env.DB_SHARD_0.prepare('SELECT replies_count FROM comments WHERE id = ?').bind(objects.commentId).first()).toEqual({ replies_count: 1 })
  })
})
