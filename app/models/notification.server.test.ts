import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { emailOutbox } from '#app/db/schema.server.ts'
import { updatePageSettings, parseNotificationPrefs } from '#app/models/page-settings.server.ts'
import { createUser } from '#app/models/user.server.ts'
import { createTestSchool, createTestStudent, db, dbs } from '#tests/factories.ts'
import { countUnreadNotifications, excerptOf, listNotifications, markAllNotificationsRead, notifyStaffWith, openNotification } from './notification.server.ts'

async function schoolWithAdmin() {
  const school = await createTestSchool()
  const admin = await createUser(db(), school.tenantId, { email: `admin-${school.slug}@example.com`, name: 'Ada Admin', passwordHash: 'x', role: 'admin' })
  const student = await createTestStudent(school.tenantId)
  return { school, admin: admin!, student, info: { id: school.tenantId, name: `School ${school.slug}`, language: 'en' as const, hostname: school.host } }
}

const outboxOf = (tenantId: string) => db().select().from(emailOutbox).where(eq(emailOutbox.tenantId, tenantId))

describe('staff notifications', () => {
  it('one row per owner and admin (not students) and an email each when the preference is on', async () => {
    const { school, admin, student, info } = await schoolWithAdmin()
    const sent = await notifyStaffWith({ db: db(), queue: undefined }, info, { kind: 'review', subjectId: 'r1', actorName: 'Sam', excerpt: 'Great   course\n<b>really</b>', link: '/home/reviews', origin: 'http://x.localhost:8787' }, 1_800_000_000_000)
    expect(sent).toBe(2)
    expect(await countUnreadNotifications(db(), school.tenantId, school.owner.id)).toBe(1)
    expect(await countUnreadNotifications(db(), school.tenantId, admin.id)).toBe(1)
    expect(await countUnreadNotifications(db(), school.tenantId, student.id)).toBe(0)
    const [row] = (await listNotifications(db(), school.tenantId, school.owner.id)).notifications
    expect(row).toMatchObject({ kind: 'review', subjectId: 'r1', actorName: 'Sam', excerpt: 'Great course <b>really</b>', link: '/home/reviews', readAt: null })
    const mails = await outboxOf(school.tenantId)
    const staffMails = mails.filter((m) => m.template === 'staff_review')
    expect(staffMails.map((m) => m.toAddress).sort()).toEqual([admin.email, school.owner.email].sort())
    expect(staffMails[0].subject).toBe(`New review on ${info.name} from Sam`)
    expect(staffMails[0].textBody).toContain('http://x.localhost:8787/home/reviews')
    expect(staffMails[0].htmlBody).toContain('&lt;b&gt;really&lt;/b&gt;')
    expect(staffMails[0].htmlBody).not.toContain('<b>really')
  })

  it('no email when the school turned that kind off (replies follow the comment preference); the in-app row stays', async () => {
    const { school, info } = await schoolWithAdmin()
    await updatePageSettings(dbs(), school.tenantId, { notifications: { ...parseNotificationPrefs('{}'), comment: false } })
    await notifyStaffWith({ db: db(), queue: undefined }, info, { kind: 'reply', subjectId: 'c1', actorName: 'Sam', excerpt: 'hi', link: '/x' })
    await notifyStaffWith({ db: db(), queue: undefined }, info, { kind: 'comment', subjectId: 'c2', actorName: 'Sam', excerpt: 'hi', link: '/x' })
    const mails = await db().select().from(emailOutbox).where(and(eq(emailOutbox.tenantId, school.tenantId)))
    expect(mails.filter((m) => m.template.startsWith('staff_'))).toEqual([])
    expect(await countUnreadNotifications(db(), school.tenantId, school.owner.id)).toBe(2)
  })

  it('mark all read, open one, and never another user or school', async () => {
    const { school, admin, info } = await schoolWithAdmin()
    const other = await createTestSchool()
    await notifyStaffWith({ db: db(), queue: undefined }, info, { kind: 'comment', subjectId: 'c1', actorName: 'Sam', excerpt: 'one', link: '/javascript/watch/1' }, 1)
    await notifyStaffWith({ db: db(), queue: undefined }, info, { kind: 'comment', subjectId: 'c2', actorName: 'Sam', excerpt: 'two', link: 'https://evil.example/' }, 2)
    const list = await listNotifications(db(), school.tenantId, school.owner.id)
    expect(list.notifications.map((n) => n.excerpt)).toEqual(['two', 'one'])
    // Only in-school paths are kept as links.
    expect(list.notifications[0].link).toBe('/home/notifications')
    const ownersFirst = list.notifications[1]
    expect(await openNotification(db(), other.tenantId, school.owner.id, ownersFirst.id)).toBeNull()
    expect(await openNotification(db(), school.tenantId, admin.id, ownersFirst.id)).toBeNull()
    expect(await openNotification(db(), school.tenantId, school.owner.id, ownersFirst.id)).toBe('/javascript/watch/1')
    expect(await countUnreadNotifications(db(), school.tenantId, school.owner.id)).toBe(1)
    expect(await markAllNotificationsRead(db(), other.tenantId, school.owner.id)).toBe(0)
    expect(await markAllNotificationsRead(db(), school.tenantId, school.owner.id)).toBe(1)
    expect(await countUnreadNotifications(db(), school.tenantId, school.owner.id)).toBe(0)
    expect(await countUnreadNotifications(db(), school.tenantId, admin.id)).toBe(2)
    expect(excerptOf('x'.repeat(500)).length).toBe(160)
  })
})
