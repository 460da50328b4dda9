import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { parseObjectKey } from '#app/media/policy.ts'
import { BLOCK_TYPES } from '#app/storefront/blocks.ts'
import { buildSeedSql, demoImageObjects, DemoTenantSchema, loadDemoTenants } from './demo-tenants.ts'

const root = join(import.meta.dirname, '..', '..')

describe('demo tenants', () => {
  it('declares both demo schools with a catalogue and seeds it by stable ids', async () => {
    const demo = loadDemoTenants(join(root, 'tenants'))
    expect(demo.tenants.map((t) => t.slug)).toEqual(['akademia-kasi', 'code-academy'])
    for (const t of demo.tenants) expect(t.products.length).toBeGreaterThan(0)
    const sql = await buildSeedSql(demo, 'localhost', 1_700_000_000_000)
    expect(sql).toContain("'Budżet domowy od zera'")
    expect(sql).toContain("'JavaScript Foundations'")
    expect(sql.match(/INSERT INTO lectures/g)?.length).toBe(15)
    // The same input gives the same ids: running the seed twice updates instead of adding.
    const again = await buildSeedSql(demo, 'localhost', 1_700_000_000_000)
    const ids = (s: string) => s.match(/INSERT INTO (?:products|sections|lectures) \([^)]*\) VALUES \('([0-9a-f]{24})'/g)
    expect(ids(again)).toEqual(ids(sql))
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
    const sql = await buildSeedSql(demo, 'localhost', 1_700_000_000_000)
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
})
