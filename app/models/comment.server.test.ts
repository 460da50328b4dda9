import { describe, expect, it } from 'vitest'
import { createLecture, createSection } from '#app/models/course-content.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import {
  canDelete,
  castVote,
  checkBody,
  commentRights,
  createComment,
  createReply,
  deleteComment,
  deleteReply,
  firstNameOf,
  getComment,
  listCommentFeed,
  listComments,
  listReplies,
  resolveCommentable,
  targetPath,
} from './comment.server.ts'

async function setup() {
  const school = await createTestSchool()
  const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Go', published: true })
  const section = await createSection(db(), school.tenantId, course.id, 'One')
  const lecture = await createLecture(db(), school.tenantId, course.id, section!.id, { title: 'Intro', kind: 'text', published: true })
  if (!lecture || !lecture.ok) throw new Error('lecture')
  const target = (await resolveCommentable(db(), school.tenantId, 'lecture', lecture.lecture.id))!
  const student = await createTestStudent(school.tenantId, { name: 'Ada Lovelace' })
  return { school, course, target, ada: { id: student.id, name: 'Ada Lovelace', role: 'student' as const }, owner: { id: school.owner.id, name: 'Owner Person', role: 'owner' as const } }
}

describe('comment rules', () => {
  it('checks 2..1200 characters after trimming', () => {
    expect(checkBody(' a ')).toEqual({ ok: false, problem: 'min', length: 1 })
    expect(checkBody(' ab ')).toEqual({ ok: true, body: 'ab' })
    expect(checkBody('x'.repeat(1200))).toMatchObject({ ok: true })
    expect(checkBody('x'.repeat(1201))).toEqual({ ok: false, problem: 'max', length: 1201 })
  })

  it('lets staff delete anything and students only their own non-admin items', () => {
    const student = { id: 's1', name: 'S', role: 'student' as const }
    expect(canDelete(student, { userId: 's1', byAdmin: false })).toBe(true)
    expect(canDelete(student, { userId: 's2', byAdmin: false })).toBe(false)
    expect(canDelete(student, { userId: 's1', byAdmin: true })).toBe(false)
    expect(canDelete({ id: 'a', name: 'A', role: 'admin' }, { userId: 's2', byAdmin: true })).toBe(true)
    expect(canDelete(null, { userId: null, byAdmin: false })).toBe(false)
  })

  it('takes the first name for converted reviews', () => {
    expect(firstNameOf('  Ada  Lovelace ')).toBe('Ada')
  })
})

describe('comments in D1', () => {
  it('resolves lectures of this school only, with the watch path', async () => {
    const { school, target, course } = await setup()
    expect(targetPath(target)).toBe(`/${course.slug}/watch/${target.id}`)
    const other = await createTestSchool()
    expect(await resolveCommentable(db(), other.tenantId, 'lecture', target.id)).toBeNull()
    expect(await resolveCommentable(db(), school.tenantId, 'community_post', target.id)).toBeNull()
  })

  it('gives read/write rights to staff and students with access only', async () => {
    const { school, target, ada, owner } = await setup()
    expect(await commentRights(db(), school.tenantId, target, null)).toEqual({ read: false, write: false, staff: false })
    expect(await commentRights(db(), school.tenantId, target, ada)).toEqual({ read: false, write: false, staff: false })
    expect(await commentRights(db(), school.tenantId, target, owner)).toEqual({ read: true, write: true, staff: true })
    expect(await commentRights(db(), school.tenantId, { ...target, commentsEnabled: false }, owner)).toMatchObject({ write: false })
  })

  it('keeps replies_count and votes consistent through replies, votes and deletes', async () => {
    const { school, target, ada, owner } = await setup()
    const c = await createComment(db(), school.tenantId, target, ada, 'Hello', {}, 1000)
    const older = await createComment(db(), school.tenantId, target, owner, 'Welcome', {}, 500)
    expect(c.byAdmin).toBe(false)
    expect(older.byAdmin).toBe(true)
    const r1 = await createReply(db(), school.tenantId, c.id, owner, '@Ada Lovelace hi', {}, 2000)
    await createReply(db(), school.tenantId, c.id, ada, '@Owner Person thanks', {}, 3000)
    expect((await getComment(db(), school.tenantId, c.id))?.repliesCount).toBe(2)
    expect(await castVote(db(), school.tenantId, owner.id, 'comment', c.id, 1)).toEqual({ value: 1, upVotesCount: 1 })
    expect(await castVote(db(), school.tenantId, ada.id, 'reply', r1.id, -1)).toEqual({ value: -1, upVotesCount: 0 })
    const list = await listComments(db(), school.tenantId, 'lecture', target.id, owner.id)
    expect(list.total).toBe(2)
    expect(list.comments.map((x) => [x.body, x.vote])).toEqual([
      ['Hello', 1],
      ['Welcome', 0],
    ])
    expect((await listReplies(db(), school.tenantId, c.id, ada.id)).map((r) => [r.body, r.vote])).toEqual([
      ['@Ada Lovelace hi', -1],
      ['@Owner Person thanks', 0],
    ])
    expect(await deleteReply(db(), school.tenantId, r1)).toBe(true)
    expect((await getComment(db(), school.tenantId, c.id))?.repliesCount).toBe(1)
    const feed = await listCommentFeed(db(), school.tenantId, { page: 1 })
    expect(feed.rows.map((r) => [r.body, r.courseTitle, r.lectureTitle])).toEqual([
      ['Hello', 'Go', 'Intro'],
      ['Welcome', 'Go', 'Intro'],
    ])
    expect((await deleteComment(db(), school.tenantId, c.id)).deleted).toBe(true)
    expect(await listReplies(db(), school.tenantId, c.id, null)).toEqual([])
    // Another school cannot delete it.
    const other = await createTestSchool()
    expect((await deleteComment(db(), other.tenantId, older.id)).deleted).toBe(false)
    expect(await getComment(db(), school.tenantId, older.id)).toBeDefined()
  })
})
