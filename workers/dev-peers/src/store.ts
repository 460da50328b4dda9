// The peers' state in PEERS_DB, with plain SQL (a separate database from the app's schema).

export const RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'TXT'] as const
export type RecordType = (typeof RECORD_TYPES)[number]

export type DnsRecord = { id: string; name: string; type: RecordType; value: string; ttl: number; createdAt: number }

type DnsRow = { id: string; name: string; type: RecordType; value: string; ttl: number; created_at: number }
const toRecord = (r: DnsRow): DnsRecord => ({ id: r.id, name: r.name, type: r.type, value: r.value, ttl: r.ttl, createdAt: r.created_at })

/** Names are stored like the JSON API compares them: lower case, no trailing dot. */
export const normaliseName = (name: string) => name.trim().toLowerCase().replace(/\.+$/, '')

export async function listRecords(db: D1Database, name?: string) {
  const stmt = name
    ? db.prepare('SELECT * FROM dns_records WHERE name = ? ORDER BY created_at, id').bind(normaliseName(name))
    : db.prepare('SELECT * FROM dns_records ORDER BY name, created_at, id')
  const { results } = await stmt.all<DnsRow>()
  return results.map(toRecord)
}

export async function addRecord(db: D1Database, input: { name: string; type: RecordType; value: string; ttl?: number }) {
  const record: DnsRecord = { id: crypto.randomUUID(), name: normaliseName(input.name), type: input.type, value: input.value, ttl: input.ttl ?? 300, createdAt: Date.now() }
  await db
    .prepare('INSERT INTO dns_records (id, name, type, value, ttl, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(record.id, record.name, record.type, record.value, record.ttl, record.createdAt)
    .run()
  return record
}

export async function deleteRecord(db: D1Database, id: string) {
  const res = await db.prepare('DELETE FROM dns_records WHERE id = ?').bind(id).run()
  return (res.meta.changes ?? 0) > 0
}

export async function deleteRecordsByName(db: D1Database, name: string, type?: RecordType) {
  const res = type
    ? await db.prepare('DELETE FROM dns_records WHERE name = ? AND type = ?').bind(normaliseName(name), type).run()
    : await db.prepare('DELETE FROM dns_records WHERE name = ?').bind(normaliseName(name)).run()
  return res.meta.changes ?? 0
}

/** Does the name exist in DNS: a record at it, or below it (an empty non-terminal)? */
export async function nameExists(db: D1Database, name: string) {
  const n = normaliseName(name)
  // substr instead of LIKE: names contain `_`, a LIKE wildcard.
  const row = await db.prepare("SELECT 1 AS found FROM dns_records WHERE name = ?1 OR substr(name, -(length(?1) + 1)) = '.' || ?1 LIMIT 1").bind(n).first<{ found: number }>()
  return !!row
}

// Custom hostnames (Cloudflare API peer)

export type HostnameRow = {
  id: string
  zone_id: string
  hostname: string
  status: string
  ssl_id: string
  ssl_status: string
  ssl_method: string
  ssl_type: string
  ownership_name: string
  ownership_value: string
  validation_name: string
  validation_value: string
  ownership_seen_at: number | null
  created_at: string
  updated_at: number
}

export async function insertHostname(db: D1Database, row: HostnameRow) {
  try {
    await db
      .prepare(
        `INSERT INTO custom_hostnames (id, zone_id, hostname, status, ssl_id, ssl_status, ssl_method, ssl_type, ownership_name, ownership_value, validation_name, validation_value, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(row.id, row.zone_id, row.hostname, row.status, row.ssl_id, row.ssl_status, row.ssl_method, row.ssl_type, row.ownership_name, row.ownership_value, row.validation_name, row.validation_value, row.created_at, row.updated_at)
      .run()
    return true
  } catch (error) {
    if (/UNIQUE constraint failed/.test(`${(error as Error)?.message} ${(error as { cause?: Error })?.cause?.message}`)) return false
    throw error
  }
}

export async function getHostname(db: D1Database, zoneId: string, id: string) {
  return db.prepare('SELECT * FROM custom_hostnames WHERE zone_id = ? AND id = ?').bind(zoneId, id).first<HostnameRow>()
}

export async function listHostnames(db: D1Database, zoneId?: string, filter: { hostname?: string; id?: string } = {}) {
  const conditions: [string, string][] = []
  if (zoneId) conditions.push(['zone_id = ?', zoneId])
  if (filter.hostname) conditions.push(['hostname = ?', normaliseName(filter.hostname)])
  if (filter.id) conditions.push(['id = ?', filter.id])
  const where = conditions.map(([sql]) => sql)
  const values = conditions.map(([, value]) => value)
  const sql = `SELECT * FROM custom_hostnames${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`
  const { results } = await db.prepare(sql).bind(...values).all<HostnameRow>()
  return results
}

export async function updateHostnameState(db: D1Database, id: string, patch: Partial<Pick<HostnameRow, 'status' | 'ssl_status' | 'ssl_method' | 'ssl_type' | 'ownership_seen_at'>>) {
  const entries = Object.entries(patch).filter(([, v]) => v !== undefined)
  if (entries.length === 0) return
  const set = entries.map(([k]) => `${k} = ?`).join(', ')
  await db
    .prepare(`UPDATE custom_hostnames SET ${set}, updated_at = ? WHERE id = ?`)
    .bind(...entries.map(([, v]) => v as string | number | null), Date.now(), id)
    .run()
}

export async function deleteHostname(db: D1Database, zoneId: string, id: string) {
  const res = await db.prepare('DELETE FROM custom_hostnames WHERE zone_id = ? AND id = ?').bind(zoneId, id).run()
  return (res.meta.changes ?? 0) > 0
}

// Fault injection: the next N responses of a target fail in a chosen way.

export const FAULT_TARGETS = ['cloudflare', 'doh', 'smsapi'] as const
export type FaultTarget = (typeof FAULT_TARGETS)[number]
export const FAULT_MODES = ['status', 'timeout', 'malformed'] as const
export type FaultMode = (typeof FAULT_MODES)[number]

export type Fault = { id: number; target: FaultTarget; mode: FaultMode; status: number | null; delayMs: number | null; retryAfter: number | null; remaining: number }
type FaultRow = { id: number; target: FaultTarget; mode: FaultMode; status: number | null; delay_ms: number | null; retry_after: number | null; remaining: number }
const toFault = (r: FaultRow): Fault => ({ id: r.id, target: r.target, mode: r.mode, status: r.status, delayMs: r.delay_ms, retryAfter: r.retry_after, remaining: r.remaining })

export async function addFault(db: D1Database, f: { target: FaultTarget; mode: FaultMode; status?: number | null; delayMs?: number | null; retryAfter?: number | null; count: number }) {
  const row = await db
    .prepare('INSERT INTO faults (target, mode, status, delay_ms, retry_after, remaining, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *')
    .bind(f.target, f.mode, f.status ?? null, f.delayMs ?? null, f.retryAfter ?? null, f.count, Date.now())
    .first<FaultRow>()
  return toFault(row!)
}

/** Atomically use up one pending fault of the target (oldest first). */
export async function takeFault(db: D1Database, target: FaultTarget) {
  const row = await db
    .prepare(
      `UPDATE faults SET remaining = remaining - 1
       WHERE id = (SELECT id FROM faults WHERE target = ? AND remaining > 0 ORDER BY id LIMIT 1)
       RETURNING *`,
    )
    .bind(target)
    .first<FaultRow>()
  return row ? toFault(row) : null
}

export async function listFaults(db: D1Database) {
  const { results } = await db.prepare('SELECT * FROM faults WHERE remaining > 0 ORDER BY id').all<FaultRow>()
  return results.map(toFault)
}

export async function clearFaults(db: D1Database) {
  await db.prepare('DELETE FROM faults').run()
}

// Request log, so tests (and a curious human) can see what the peers were asked.

export type LoggedRequest = { id: number; target: string; method: string; path: string; status: number; auth: string | null; body: string | null; createdAt: number }
type RequestRow = Omit<LoggedRequest, 'createdAt'> & { created_at: number }

export async function logRequest(db: D1Database, entry: Omit<LoggedRequest, 'id' | 'createdAt'>) {
  await db
    .prepare('INSERT INTO requests (target, method, path, status, auth, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(entry.target, entry.method, entry.path, entry.status, entry.auth, entry.body?.slice(0, 2000) ?? null, Date.now())
    .run()
}

export async function listRequests(db: D1Database, opts: { target?: string; limit?: number } = {}) {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500)
  const stmt = opts.target
    ? db.prepare('SELECT * FROM requests WHERE target = ? ORDER BY id DESC LIMIT ?').bind(opts.target, limit)
    : db.prepare('SELECT * FROM requests ORDER BY id DESC LIMIT ?').bind(limit)
  const { results } = await stmt.all<RequestRow>()
  return results.map(({ created_at, ...r }) => ({ ...r, createdAt: created_at })).reverse()
}

export async function resetAll(db: D1Database) {
  await db.batch(['dns_records', 'custom_hostnames', 'faults', 'requests', 'sms_messages'].map((t) => db.prepare(`DELETE FROM ${t}`)))
}

// Messages accepted by the SMSAPI peer (src/smsapi.ts).

export type SmsMessage = { id: string; to: string; sender: string | null; message: string; parts: number; createdAt: number }
type SmsRow = { id: string; to_number: string; sender: string | null; message: string; parts: number; created_at: number }
const toSms = (r: SmsRow): SmsMessage => ({ id: r.id, to: r.to_number, sender: r.sender, message: r.message, parts: r.parts, createdAt: r.created_at })

export async function insertSms(db: D1Database, m: SmsMessage) {
  await db.prepare('INSERT INTO sms_messages (id, to_number, sender, message, parts, created_at) VALUES (?, ?, ?, ?, ?, ?)').bind(m.id, m.to, m.sender, m.message, m.parts, m.createdAt).run()
}

/** Newest first; `to` in any form (a leading + or spaces are ignored). */
export async function listSms(db: D1Database, opts: { to?: string; limit?: number } = {}) {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500)
  const to = opts.to?.replace(/[^0-9]/g, '')
  const stmt = to
    ? db.prepare('SELECT * FROM sms_messages WHERE to_number = ? ORDER BY created_at DESC, rowid DESC LIMIT ?').bind(to, limit)
    : db.prepare('SELECT * FROM sms_messages ORDER BY created_at DESC, rowid DESC LIMIT ?').bind(limit)
  const { results } = await stmt.all<SmsRow>()
  return results.map(toSms)
}

export async function clearSms(db: D1Database) {
  await db.prepare('DELETE FROM sms_messages').run()
}
