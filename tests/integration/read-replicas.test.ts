// D1's Sessions API on a school's shard (ADR 033, read replicas): a request that wrote hands the
// visitor its bookmark in a cookie, so their next reads are never older than their own write; a
// page read alone sets nothing (it stays cacheable); a forged bookmark is ignored, never a 5xx.
// Locally D1 has no replicas: this proves the plumbing (sessions, bookmarks, cookie), not the lag.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { schoolSettings } from '#app/db/schema.server.ts'
import { shardDb, shardSession, validBookmark } from '#app/db/shards.server.ts'
import { appFetch, createTestSchool, createTestStudent, login } from '#tests/factories.ts'

const bookmarkOf = (res: Response) => /(?:^|,\s*)d1_bookmark=([^;]+)/.exec(res.headers.get('Set-Cookie') ?? '')?.[1] ?? null

describe('read replicas: the bookmark cookie', () => {
  it('is set after a write with D1’s bookmark, HttpOnly and host-only, and is sent back on the next read', async () => {
    const school = await createTestSchool()
    const student = await createTestStudent(school.tenantId, { name: 'Reader One' })
    const cookie = await login(school.host, student.email, student.password)

    const saved = await appFetch(school.host, '/account', { form: { intent: 'name', name: 'Reader Renamed' }, cookie })
    expect(saved.status).toBe(302)
    const bookmark = bookmarkOf(saved)
    expect(validBookmark(decodeURIComponent(bookmark ?? ''))).not.toBeNull()
    const header = saved.headers.get('Set-Cookie')!
    expect(header).toMatch(/d1_bookmark=[^;]+; Path=\/; SameSite=Lax; HttpOnly; Max-Age=600/)
    expect(header).not.toMatch(/d1_bookmark=[^;]+;[^,]*Domain=/i)

    // The next page, read from a replica at least as new as that write: the new name is there.
    const account = await appFetch(school.host, '/account', { cookie: `${cookie}; d1_bookmark=${bookmark}` })
    expect(account.status).toBe(200)
    expect(await account.text()).toContain('Reader Renamed')
    expect(bookmarkOf(account)).toBeNull()
  })

  it('is not set by a page that only reads, and a forged one is ignored', async () => {
    const school = await createTestSchool()
    const page = await appFetch(school.host, '/')
    expect(page.status).toBe(200)
    expect(bookmarkOf(page)).toBeNull()
    for (const forged of ['garbage', '00000000-00000001', `${'f'.repeat(8)}-${'f'.repeat(8)}-${'f'.repeat(8)}-${'f'.repeat(31)}`, "'; DROP TABLE users; --"]) {
      const res = await appFetch(school.host, '/', { cookie: `d1_bookmark=${encodeURIComponent(forged)}` })
      expect(res.status, forged).toBe(200)
    }
  })

  it('runs a request’s queries in one session: its writes seen by its own later reads, a bookmark after, the primary untouched by the handle', async () => {
    const school = await createTestSchool()
    const shards = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database }
    const session = shardSession(shards, 0, { write: true, bookmark: null })
    expect(session.bookmark()).toBeNull()
    await session.db.update(schoolSettings).set({ bio: 'Written in the session' }).where(eq(schoolSettings.tenantId, school.tenantId))
    const [read] = await session.db.select({ bio: schoolSettings.bio }).from(schoolSettings).where(eq(schoolSettings.tenantId, school.tenantId))
    expect(read!.bio).toBe('Written in the session')
    const bookmark = session.bookmark()
    expect(validBookmark(bookmark)).toBe(bookmark)
    // A later reader carrying that bookmark sees the write; the plain handle does too (one database locally).
    const reader = shardSession(shards, 0, { write: false, bookmark })
    expect((await reader.db.select({ bio: schoolSettings.bio }).from(schoolSettings).where(eq(schoolSettings.tenantId, school.tenantId)))[0]!.bio).toBe('Written in the session')
    expect((await shardDb(shards, 0).select({ bio: schoolSettings.bio }).from(schoolSettings).where(eq(schoolSettings.tenantId, school.tenantId)))[0]!.bio).toBe('Written in the session')
    expect(validBookmark('not-a-bookmark')).toBeNull()
  })
})
