// Seeding shared by the benches (storefront, capacity, shard-routing, ADR 033): the schema is split
// into the control plane `DB` (migrations/control: tenants, domains…) and the shards `DB_SHARD_n`
// (migrations/shard: every table with tenant_id, and the school's `school_settings` row). A school's
// tenant and subdomain rows go to the control plane with `tenants.shard`; its data goes to that shard.
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '..', '..')

/** The app's queue producers (wrangler.toml), for benches that run the app bundle on workerd. */
export const QUEUES = {
  MAIL_QUEUE: 'coursefront-mail',
  EVENTS_QUEUE: 'coursefront-events',
  INVOICING_QUEUE: 'coursefront-invoicing',
  MAILING_QUEUE: 'coursefront-mailing',
  WEBHOOK_DELIVERIES_QUEUE: 'coursefront-webhook-deliveries',
}

// ---------------------------------------------------------------------------------------------
// databases: as the app's wrangler.toml binds them

/**
 * The app's top-level `[[d1_databases]]` in wrangler.toml (not `[env.production]`'s): binding and
 * migrations folder ('control' or 'shard'), shards in binding order.
 */
export function d1Databases() {
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8')
  return toml
    .split(/^\[\[d1_databases\]\]\s*$/m)
    .slice(1)
    .map((block) => block.split(/^\[/m)[0])
    .map((block) => {
      const binding = /^binding\s*=\s*"([^"]+)"/m.exec(block)?.[1]
      const dir = /^migrations_dir\s*=\s*"([^"]+)"/m.exec(block)?.[1]
      if (!binding || !dir) throw new Error(`wrangler.toml: a [[d1_databases]] block without binding or migrations_dir:\n${block}`)
      return { binding, folder: dir.replace(/^migrations\//, '') }
    })
}

/** `DB_SHARD_n` bindings of wrangler.toml, by n. */
export const shardBindings = () =>
  d1Databases()
    .filter((d) => d.folder === 'shard')
    .map((d) => d.binding)
    .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')))

/** Miniflare database ids for every binding: `bench-db` for the control plane, `bench-db-shard-n` for the shards. */
export function benchD1Ids(prefix = 'bench-db') {
  const ids = {}
  for (const { binding, folder } of d1Databases()) ids[binding] = folder === 'control' ? prefix : `${prefix}-shard-${binding.replace(/\D/g, '')}`
  return ids
}

/** The D1 handles of one worker's bindings: `{ control, shards: [DB_SHARD_0, …], byBinding }`. */
export async function openDbs(mf, worker) {
  const byBinding = {}
  for (const { binding } of d1Databases()) byBinding[binding] = await mf.getD1Database(binding, worker)
  return { control: byBinding.DB, shards: shardBindings().map((b) => byBinding[b]), byBinding }
}

/** Applies migrations/{folder}/*.sql ('control' or 'shard') to one database; returns the file count. */
export async function migrate(d1, folder) {
  const dir = join(root, 'migrations', folder)
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
  if (files.length === 0) throw new Error(`no migrations in migrations/${folder}`)
  for (const f of files) {
    const statements = readFileSync(join(dir, f), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean)
    await d1.batch(statements.map((s) => d1.prepare(s)))
  }
  return files.length
}

/** The control plane's migrations on `dbs.control`, the shard's on every shard. */
export async function migrateAll(dbs) {
  await migrate(dbs.control, 'control')
  for (const shard of dbs.shards) await migrate(shard, 'shard')
}

// ---------------------------------------------------------------------------------------------
// rows

const sqlValue = (v) => (v === null || v === undefined ? 'NULL' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`)

/** Buffers rows per table (first use first: parents before children) and writes them as multi-row INSERTs. */
export class Writer {
  constructor(d1) {
    this.d1 = d1
    this.tables = new Map()
    this.rows = 0
    this.buffered = 0
  }
  /** rows: arrays of values in `cols` order. */
  add(table, cols, rows) {
    const head = `INSERT INTO ${table} (${cols.join(', ')}) VALUES `
    if (!this.tables.has(head)) this.tables.set(head, [])
    this.tables.get(head).push(...rows)
    this.rows += rows.length
    this.buffered += rows.length
  }
  /** Statements under D1's 100 KB limit, ten per batch. */
  async flush() {
    const statements = []
    for (const [head, rows] of this.tables) {
      let chunk = []
      let size = head.length
      for (const r of rows) {
        const v = `(${r.map(sqlValue).join(', ')})`
        if (size + v.length + 2 > 90_000 && chunk.length) {
          statements.push(head + chunk.join(', '))
          chunk = []
          size = head.length
        }
        chunk.push(v)
        size += v.length + 2
      }
      if (chunk.length) statements.push(head + chunk.join(', '))
    }
    this.tables.clear()
    this.buffered = 0
    for (let i = 0; i < statements.length; i += 10) await this.d1.batch(statements.slice(i, i + 10).map((s) => this.d1.prepare(s)))
  }
}

export const DAY = 86_400_000
const HASH = 'scrypt$16384$8$5$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='
const LOREM = 'Learn by building real projects. Each lesson ends with an exercise and a short quiz, and the final module puts everything together in a portfolio piece you can show to employers. '

/** The 200-course school (tenant `bt-0`) and its shape; small school n is `school-0000n`. */
export const BIG = { n: 0, slug: 'bench-school', name: 'Bench School', language: 'en', currency: 'USD' }
export const BIG_SHAPE = { products: 200, sections: 4, lectures: 5, students: 10_000, accessPerStudent: 2, reviewsPerProduct: 12 }
export const SMALL_SHAPE = { products: 3, sections: 1, lectures: 3, students: 2, accessPerStudent: 1, reviewsPerProduct: 0 }
/** course-100: a promotion (index % 3 === 0), a free lecture, reviews; student 99 has it (and course-107), so course-1 is a new purchase. */
export const COURSE_INDEX = 99
export const smallSchool = (n) => ({ n, slug: `school-${String(n).padStart(5, '0')}`, name: `School ${n}`, language: n % 2 ? 'pl' : 'en', currency: n % 2 ? 'PLN' : 'USD' })

/**
 * One school: tenant (with `shard`) and subdomain into `control`, settings, owner, `products` courses
 * with sections, lectures, prices and reviews, and `students` students with access into `shard`.
 */
export function schoolRows(control, shard, school, { products, sections, lectures, students, accessPerStudent, reviewsPerProduct }, now) {
  const { n, slug } = school
  const tid = `bt-${n}`
  control.add(
    'tenants',
    ['id', 'slug', 'name', 'status', 'language', 'currency', 'shard', 'created_at', 'updated_at'],
    [[tid, slug, school.name, 'active', school.language, school.currency, school.shard, now, now]],
  )
  control.add('domains', ['id', 'tenant_id', 'hostname', 'kind', 'verification_status', 'created_at', 'updated_at'], [[`bd-${n}`, tid, `${slug}.localhost`, 'platform_subdomain', 'active', now, now]])
  shard.add('school_settings', ['tenant_id', 'author_name', 'bio', 'created_at', 'updated_at'], [[tid, 'Bench Author', 'Teaches things.', now, now]])
  const users = [[`bu-${n}-owner`, tid, `owner@${slug}.test`, 'Owner', HASH, 'owner', now, now]]
  for (let i = 0; i < students; i++) users.push([`bu-${n}-${i}`, tid, `student${i}@${slug}.test`, `Student ${i}`, HASH, 'student', now, now])
  shard.add('users', ['id', 'tenant_id', 'email', 'name', 'password_hash', 'role', 'created_at', 'updated_at'], users)
  const prod = [],
    prices = [],
    history = [],
    secs = [],
    lecs = [],
    reviews = [],
    access = []
  for (let p = 0; p < products; p++) {
    const pid = `bp-${n}-${p}`
    const promo = p % 3 === 0
    const amount = 4900 + (p % 20) * 1000
    prod.push([
      pid,
      tid,
      'course',
      `Course ${p + 1}: practical topic ${p + 1}`,
      `course-${p + 1}`,
      `## What you will learn\n\n${LOREM.repeat(4)}\n\n- Item one\n- Item two\n- Item three`,
      1,
      now,
      now,
      'Programming',
      'beginner',
      0,
      23,
      promo ? Math.round(amount * 0.7) : null,
      promo ? now - DAY : null,
      promo ? now + 7 * DAY : null,
      p,
    ])
    prices.push([`bpr-${n}-${p}`, tid, pid, '', amount, 0, now, now])
    history.push([`bh-${n}-${p}`, tid, pid, `bpr-${n}-${p}`, amount, 'standard', now - 40 * DAY])
    if (promo) history.push([`bhp-${n}-${p}`, tid, pid, null, Math.round(amount * 0.7), 'promo', now - DAY])
    for (let s = 0; s < sections; s++) {
      const sid = `bs-${n}-${p}-${s}`
      secs.push([sid, tid, pid, `Section ${s + 1}`, s, now, now])
      for (let l = 0; l < lectures; l++) lecs.push([`bl-${n}-${p}-${s}-${l}`, tid, pid, sid, `Lecture ${s + 1}.${l + 1}`, 'text', LOREM, 300 + l * 60, s === 0 && l === 0 ? 1 : 0, 1, l, now, now])
    }
    for (let r = 0; r < reviewsPerProduct; r++)
      reviews.push([`br-${n}-${p}-${r}`, tid, pid, null, `Reviewer${r}`, [10, 10, 5, 10, 0][r % 5], r % 4 === 0 ? '' : 'Clear explanations and useful exercises.', 'approved', now - r * 60_000, now])
  }
  for (let i = 0; i < students; i++) {
    const own = new Set()
    for (let k = 0; k < accessPerStudent; k++) own.add((i + k * 7) % products)
    for (const p of own) access.push([`ba-${n}-${i}-${p}`, tid, `bp-${n}-${p}`, `bu-${n}-${i}`, 'manual', 'bench', now, now, now])
  }
  const productCols = [
    'id',
    'tenant_id',
    'kind',
    'title',
    'slug',
    'description',
    'published',
    'created_at',
    'updated_at',
    'category',
    'difficulty',
    'is_free',
    'vat_rate',
    'promo_price',
    'promo_starts_at',
    'promo_ends_at',
    'position',
  ]
  shard.add('products', productCols, prod)
  shard.add('product_prices', ['id', 'tenant_id', 'product_id', 'name', 'amount', 'position', 'created_at', 'updated_at'], prices)
  shard.add('product_price_history', ['id', 'tenant_id', 'product_id', 'price_id', 'amount', 'kind', 'recorded_at'], history)
  shard.add('sections', ['id', 'tenant_id', 'product_id', 'title', 'position', 'created_at', 'updated_at'], secs)
  shard.add('lectures', ['id', 'tenant_id', 'product_id', 'section_id', 'title', 'kind', 'body', 'run_time_seconds', 'free_to_watch', 'published', 'position', 'created_at', 'updated_at'], lecs)
  if (reviews.length) shard.add('reviews', ['id', 'tenant_id', 'product_id', 'user_id', 'first_name', 'rating', 'body', 'status', 'created_at', 'updated_at'], reviews)
  shard.add('product_access', ['id', 'tenant_id', 'product_id', 'user_id', 'source', 'reason', 'starts_at', 'created_at', 'updated_at'], access)
  return tid
}

/** Session token parts as the app makes them: random bytes in lower-case base32, no padding. */
export function base32(bytes) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  let bits = 0
  let value = 0
  let out = ''
  for (const b of randomBytes(bytes)) {
    value = (value << 8) | b
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return out
}

/** A 30-day session of `userId` (into the school's shard) and its cookie; the same row may go to several writers. */
export function sessionFor(tenantId, userId, now) {
  const id = base32(20)
  const secret = base32(20)
  const cols = ['id', 'tenant_id', 'user_id', 'secret_hash', 'created_at', 'last_verified_at', 'expires_at']
  const row = [id, tenantId, userId, createHash('sha256').update(secret).digest('hex'), now, now, now + 30 * DAY]
  return { cols, rows: [row], cookie: `cf_session=${id}.${secret}` }
}

/**
 * The 200-course school on shard `shard` of `dbs` (from openDbs) and a session of student
 * COURSE_INDEX (who has the measured course). Returns rows written, the cookie and the shard.
 */
export async function seedBig(dbs, { shard = 0 } = {}) {
  const now = Date.now()
  const control = new Writer(dbs.control)
  const data = new Writer(dbs.shards[shard])
  const tid = schoolRows(control, data, { ...BIG, shard }, BIG_SHAPE, now)
  const session = sessionFor(tid, `bu-${BIG.n}-${COURSE_INDEX}`, now)
  data.add('sessions', session.cols, session.rows)
  // Tenant data first, the control plane last (as the app creates a school).
  await data.flush()
  await control.flush()
  return { rows: control.rows + data.rows, cookie: session.cookie, shard, tenantId: tid }
}

/** Small schools 1 … count − 1, school n on shard n mod the shard count. Returns rows written. */
export async function seedMany(dbs, count) {
  const now = Date.now()
  const control = new Writer(dbs.control)
  const shards = dbs.shards.map((d) => new Writer(d))
  const flush = async () => {
    for (const w of shards) await w.flush()
    await control.flush()
  }
  for (let n = 1; n < count; n++) {
    const shard = n % shards.length
    schoolRows(control, shards[shard], { ...smallSchool(n), shard }, SMALL_SHAPE, now)
    if (n % 2000 === 0) await flush()
  }
  await flush()
  return control.rows + shards.reduce((a, w) => a + w.rows, 0)
}
