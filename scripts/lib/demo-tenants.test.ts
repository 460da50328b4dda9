import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { parseObjectKey } from '#app/domain/upload-policy.ts'
import { BLOCK_TYPES } from '#app/domain/blocks.ts'
import { readFileSync } from 'node:fs'
import { openSecret } from '#app/utils/secret-box.server.ts'
import { buildPeerSeedSql, buildSeedSql, demoImageObjects, demoIntegrationId, DemoTenantSchema, devIntegrationsKey, loadDemoTenants } from './demo-tenants.ts'

const root = join(import.meta.dirname, '..', '..')
const key = devIntegrationsKey(readFileSync(join(root, 'wrangler.toml'), 'utf8'))

/** Every database's SQL in one text (the control plane's, then each shard's). */
async function seedSql(...args: Parameters<typeof buildSeedSql>) {
  const seeded = await buildSeedSql(...args)
  return [seeded.control, ...seeded.shards].join('\n')
}

describe('demo tenants', () => {
  it('declares both demo schools with a catalogue and seeds it by stable ids', async () => {
    const demo = loadDemoTenants(join(root, 'tenants'))
    expect(demo.tenants.map((t) => t.slug)).toEqual(['akademia-kasi', 'code-academy'])
    for (const t of demo.tenants) expect(t.products.length).toBeGreaterThan(0)
    const sql = await seedSql(demo, 'localhost', 1_700_000_000_000, key)
    expect(sql).toContain("'Budżet domowy od zera'")
    expect(sql).toContain("'JavaScript Foundations'")
    expect(sql.match(/INSERT INTO lectures/g)?.length).toBe(15)
    // The same input gives the same ids: running the seed twice updates instead of adding.
    const again = await seedSql(demo, 'localhost', 1_700_000_000_000, key)
    const ids = (s: string) => s.match(/INSERT INTO (?:products|sections|lectures) \([^)]*\) VALUES \('([0-9a-f]{24})'/g)
    expect(ids(again)).toEqual(ids(sql))
  })

  it('puts the schools in the control plane and spreads their data over the shards in turn (ADR 033)', async () => {
    const demo = loadDemoTenants(join(root, 'tenants'))
    const seeded = await buildSeedSql(demo, 'localhost', 1_700_000_000_000, key, 2)
    expect(seeded.control).toMatch(/INSERT INTO tenants \(id, slug, name, status, language, currency, contact_email, shard, created_at, updated_at\) VALUES \('\w+', 'akademia-kasi', '[^']+', 'active', 'pl', 'PLN', '[^']*', 0,/)
    expect(seeded.control).toMatch(/'code-academy', '[^']+', 'active', 'en', 'USD', '[^']*', 1,/)
    expect(seeded.control).toContain('INSERT INTO operators')
    expect(seeded.control).not.toMatch(/INSERT INTO (users|products|school_settings)/)
    expect(seeded.shards).toHaveLength(2)
    expect(seeded.shards[0]).toContain("'Budżet domowy od zera'")
    expect(seeded.shards[1]).toContain("'JavaScript Foundations'")
    for (const shard of seeded.shards) expect(shard).not.toMatch(/INSERT INTO (tenants|domains|operators) /)
  })

  it('refuses a bundle of an unknown product and access for someone who is not a student', async () => {
    const base = { slug: 'test-school', name: 'Test school', language: 'en', currency: 'USD', users: [{ role: 'owner', name: 'O', email: 'o@example.com', password: 'secret-1' }] }
    const bundle = DemoTenantSchema.parse({ ...base, products: [{ slug: 'my-bundle', kind: 'bundle', title: 'B', price: 100, includes: ['missing'] }] })
    await expect(buildSeedSql({ tenants: [bundle], operators: [] }, 'localhost')).rejects.toThrow(/includes unknown product missing/)
    const access = DemoTenantSchema.parse({ ...base, products: [{ slug: 'my-course', kind: 'course', title: 'C', access: ['o@example.com'] }] })
    await expect(buildSeedSql({ tenants: [access], operators: [] }, 'localhost')).rejects.toThrow(/not a student/)
  })

  it('gives each demo school a published sales page with every block type, articles, reviews and images', async () => {
    const demo = loadDemoTenants(join(root, 'tenants'))
    const sql = await seedSql(demo, 'localhost', 1_700_000_000_000, key)
    for (const t of demo.tenants) {
      for (const type of BLOCK_TYPES) expect(sql, `${t.slug} ${type}`).toContain(`'demo-${t.slug}-${type}'`)
      expect(t.reviews.length).toBeGreaterThanOrEqual(12)
      expect(t.articles.length).toBeGreaterThan(0)
    }
    expect(sql.match(/INSERT INTO reviews/g)?.length).toBe(demo.tenants.reduce((n, t) => n + t.reviews.length, 0))
    const images = demoImageObjects(demo.tenants)
    expect(images.length).toBeGreaterThan(0)
    for (const image of images) {
      expect(existsSync(image.file), image.file).toBe(true)
      // Shaped like an upload, or the media worker would not serve it.
      expect(parseObjectKey(image.key), image.key).toMatchObject({ context: 'image', kind: 'svg' })
      expect(sql).toContain(`'${image.key}'`)
    }
  })

  it('refuses a demo block whose props the editor would refuse', async () => {
    const base = { slug: 'test-school', name: 'Test school', language: 'en', currency: 'USD', users: [{ role: 'owner', name: 'O', email: 'o@example.com', password: 'secret-1' }] }
    const bad = DemoTenantSchema.parse({ ...base, subpages: [{ slug: 'x', title: 'X', blocks: [{ type: 'faq', props: { items: [] } }] }] })
    await expect(buildSeedSql({ tenants: [bad], operators: [] }, 'localhost')).rejects.toThrow(/test-school\/x\/faq/)
  })

  it('seeds promo codes and payment integrations sealed for their school, with the Stripe peer endpoint on the same notify URL', async () => {
    const demo = loadDemoTenants(join(root, 'tenants'))
    const sql = await seedSql(demo, 'localhost', 1_700_000_000_000, key)
    expect(sql.match(/INSERT INTO promo_codes/g)?.length).toBe(6)
    expect(sql).toContain("'WELCOME20'")
    const payu = /INSERT INTO payment_integrations \(.*?\) VALUES \('(\w+)', '(\w+)', 'payu', 'PLN', '([^']+)'/.exec(sql)
    expect(payu?.[1]).toBe(demoIntegrationId('akademia-kasi', 'payu', 'PLN'))
    // Sealed for akademia-kasi: opens with its tenant id and purpose only.
    const opened = JSON.parse((await openSecret(key, payu![2], 'payment:payu', payu![3]))!)
    expect(opened).toMatchObject({ posId: '300746', secondKey: 'coursefront_dev_payu_second_key_0000' })
    expect(await openSecret(key, 'another-tenant', 'payment:payu', payu![3])).toBeNull()
    expect(sql).not.toContain('coursefront_dev_payu_second_key_0000')
    const peers = buildPeerSeedSql(demo, 'localhost').join('\n')
    expect(peers).toContain(`http://code-academy.localhost/payments/stripe/${demoIntegrationId('code-academy', 'stripe', 'USD')}/notify`)
    expect(peers).toContain('whsec_coursefrontdemocodeacademy000000000000')
    await expect(buildSeedSql(demo, 'localhost')).rejects.toThrow(/INTEGRATIONS_KEY/)
  })

  it('seeds Akademia Kasi with Fakturownia, Mailchimp and a webhook, sealed for the school, never in clear', async () => {
    const demo = loadDemoTenants(join(root, 'tenants'))
    const sql = await seedSql(demo, 'localhost', 1_700_000_000_000, key)
    const rows = [...sql.matchAll(/INSERT INTO business_integrations \(.*?\) VALUES \('\w+', '(\w+)', '(\w+)', '(\w+)', '([^']+)', '([^']*)', '([^']*)'/g)]
    expect(rows.map((r) => [r[2], r[3]])).toEqual([['invoice', 'fakturownia'], ['mailing', 'mailchimp']])
    const [fakturownia, mailchimp] = rows
    expect(JSON.parse((await openSecret(key, fakturownia![1], 'integration:fakturownia', fakturownia![4]))!)).toEqual({ account: 'coursefront-dev', apiToken: 'coursefront_dev_fakturownia_token_0000' })
    expect(JSON.parse(mailchimp![6]!)).toEqual({ listId: 'c0de000001', listName: 'Newsletter', subscribeBuyers: true, subscribeLeads: true })
    expect(sql).not.toContain('coursefront_dev_fakturownia_token_0000')
    expect(sql).not.toContain('c0ffee00c0ffee00c0ffee00c0ffee00-us21')
    const hook = /INSERT INTO webhooks \(.*?\) VALUES \('\w+', '(\w+)', 'student.paid', '([^']+)', '([^']+)', '(\w+)'/.exec(sql)
    expect(hook?.[2]).toBe('http://webhooks.dev-peers.internal/webhook-receiver/akademia-kasi')
    expect(await openSecret(key, hook![1], 'webhook', hook![3])).toBe('whsec_akademia_kasi_demo_secret_0000')
    expect(sql).not.toContain('whsec_akademia_kasi_demo_secret_0000')
  })
  it('seeds each demo school a community: topics (a members-only one), school and student posts, a pinned post, by stable ids', async () => {
    const demo = loadDemoTenants(join(root, 'tenants'))
    const sql = await seedSql(demo, 'localhost', 1_700_000_000_000, key)
    const kasi = demo.tenants.find((t) => t.slug === 'akademia-kasi')!
    expect(kasi.community?.topics.map((t) => [t.access, t.products])).toEqual([
      ['public', []],
      ['restricted', ['klub-akademii-kasi']],
    ])
    for (const t of demo.tenants) {
      const posts = t.community?.posts ?? []
      expect(posts.some((p) => p.author === 'school'), t.slug).toBe(true)
      expect(posts.some((p) => p.author !== 'school'), t.slug).toBe(true)
      expect(posts.filter((p) => p.pinned).length, t.slug).toBeGreaterThan(0)
    }
    const topics = [...sql.matchAll(/INSERT INTO community_topics \([^)]*\) VALUES \('(\w+)', '\w+', '([^']+)', '[^']*', (\d), '(\w+)'/g)]
    expect(topics.map((m) => m[4])).toContain('restricted')
    expect(sql.match(/INSERT INTO community_posts/g)?.length).toBe(demo.tenants.reduce((n, t) => n + (t.community?.posts.length ?? 0), 0))
    // A restricted topic is opened by its product only; every pin names a seeded post of that topic.
    const restricted = topics.find((m) => m[2] === 'Klub: wyzwania miesiąca')!
    expect(sql).toMatch(new RegExp(`INSERT OR IGNORE INTO community_topic_products \\(tenant_id, topic_id, product_id\\) VALUES \\('\\w+', '${restricted[1]}', '\\w+'\\);`))
    for (const pin of sql.matchAll(/UPDATE community_topics SET pinned_post_id = '(\w+)' WHERE tenant_id = '\w+' AND id = '(\w+)'/g)) {
      expect(sql).toMatch(new RegExp(`INSERT INTO community_posts \\([^)]*\\) VALUES \\('${pin[1]}', '\\w+', '${pin[2]}'`))
    }
    // The school's posts are by the owner and marked as the school's; a student's are not.
    expect(sql).toMatch(/INSERT INTO community_posts \([^)]*\) VALUES \('\w+', '\w+', '\w+', '\w+', 'Kasia Nowak', 1, 'Witajcie w społeczności Akademii Kasi!'/)
    expect(sql).toMatch(/INSERT INTO community_posts \([^)]*\) VALUES \('\w+', '\w+', '\w+', '\w+', 'Ola Wiśniewska', 0, 'Jak zacząć, gdy nie wiem, ile wydaję\?'/)
    const ids = (s: string) => s.match(/INSERT INTO community_(?:topics|posts) \([^)]*\) VALUES \('([0-9a-f]{24})'/g)
    expect(ids(await seedSql(demo, 'localhost', 1_700_000_000_000, key))).toEqual(ids(sql))
  })

  it('refuses a community topic or post that names what the school does not have', async () => {
    const base = {
      slug: 'test-school',
      name: 'Test school',
      language: 'en',
      currency: 'USD',
      users: [
        { role: 'owner', name: 'O', email: 'o@example.com', password: 'secret-1' },
        { role: 'student', name: 'S', email: 's@example.com', password: 'secret-1' },
      ],
      products: [{ slug: 'my-course', kind: 'course', title: 'C' }],
    }
    const topic = { title: 'Lounge' }
    const post = { topic: 'Lounge', author: 's@example.com', title: 'Hello there', body: 'Nice to meet you' }
    const seed = (community: unknown) => seedSql({ tenants: [DemoTenantSchema.parse({ ...base, community })], operators: [] }, 'localhost')
    await expect(seed({ topics: [{ ...topic, access: 'restricted', products: ['missing'] }] })).rejects.toThrow(/unknown product missing/)
    await expect(seed({ topics: [{ ...topic, access: 'restricted' }] })).rejects.toThrow(/names no product/)
    await expect(seed({ topics: [topic], posts: [{ ...post, topic: 'Elsewhere' }] })).rejects.toThrow(/unknown topic Elsewhere/)
    await expect(seed({ topics: [topic], posts: [{ ...post, author: 'x@example.com' }] })).rejects.toThrow(/not a user/)
    await expect(seed({ topics: [topic], posts: [{ ...post, pinned: true }, { ...post, title: 'Second post', pinned: true }] })).rejects.toThrow(/two pinned posts/)
    expect(() => DemoTenantSchema.parse({ ...base, community: { topics: [topic], posts: [{ ...post, title: 'Hi' }] } })).toThrow()
    await expect(seed({ topics: [{ ...topic, access: 'restricted', products: ['my-course'], course: 'my-course' }], posts: [{ ...post, author: 'school', pinned: true }] })).resolves.toContain("'Lounge'")
  })
})
