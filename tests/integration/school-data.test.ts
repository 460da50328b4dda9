// Issue 27 §8 acceptance through the running app: a school's export holds, for every table of the
// schema (as SQLite lists it, not the export's own list), exactly that school's rows, with secrets
// redacted, and is downloaded through a signed link (operator console, or the owner on the school's
// host); deletion suspends the school, can be undone within the grace period, and once due the cron
// function leaves no row of the school in any table, no R2 object and no custom hostname at the
// Cloudflare peer, the other school untouched.
import { env } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'
import { domainsService } from '#app/domains/domains-service.server.ts'
import { videosService } from '#app/media/videos-service.server.ts'
import { getVideo } from '#app/models/video.server.ts'
import { DELETION_GRACE_MS, runDueSchoolDeletions, runSchoolDataCron } from '#app/schools/delete-school.server.ts'
import { exportDownloadToken } from '#app/schools/export-school.server.ts'
import { REDACTED, REDACTED_COLUMNS } from '#app/schools/school-tables.server.ts'
import { appFetch, createTestOperator, createTestSchool, createTestStudent, dbOf, login, PLATFORM, type TestSchool } from '#tests/factories.ts'
import { seedSchoolContent } from '#tests/school-content.ts'
import { devPeers } from '#tests/peers/dev-peers.ts'
import type { Env } from '#app/utils/env.server.ts'

const appEnv = env as unknown as Env
const bindings = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database; DB_SHARD_1: D1Database; MEDIA: R2Bucket; INTEGRATIONS_KEY: string }
const SHARDS = [bindings.DB_SHARD_0, bindings.DB_SHARD_1]
const peers = devPeers(env.DEV_PEERS!)
const bunny = inject('bunnyPeer')
type Row = Record<string, unknown>
type ExportDocument = { format: string; school: Row; control: Record<string, Row[]>; tables: Record<string, Row[]>; files: Array<{ key: string; size: number }> }

/** Every table of a database as SQLite lists it that has a tenant_id column (the schema gate's tenant-owned tables). */
async function tenantTables(d1: D1Database) {
  const { results } = await d1
    .prepare(
      "SELECT m.name AS name FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%' AND m.name != 'd1_migrations' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'tenant_id') ORDER BY m.name",
    )
    .all<{ name: string }>()
  return results.map((r) => r.name)
}

/** The school's row count in every tenant table of every database (control: tenants by id). */
async function rowCounts(tenantId: string) {
  const counts: Record<string, number> = {}
  for (const [label, d1] of [
    ['control', bindings.DB],
    ['shard0', SHARDS[0]!],
    ['shard1', SHARDS[1]!],
  ] as const) {
    const tables = await tenantTables(d1)
    const answers = await d1.batch<{ n: number }>(tables.map((t) => d1.prepare(`SELECT count(*) AS n FROM "${t}" WHERE tenant_id = ?`).bind(tenantId)))
    for (const [i, t] of tables.entries()) counts[`${label}.${t}`] = answers[i]!.results[0]!.n
  }
  counts['control.tenants'] = (await bindings.DB.prepare('SELECT count(*) AS n FROM tenants WHERE id = ?').bind(tenantId).first<{ n: number }>())!.n
  return counts
}

const nonEmpty = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))

/** Whether the Bunny peer's library still holds a video. */
async function atBunny(bunnyVideoId: string) {
  return (await fetch(`${bunny.origin}/_peer/videos/${bunnyVideoId}`)).status === 200
}

/** A school with rows in many tables (made by the app's own model functions), a custom domain at the Cloudflare peer, a video at the Bunny peer and R2 objects. */
async function seedSchool(label: string) {
  const school = await createTestSchool({ shard: 0 })
  const db = dbOf(school)
  const id = school.tenantId
  const student = await createTestStudent(id, { name: `Student ${label}` })
  await seedSchoolContent(school, student, label)
  const hostname = `kurs-${school.slug}.dane-szkoly.pl`
  const added = await domainsService(env, id).add(hostname)
  if (!added.ok) throw new Error(`custom domain not added: ${added.status} ${added.error}`)
  const domain = await bindings.DB.prepare('SELECT cf_hostname_id AS cf FROM domains WHERE id = ?').bind(added.body.domain.id).first<{ cf: string }>()
  const mediaKey = `tenants/${id}/cover/${label}-${school.slug}.png`
  await bindings.MEDIA.put(mediaKey, 'not really a png')
  const granted = await videosService(appEnv, id).grant({ title: `Video ${label}`, filename: 'welcome.mp4', size: 3000, contentType: 'video/mp4' })
  if (!granted.ok) throw new Error(`video not granted: ${granted.status} ${granted.error}`)
  const bunnyVideoId = (await getVideo(db, id, granted.body.videoId))!.bunnyVideoId
  expect(await atBunny(bunnyVideoId)).toBe(true)
  return { school, student, hostname, cfHostnameId: domain!.cf, mediaKey, bunnyVideoId }
}

const hrefOf = (html: string, prefix: string) => {
  const match = new RegExp(`href="(${prefix.replace(/[/.]/g, '\\$&')}[^"]+)"`).exec(html)
  return match?.[1]?.replaceAll('&amp;', '&') ?? null
}

async function auditActions(tenantId: string) {
  const { results } = await bindings.DB.prepare('SELECT action FROM audit_log WHERE tenant_id = ? ORDER BY created_at, id').bind(tenantId).all<{ action: string }>()
  return results.map((r) => r.action)
}

const tenantState = (tenantId: string) => bindings.DB.prepare('SELECT status, deletion_due_at AS dueAt FROM tenants WHERE id = ?').bind(tenantId).first<{ status: string; dueAt: number | null }>()

async function objectKeys(prefix: string) {
  return (await bindings.MEDIA.list({ prefix })).objects.map((o) => o.key)
}

describe("a school's data: export (issue 27 §8)", () => {
  it("exports, for every tenant table, exactly the school's rows with secrets redacted, downloadable by a signed link only", async () => {
    const a = await seedSchool('a')
    const b = await seedSchool('b')
    const operator = await createTestOperator({ role: 'admin' })
    const page = `/operator/schools/${a.school.tenantId}/data`

    const before = await appFetch(PLATFORM, page, { cookie: operator.cookie })
    expect(before.status).toBe(200)
    const exported = await appFetch(PLATFORM, page, { cookie: operator.cookie, form: { intent: 'export' } })
    expect(exported.status).toBe(302)
    expect(await auditActions(a.school.tenantId)).toContain('school.export')
    const row = await bindings.DB.prepare('SELECT id, status, r2_key AS r2Key, size_bytes AS size FROM school_exports WHERE tenant_id = ?')
      .bind(a.school.tenantId)
      .first<{ id: string; status: string; r2Key: string; size: number }>()
    expect(row).toMatchObject({ status: 'ready', r2Key: `exports/${a.school.tenantId}/${row!.id}.json` })

    const html = await (await appFetch(PLATFORM, page, { cookie: operator.cookie })).text()
    const href = hrefOf(html, `/operator/schools/${a.school.tenantId}/data/download/`)
    expect(href).not.toBeNull()
    const download = await appFetch(PLATFORM, href!, { cookie: operator.cookie })
    expect(download.status).toBe(200)
    expect(download.headers.get('Content-Disposition')).toMatch(/^attachment; filename=".+\.json"$/)
    const text = await download.text()
    expect(new TextEncoder().encode(text).length).toBe(row!.size)
    const doc = JSON.parse(text) as ExportDocument
    expect(doc.format).toBe('coursefront.school-export')
    expect(doc.school.id).toBe(a.school.tenantId)

    // Every shard table SQLite lists is in the document with exactly the school's row count, every
    // row the school's; the seeding reached many of them.
    const shardTables = await tenantTables(SHARDS[0]!)
    expect(Object.keys(doc.tables).sort()).toEqual(shardTables)
    const counts = await SHARDS[0]!.batch<{ n: number }>(shardTables.map((t) => SHARDS[0]!.prepare(`SELECT count(*) AS n FROM "${t}" WHERE tenant_id = ?`).bind(a.school.tenantId)))
    for (const [i, table] of shardTables.entries()) {
      expect({ table, rows: doc.tables[table]!.length }).toEqual({ table, rows: counts[i]!.results[0]!.n })
      for (const r of doc.tables[table]!) expect(r.tenant_id).toBe(a.school.tenantId)
    }
    expect(shardTables.filter((t) => doc.tables[t]!.length > 0).length).toBeGreaterThanOrEqual(10)
    // A claim not yet verified is stored as `hostname#…` (unique index): the row is exported as stored.
    expect(doc.control.domains!.map((d) => String(d.hostname).split('#')[0]).sort()).toEqual([a.hostname, a.school.host].sort())

    // Nothing of the other school: not its id, its student, its hostname or its files.
    for (const foreign of [b.school.tenantId, b.student.id, b.student.email, b.hostname, b.mediaKey]) expect(text).not.toContain(foreign)
    expect(doc.files.map((f) => f.key)).toEqual([a.mediaKey])

    // Secrets: every redacted column's value is the marker, and the real hashes appear nowhere.
    expect(doc.tables.users!.every((u) => u.password_hash === REDACTED)).toBe(true)
    expect(doc.tables.sessions!.length).toBeGreaterThan(0)
    expect(doc.tables.sessions!.every((s) => s.secret_hash === REDACTED)).toBe(true)
    for (const rows of Object.values(doc.tables)) for (const r of rows) for (const column of REDACTED_COLUMNS) if (column in r && r[column] !== null) expect(r[column]).toBe(REDACTED)
    const { results: hashes } = await SHARDS[0]!
      .prepare('SELECT password_hash AS h FROM users WHERE tenant_id = ? UNION ALL SELECT secret_hash FROM sessions WHERE tenant_id = ?')
      .bind(a.school.tenantId, a.school.tenantId)
      .all<{ h: string }>()
    expect(hashes.length).toBeGreaterThan(1)
    for (const { h } of hashes) expect(text).not.toContain(h)

    // The link: altered → 404; on another school's page → 404; expired → 403; without the permission → 403.
    const token = href!.split('/').pop()!
    const altered = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1)
    expect((await appFetch(PLATFORM, `/operator/schools/${a.school.tenantId}/data/download/${altered}`, { cookie: operator.cookie })).status).toBe(404)
    expect((await appFetch(PLATFORM, `/operator/schools/${b.school.tenantId}/data/download/${token}`, { cookie: operator.cookie })).status).toBe(404)
    const expired = await exportDownloadToken(bindings, { tenantId: a.school.tenantId, id: row!.id, expiresAt: null }, Date.now() - 2 * 24 * 60 * 60 * 1000)
    expect((await appFetch(PLATFORM, `/operator/schools/${a.school.tenantId}/data/download/${expired}`, { cookie: operator.cookie })).status).toBe(403)
    const support = await createTestOperator({ role: 'support' })
    expect((await appFetch(PLATFORM, href!, { cookie: support.cookie })).status).toBe(403)
    expect((await appFetch(PLATFORM, page, { cookie: support.cookie, form: { intent: 'export' } })).status).toBe(403)
    expect((await appFetch(PLATFORM, href!)).status).toBe(302)
  })

  it("lets the owner export on the school's host; the link works there only, for the owner only", async () => {
    const a = await seedSchool('own-a')
    const b = await seedSchool('own-b')
    const owner = await login(a.school.host, a.school.owner.email, a.school.owner.password)
    const page = await appFetch(a.school.host, '/home/settings/data', { cookie: owner })
    expect(page.status).toBe(200)
    const exported = await appFetch(a.school.host, '/home/settings/data', { cookie: owner, form: { intent: 'export' } })
    expect(exported.status).toBe(303)
    const href = hrefOf(await (await appFetch(a.school.host, '/home/settings/data', { cookie: owner })).text(), '/home/settings/data/download/')
    expect(href).not.toBeNull()
    const download = await appFetch(a.school.host, href!, { cookie: owner })
    expect(download.status).toBe(200)
    const doc = JSON.parse(await download.text()) as ExportDocument
    expect(doc.school.id).toBe(a.school.tenantId)
    expect(doc.tables.users!.map((u) => u.id)).toContain(a.student.id)

    // School B's owner, on B's host, with A's link: 404. A's student: 404 (owners only).
    const ownerB = await login(b.school.host, b.school.owner.email, b.school.owner.password)
    expect((await appFetch(b.school.host, href!, { cookie: ownerB })).status).toBe(404)
    const student = await login(a.school.host, a.student.email, a.student.password)
    expect((await appFetch(a.school.host, href!, { cookie: student })).status).toBe(404)
    expect(await auditActions(a.school.tenantId)).toContain('school.export')
  })
})

describe("a school's data: deletion (issue 27 §8)", () => {
  async function schedule(operatorCookie: string, school: TestSchool, confirm: string) {
    return appFetch(PLATFORM, `/operator/schools/${school.tenantId}/data`, { cookie: operatorCookie, form: { intent: 'schedule', confirm } })
  }

  it('suspends on schedule, restores before due, and once due deletes every row, object and custom hostname of the school only', async () => {
    const a = await seedSchool('del-a')
    const b = await seedSchool('del-b')
    const operator = await createTestOperator({ role: 'admin' })
    // An export of A, so its exports prefix and school_exports rows exist too.
    expect((await appFetch(PLATFORM, `/operator/schools/${a.school.tenantId}/data`, { cookie: operator.cookie, form: { intent: 'export' } })).status).toBe(302)
    expect(await objectKeys(`exports/${a.school.tenantId}/`)).toHaveLength(1)
    const bBefore = await rowCounts(b.school.tenantId)

    // The slug must be typed; a support operator may not schedule.
    expect((await schedule(operator.cookie, a.school, 'not-the-slug')).status).toBe(400)
    expect(await tenantState(a.school.tenantId)).toEqual({ status: 'active', dueAt: null })
    const support = await createTestOperator({ role: 'support' })
    expect((await schedule(support.cookie, a.school, a.school.slug)).status).toBe(403)

    const startedAt = Date.now()
    expect((await schedule(operator.cookie, a.school, a.school.slug)).status).toBe(302)
    const scheduled = (await tenantState(a.school.tenantId))!
    expect(scheduled.status).toBe('suspended')
    expect(scheduled.dueAt! - startedAt).toBeGreaterThanOrEqual(DELETION_GRACE_MS)
    expect((await appFetch(a.school.host, '/')).status).toBe(503)
    expect((await schedule(operator.cookie, a.school, a.school.slug)).status).toBe(409)

    // Not due yet: the cron leaves it alone. Restored: active again, nothing due.
    await runSchoolDataCron(appEnv, Date.now())
    expect((await rowCounts(a.school.tenantId))['control.tenants']).toBe(1)
    expect((await appFetch(PLATFORM, `/operator/schools/${a.school.tenantId}/data`, { cookie: operator.cookie, form: { intent: 'restore' } })).status).toBe(302)
    expect(await tenantState(a.school.tenantId)).toEqual({ status: 'active', dueAt: null })
    expect((await appFetch(a.school.host, '/')).status).toBe(200)

    // Scheduled again; past its due time the cron deletes it, a few rows per run (resumable).
    expect((await schedule(operator.cookie, a.school, a.school.slug)).status).toBe(302)
    const due = (await tenantState(a.school.tenantId))!.dueAt!
    const aBefore = nonEmpty(await rowCounts(a.school.tenantId))
    expect(Object.keys(aBefore).length).toBeGreaterThanOrEqual(10)
    let runs = 0
    while ((await rowCounts(a.school.tenantId))['control.tenants'] === 1 && runs < 100) {
      const outcomes = await runDueSchoolDeletions(appEnv, due + 1, { maxRows: 5 })
      expect(outcomes.every((o) => o.error === undefined)).toBe(true)
      runs++
    }
    expect(runs).toBeGreaterThan(1)

    // Nothing of A is left in any table but the audit log; A's objects, video at Bunny and hostname are gone.
    const after = nonEmpty(await rowCounts(a.school.tenantId))
    expect(Object.keys(after)).toEqual(['control.audit_log'])
    expect(await auditActions(a.school.tenantId)).toEqual(expect.arrayContaining(['school.export', 'school.deletion_schedule', 'school.deletion_cancel', 'school.delete']))
    expect(await objectKeys(`tenants/${a.school.tenantId}/`)).toEqual([])
    expect(await objectKeys(`exports/${a.school.tenantId}/`)).toEqual([])
    expect(await atBunny(a.bunnyVideoId)).toBe(false)
    const hostnames = await peers.customHostnames()
    expect(hostnames.map((h) => h.id)).not.toContain(a.cfHostnameId)
    expect(hostnames.map((h) => h.hostname)).not.toContain(a.hostname)

    // B is untouched: every table's count, its object, its hostname at the peer.
    expect(await rowCounts(b.school.tenantId)).toEqual(bBefore)
    expect(await objectKeys(b.mediaKey)).toEqual([b.mediaKey])
    expect(await atBunny(b.bunnyVideoId)).toBe(true)
    expect(hostnames.map((h) => h.id)).toContain(b.cfHostnameId)
  })

  it("shows the owner's page in the school's language", async () => {
    const school = await createTestSchool({ language: 'pl' })
    const owner = await login(school.host, school.owner.email, school.owner.password)
    const html = await (await appFetch(school.host, '/home/settings/data', { cookie: owner })).text()
    expect(html).toContain('Dane Twojej szkoły')
    expect(html).toContain('Wyeksportuj dane teraz')
  })

  it('never deletes a school that is active again, even with a due date left behind', async () => {
    const school = await createTestSchool()
    const operator = await createTestOperator({ role: 'admin' })
    expect((await schedule(operator.cookie, school, school.slug)).status).toBe(302)
    const due = (await tenantState(school.tenantId))!.dueAt!
    // Reactivated by another path (not the restore button), the due date still set.
    await bindings.DB.prepare("UPDATE tenants SET status = 'active' WHERE id = ?").bind(school.tenantId).run()
    expect((await runDueSchoolDeletions(appEnv, due + 1)).map((o) => o.tenantId)).not.toContain(school.tenantId)
    expect(await tenantState(school.tenantId)).toEqual({ status: 'active', dueAt: due })
  })

  it('answers 404 for an unknown school and 400 for an unknown intent', async () => {
    const operator = await createTestOperator({ role: 'admin' })
    expect((await appFetch(PLATFORM, '/operator/schools/nosuchschool/data', { cookie: operator.cookie })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/operator/schools/nosuchschool/data', { cookie: operator.cookie, form: { intent: 'schedule', confirm: 'x' } })).status).toBe(404)
    const school = await createTestSchool()
    expect((await appFetch(PLATFORM, `/operator/schools/${school.tenantId}/data`, { cookie: operator.cookie, form: { intent: 'drop-tables' } })).status).toBe(400)
  })
})
