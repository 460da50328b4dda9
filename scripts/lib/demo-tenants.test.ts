import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildSeedSql, DemoTenantSchema, loadDemoTenants } from './demo-tenants.ts'

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
})
