// Issue 26 acceptance: a new school lands on the emptier shard (ADR 033) — the shard D1 reports
// as the smallest, whatever the order of the bindings — through the platform's signup form.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { appFetch, createTestSchool } from '#tests/factories.ts'

const PLATFORM = 'localhost:8787'
const shards = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database; DB_SHARD_1: D1Database }
const shardD1 = (shard: number) => (shard === 0 ? shards.DB_SHARD_0 : shards.DB_SHARD_1)

/** The size D1 reports for a shard's database, in bytes (what placement reads). */
const sizeOf = async (shard: number) => Number((await shardD1(shard).prepare('SELECT 1').run()).meta.size_after)

/** Grows a shard past the other by sent mail of a school living there (real rows, as a busy school has). */
async function makeFuller(shard: number) {
  const other = 1 - shard
  const school = await createTestSchool({ shard })
  const body = 'x'.repeat(4_000)
  let n = 0
  while ((await sizeOf(shard)) <= (await sizeOf(other)) + 64 * 1024) {
    const now = Date.now()
    await shardD1(shard).batch(
      Array.from({ length: 50 }, (_, i) =>
        shardD1(shard)
          .prepare("INSERT INTO email_outbox (id, tenant_id, template, to_address, subject, text_body, html_body, status, created_at, sent_at) VALUES (?, ?, 'newsletter', 'reader@example.com', 'News', ?, ?, 'sent', ?, ?)")
          .bind(`pad-${school.tenantId}-${n}-${i}`, school.tenantId, body, body, now, now),
      ),
    )
    n++
  }
}

async function signUp(slug: string) {
  const res = await appFetch(PLATFORM, '/signup', {
    form: { school_name: `School ${slug}`, slug, language: 'en', currency: 'EUR', name: 'Ada Owner', email: `${slug}@example.com`, password: 'secret-owner-pass', password_confirmation: 'secret-owner-pass' },
  })
  expect(res.status, await res.clone().text()).toBe(302)
  const row = await shards.DB.prepare('SELECT id, shard FROM tenants WHERE slug = ?').bind(slug).first<{ id: string; shard: number }>()
  return row!
}

describe('placing a new school (ADR 033)', () => {
  it('puts each signup on the shard with the most room, and the school is served from there', async () => {
    await makeFuller(1)
    const first = await signUp('placed-on-zero')
    expect(first.shard).toBe(0)

    await makeFuller(0)
    const second = await signUp('placed-on-one')
    expect(second.shard).toBe(1)

    // Each school's rows are in its shard and nowhere else.
    for (const [school, home] of [[first, 0], [second, 1]] as const) {
      const users = async (shard: number) => (await shardD1(shard).prepare('SELECT count(*) AS n FROM users WHERE tenant_id = ?').bind(school.id).first<{ n: number }>())!.n
      expect(await users(home)).toBe(1)
      expect(await users(1 - home)).toBe(0)
    }
    // The school answers on its own host from its shard.
    const page = await appFetch('placed-on-one.localhost:8787', '/')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('School placed-on-one')
  })
})
