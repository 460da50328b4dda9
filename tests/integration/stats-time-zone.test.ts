// Issue 24 item 3: the school's time zone on /home/settings/page — an IANA zone the runtime knows
// or "automatic" (by language); anything else is a field error in the page's language and nothing
// is written. The stats page then counts days in it.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { schoolSettings, tenants } from '#app/db/schema.server.ts'
import { schoolTimeZone } from '#app/domain/school-time-zone.ts'
import { appFetch, control, createTestSchool, db, login } from '#tests/factories.ts'

const form = (fields: Record<string, string>) => ({
  avatarPath: '',
  coverPath: '',
  name: 'Zone School',
  language: 'pl',
  template: 'classic',
  authorName: '',
  bio: '',
  contactEmail: '',
  customJs: '',
  conversionCode: '',
  ...fields,
})
const stored = async (tenantId: string) => ({ ...(await db().select({ timeZone: schoolSettings.timeZone }).from(schoolSettings).where(eq(schoolSettings.tenantId, tenantId)))[0], ...(await control().select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)))[0] })

describe('the school time zone', () => {
  it('saves a known zone and "automatic"; the stats page follows it', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    const page = await (await appFetch(school.host, '/home/settings/page', { cookie })).text()
    expect(page).toContain('name="timeZone"')
    expect(page).toContain('Automatycznie (Europe/Warsaw)')
    expect(page).toContain('<option value="America/New_York">America/New_York</option>')
    expect(await (await appFetch(school.host, '/home/stats', { cookie })).text()).toContain('data-stats-zone="Europe/Warsaw"')

    const saved = await appFetch(school.host, '/home/settings/page', { cookie, form: form({ timeZone: 'America/New_York' }) })
    expect(saved.status).toBe(302)
    expect(await stored(school.tenantId)).toEqual({ timeZone: 'America/New_York', name: 'Zone School' })
    expect(await (await appFetch(school.host, '/home/settings/page', { cookie })).text()).toMatch(/<option value="America\/New_York" selected="">|value="America\/New_York" selected/)
    expect(await (await appFetch(school.host, '/home/stats', { cookie })).text()).toContain('data-stats-zone="America/New_York"')

    expect((await appFetch(school.host, '/home/settings/page', { cookie, form: form({ timeZone: '' }) })).status).toBe(302)
    expect((await stored(school.tenantId)).timeZone).toBe('')
    // An older form without the field keeps the stored zone.
    await appFetch(school.host, '/home/settings/page', { cookie, form: form({ timeZone: 'Asia/Tokyo' }) })
    expect((await appFetch(school.host, '/home/settings/page', { cookie, form: form({ name: 'Renamed' }) })).status).toBe(302)
    expect(await stored(school.tenantId)).toEqual({ timeZone: 'Asia/Tokyo', name: 'Renamed' })
  })

  it('refuses an unknown zone with a field error and writes nothing', async () => {
    const school = await createTestSchool({ language: 'pl' })
    const cookie = await login(school.host, school.owner.email, school.owner.password)
    await appFetch(school.host, '/home/settings/page', { cookie, form: form({ timeZone: 'Europe/Berlin' }) })
    const before = await stored(school.tenantId)
    for (const zone of ['Mars/Olympus_Mons', 'europe/warsaw', 'x'.repeat(65), 'Europe/Warsaw\u0000']) {
      const res = await appFetch(school.host, '/home/settings/page', { cookie, form: form({ timeZone: zone, name: 'Changed' }) })
      expect(res.status, zone).toBe(400)
      const html = await res.text()
      expect(html).toContain('data-field-error="timeZone"')
      expect(html, zone).toMatch(/Wybierz strefę czasową z listy\.|Dozwolone są najwyżej 64 znaki/)
      expect(await stored(school.tenantId)).toEqual(before)
    }
  })

  it('falls back to the language when nothing (or a zone the runtime lost) is stored', () => {
    expect(schoolTimeZone({ timeZone: '', language: 'pl' })).toBe('Europe/Warsaw')
    expect(schoolTimeZone({ timeZone: '', language: 'en' })).toBe('UTC')
    expect(schoolTimeZone({ timeZone: 'Not/AZone', language: 'en' })).toBe('UTC')
    expect(schoolTimeZone({ timeZone: 'Asia/Tokyo', language: 'pl' })).toBe('Asia/Tokyo')
  })
})
