// Exporting everything of one school (issue 27 §8) as ONE JSON document in R2:
//   { format, version, exportedAt, school, control: { domains, domain_events },
//     tables: { <every shard table>: rows[] }, files: [{ key, size, uploaded, etag }] }
// One JSON rather than a zip of JSON files: a Worker has no zip writer without a dependency, one
// document is readable by anything (jq, a script, a spreadsheet import), and every table appears,
// empty ones too, so the reader sees what was exported. Files are listed, not copied: they stay
// under the school's prefix in the same bucket, and the export stays a size the Worker can write.
// Rows are read per table in key order, in batches, each bound to the school (WHERE tenant_id);
// secret columns are redacted (school-tables.server.ts). The object goes under
// exports/{tenantId}/{exportId}.json, outside tenants/ (which the media worker serves by key, and
// which is what the document lists as the school's files).
import type { DatabaseEnv } from '#app/db/shards.server.ts'
import { controlDb, shardBinding } from '#app/db/shards.server.ts'
import { getExport, insertExport, listExports, listExportsToSweep, markExportExpired, markExportFailed, markExportReady, type ExportRow } from '#app/models/school-export.server.ts'
import { readControlRows, readSchoolRowObjects, readTenantRecord } from '#app/models/school-rows.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { signClaims, verifyClaims } from '#app/utils/signed-claims.server.ts'
import { EXPORTED_CONTROL_TABLES, exportedShardTables, redactRow, type SchoolTable } from './school-tables.server.ts'

export type SchoolDataEnv = DatabaseEnv & { MEDIA: R2Bucket; INTEGRATIONS_KEY?: string }

/** How long an export's file is kept, and how long one download link works. */
export const EXPORT_KEEP_MS = 7 * 24 * 60 * 60 * 1000
export const DOWNLOAD_LINK_MS = 24 * 60 * 60 * 1000
/** A pending export older than this was cut off (a killed request): the cron runs it again. */
export const STALE_PENDING_MS = 15 * 60 * 1000
const BATCH = 500

export const EXPORT_FORMAT = 'coursefront.school-export'
export const exportKey = (tenantId: string, exportId: string) => `exports/${tenantId}/${exportId}.json`
/** The prefixes of the school's R2 objects: its media (every context) and its exports. */
export const schoolPrefixes = (tenantId: string) => [`tenants/${tenantId}/`, `exports/${tenantId}/`]

/** Every row of the school in `table`, in key order, a batch at a time. */
async function* tableRows(d1: D1Database, table: SchoolTable, tenantId: string): AsyncGenerator<Record<string, unknown>[]> {
  let after: unknown[] | null = null
  for (;;) {
    const rows = await readSchoolRowObjects(d1, table, tenantId, after, BATCH)
    if (rows.length > 0) yield rows
    if (rows.length < BATCH) return
    const last = rows.at(-1)!
    after = table.key.map((k): unknown => last[k])
  }
}

/** The school's R2 objects (its media: images, files, certificates…), in key order. */
export async function listSchoolFiles(bucket: R2Bucket, tenantId: string) {
  const files: Array<{ key: string; size: number; uploaded: string; etag: string }> = []
  let cursor: string | undefined
  do {
    const page = await bucket.list({ prefix: `tenants/${tenantId}/`, cursor, limit: 1000 })
    for (const o of page.objects) files.push({ key: o.key, size: o.size, uploaded: o.uploaded.toISOString(), etag: o.etag })
    cursor = page.truncated ? page.cursor : undefined
  } while (cursor)
  return files
}

/** The document's text, in pieces (one table at a time): never one string of the whole school. */
async function buildDocument(env: SchoolDataEnv, school: Record<string, unknown>, now: number): Promise<string[]> {
  const tenant = { id: String(school.id), shard: Number(school.shard) }
  const parts: string[] = [
    `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":1,"exportedAt":${JSON.stringify(new Date(now).toISOString())},"school":${JSON.stringify(redactRow(school))},"control":{`,
  ]
  for (const [i, name] of EXPORTED_CONTROL_TABLES.entries()) {
    const rows = await readControlRows(env.DB, name, tenant.id)
    parts.push(`${i ? ',' : ''}${JSON.stringify(name)}:${JSON.stringify(rows.map(redactRow))}`)
  }
  parts.push('},"tables":{')
  const shard = shardBinding(env, tenant.shard)
  for (const [i, table] of exportedShardTables().entries()) {
    parts.push(`${i ? ',' : ''}${JSON.stringify(table.name)}:[`)
    let first = true
    for await (const rows of tableRows(shard, table, tenant.id)) {
      parts.push((first ? '' : ',') + rows.map((row) => JSON.stringify(redactRow(row))).join(','))
      first = false
    }
    parts.push(']')
  }
  parts.push(`},"files":${JSON.stringify(await listSchoolFiles(env.MEDIA, tenant.id))}}`)
  return parts
}

/** Writes the export's document and marks it ready (or failed, with the reason). Running it again overwrites the same object. */
export async function runSchoolExport(env: SchoolDataEnv, row: Pick<ExportRow, 'id' | 'tenantId'>, now = Date.now()): Promise<'ready' | 'failed'> {
  try {
    // The tenant row as stored (the document's "school"), read once: it also names the school's shard.
    const school = await readTenantRecord(env.DB, row.tenantId)
    if (!school) throw new Error('unknown school')
    const body = new Blob(await buildDocument(env, school, now), { type: 'application/json' })
    const key = exportKey(row.tenantId, row.id)
    await env.MEDIA.put(key, body, { httpMetadata: { contentType: 'application/json; charset=utf-8' } })
    await markExportReady(controlDb(env), row.tenantId, row.id, { r2Key: key, sizeBytes: body.size, expiresAt: now + EXPORT_KEEP_MS }, Date.now())
    return 'ready'
  } catch (error) {
    console.error(JSON.stringify({ event: 'school_export_failed', tenantId: row.tenantId, exportId: row.id, error: String(error) }))
    await markExportFailed(controlDb(env), row.tenantId, row.id, String(error), Date.now())
    return 'failed'
  }
}

/** Records an export asked for by `requestedBy` ("Name <e-mail>") and runs it now. */
export async function requestSchoolExport(env: SchoolDataEnv, tenantId: string, requestedBy: string, now = Date.now()) {
  const id = newId()
  await insertExport(controlDb(env), { id, tenantId, requestedBy }, now)
  const status = await runSchoolExport(env, { id, tenantId }, now)
  return { id, status }
}

/** Cron: runs again exports a killed request left pending, and removes files past their expiry. */
export async function sweepSchoolExports(env: SchoolDataEnv, now = Date.now(), limit = 10) {
  const rows = await listExportsToSweep(controlDb(env), { stalePendingBefore: now - STALE_PENDING_MS, now, limit })
  let rerun = 0
  let expired = 0
  for (const row of rows) {
    if (row.status === 'pending') {
      await runSchoolExport(env, row, now)
      rerun++
    } else if (row.r2Key) {
      await env.MEDIA.delete(row.r2Key)
      await markExportExpired(controlDb(env), row.tenantId, row.id)
      expired++
    }
  }
  return { rerun, expired }
}

// Download links: tenant id, export id and the link's expiry (base 36 ms), signed with a key
// derived from INTEGRATIONS_KEY for this purpose only. The routes also require a signed-in
// operator (schools.export) or the school's owner on the school's host; the link is their proof
// that the page handed it out, and it stops working after DOWNLOAD_LINK_MS.
const LINK_PURPOSE = 'school-export-download'

function integrationsKey(env: SchoolDataEnv) {
  if (!env.INTEGRATIONS_KEY) throw new Error('INTEGRATIONS_KEY is not set')
  return env.INTEGRATIONS_KEY
}

export async function exportDownloadToken(env: SchoolDataEnv, row: Pick<ExportRow, 'tenantId' | 'id' | 'expiresAt'>, now = Date.now()) {
  const until = Math.min(now + DOWNLOAD_LINK_MS, row.expiresAt ?? now + DOWNLOAD_LINK_MS)
  return signClaims(integrationsKey(env), LINK_PURPOSE, [row.tenantId, row.id, until.toString(36)])
}

export type DownloadAnswer = { ok: true; response: Response } | { ok: false; status: 403 | 404 }

/**
 * The export's file for a link of `tenantId`'s: 404 for a malformed or altered link, another
 * school's, or an export without a file; 403 once the link has expired.
 */
export async function openExportDownload(env: SchoolDataEnv, tenantId: string, token: string, filenameStem: string, now = Date.now()): Promise<DownloadAnswer> {
  const claims = await verifyClaims(integrationsKey(env), LINK_PURPOSE, token, 3)
  if (!claims || claims[0] !== tenantId || !/^[0-9a-z]{1,12}$/.test(claims[2]!)) return { ok: false, status: 404 }
  if (parseInt(claims[2]!, 36) <= now) return { ok: false, status: 403 }
  const row = await getExport(controlDb(env), tenantId, claims[1]!)
  if (!row || row.status !== 'ready' || !row.r2Key) return { ok: false, status: 404 }
  const object = await env.MEDIA.get(row.r2Key)
  if (!object) return { ok: false, status: 404 }
  const date = new Date(row.createdAt).toISOString().slice(0, 10)
  return {
    ok: true,
    response: new Response(object.body, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(object.size),
        'Content-Disposition': `attachment; filename="${filenameStem.replace(/[^a-z0-9-]/gi, '')}-export-${date}.json"`,
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    }),
  }
}

/** The school's latest exports as the pages show them, a fresh signed link for each downloadable one (when `linkOf` is given). */
export async function schoolExportViews(env: SchoolDataEnv, tenantId: string, linkOf: ((token: string) => string) | null, now = Date.now()) {
  const rows = await listExports(controlDb(env), tenantId)
  return Promise.all(
    rows.map(async (row) => {
      const downloadable = row.status === 'ready' && row.r2Key !== null && (row.expiresAt ?? 0) > now
      return {
        id: row.id,
        createdAt: row.createdAt,
        requestedBy: row.requestedBy,
        status: row.status === 'ready' && !downloadable ? ('expired' as const) : row.status,
        sizeBytes: row.sizeBytes,
        error: row.error,
        href: downloadable && linkOf ? linkOf(await exportDownloadToken(env, row, now)) : null,
      }
    }),
  )
}
