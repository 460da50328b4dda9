import { describe, expect, it } from 'vitest'
import { createTestSchool, db, control, dbs } from '#tests/factories.ts'
import { getAuthorName, getCreatorCode, getPageSettings, parseNotificationPrefs, updatePageSettings } from './page-settings.server.ts'

describe('parseNotificationPrefs', () => {
  it('defaults every event to on and keeps only explicit offs', () => {
    const all = { lead: true, review: true, comment: true, transaction: true, registration: true }
    expect(parseNotificationPrefs('{}')).toEqual(all)
    expect(parseNotificationPrefs('not json')).toEqual(all)
    expect(parseNotificationPrefs('[false]')).toEqual(all)
    expect(parseNotificationPrefs(null)).toEqual(all)
    expect(parseNotificationPrefs('{"lead":false,"review":"no","other":false}')).toEqual({ ...all, lead: false })
  })
})

describe('page settings', () => {
  it('reads the defaults of a new school', async () => {
    const school = await createTestSchool({ name: 'Budget School', language: 'pl' })
    expect(await getPageSettings(dbs(), school.tenantId)).toEqual({
      name: 'Budget School',
      language: 'pl',
      authorName: '',
      bio: '',
      contactEmail: '',
      template: 'classic',
      customJs: '',
      conversionCode: '',
      notifications: { lead: true, review: true, comment: true, transaction: true, registration: true },
    })
    expect(await getPageSettings(dbs(), 'no-such-tenant')).toBeUndefined()
  })

  it('saves the given fields of one school only', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const before = await getPageSettings(dbs(), b.tenantId)
    expect(
      await updatePageSettings(dbs(), a.tenantId, {
        name: 'New name',
        template: 'bold',
        authorName: 'Anna Nowak',
        bio: '**Hi**',
        contactEmail: 'hello@example.com',
        customJs: 'window.x = 1',
        conversionCode: '<script>y()</script>',
        notifications: { lead: false, review: true, comment: false, transaction: true, registration: true },
      }),
    ).toBe(true)
    expect(await getPageSettings(dbs(), a.tenantId)).toMatchObject({ name: 'New name', language: 'en', template: 'bold', authorName: 'Anna Nowak', bio: '**Hi**', contactEmail: 'hello@example.com', notifications: { lead: false, comment: false, review: true } })
    expect(await getPageSettings(dbs(), b.tenantId)).toEqual(before)
    expect(await getAuthorName(db(), a.tenantId)).toBe('Anna Nowak')
    expect(await getCreatorCode(control(), a.tenantId)).toEqual({ customJs: 'window.x = 1', conversionCode: '<script>y()</script>' })
    expect(await getCreatorCode(control(), b.tenantId)).toEqual({ customJs: '', conversionCode: '' })
    // Only what is given changes.
    await updatePageSettings(dbs(), a.tenantId, { language: 'pl' })
    expect(await getPageSettings(dbs(), a.tenantId)).toMatchObject({ name: 'New name', language: 'pl', template: 'bold' })
    expect(await updatePageSettings(dbs(), 'no-such-tenant', { name: 'x' })).toBe(false)
  })
})
