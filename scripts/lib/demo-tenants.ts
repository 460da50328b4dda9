// Reads the declarative demo schools in tenants/ and turns them into idempotent SQL.
import { HOLD_MS } from '#app/domain/payment-confirm.ts'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { decodeBase32, encodeBase64 } from '@oslojs/encoding'
import { BLOCK_PROPS, isBlockType } from '#app/domain/blocks.ts'
import { sha256Hex } from '#app/utils/ids.server.ts'
import { sealSecret } from '#app/utils/secret-box.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'

const UserSchema = z.object({
  role: z.enum(['owner', 'admin', 'student']),
  name: z.string().min(1).max(70),
  email: z.string().email(),
  password: z.string().min(6),
})
/** Lecture components as app/models/course-content.server.ts stores them (files need storage objects, so text and quiz only). */
const ComponentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), body: z.string().min(1) }),
  z.object({ kind: z.literal('quiz'), question: z.string().min(1), answers: z.array(z.object({ text: z.string().min(1), correct: z.boolean() })).min(2), hint: z.string().default('') }),
])
const CommentSchema = z.object({
  author: z.string().email(),
  body: z.string().min(2).max(1200),
  daysAgo: z.number().int().nonnegative().default(0),
  replies: z.array(z.object({ author: z.string().email(), body: z.string().min(2).max(1200) })).default([]),
})
const LectureSchema = z.object({
  title: z.string().min(1).max(120),
  body: z.string().default(''),
  freeToWatch: z.boolean().default(false),
  runTimeSeconds: z.number().int().nonnegative().default(0),
  /** Drip: opens this many days after enrolment. */
  dripDays: z.number().int().positive().optional(),
  components: z.array(ComponentSchema).default([]),
  comments: z.array(CommentSchema).default([]),
})
const SectionSchema = z.object({ title: z.string().min(1).max(120), lectures: z.array(LectureSchema).default([]) })
/** Demo catalogue (issue 5): text lectures only (videos and files need storage objects). */
const ProductSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,78}[a-z0-9]$/),
  kind: z.enum(['course', 'bundle', 'membership']),
  title: z.string().min(1).max(120),
  description: z.string().default(''),
  category: z.string().default(''),
  difficulty: z.enum(['beginner', 'intermediate', 'advanced']).optional(),
  published: z.boolean().default(true),
  /** Minor units; absent = free. */
  price: z.number().int().positive().optional(),
  promoPrice: z.number().int().positive().optional(),
  vatRate: z.number().int().min(0).max(100).nullable().default(23),
  membershipPeriod: z.union([z.literal(-1), z.literal(1), z.literal(3), z.literal(6), z.literal(12)]).optional(),
  /** Bundle courses / membership grants, by slug. */
  includes: z.array(z.string()).default([]),
  sections: z.array(SectionSchema).default([]),
  /** Students (by email) with manual access. */
  access: z.array(z.string().email()).default([]),
})
const ArticleSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{0,58}[a-z0-9]$/),
  title: z.string().min(1).max(200),
  body: z.string().default(''),
  authorName: z.string().max(70).default(''),
  daysAgo: z.number().int().nonnegative().default(0),
})
/** Block props as app/domain/blocks.ts takes them, except `{ demoImage: name }` (tenants/images/{name}.svg) and `{ demoProduct: slug }`. */
const SubpageSchema = z.object({
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  title: z.string().min(1).max(120),
  seoTitle: z.string().default(''),
  seoDescription: z.string().default(''),
  blocks: z.array(z.object({ type: z.string(), props: z.record(z.unknown()) })).default([]),
})
const ReviewSchema = z.object({
  product: z.string(),
  firstName: z.string().max(70),
  rating: z.union([z.literal(10), z.literal(5), z.literal(0)]),
  body: z.string().default(''),
  daysAgo: z.number().int().nonnegative().default(0),
})
/** A completed sale (issue 8), so the transactions and balance pages have something to show. */
const SaleSchema = z.object({
  product: z.string(),
  buyer: z.string().email(),
  totalAmount: z.number().int().positive(),
  vatAmount: z.number().int().nonnegative().default(0),
  feeAmount: z.number().int().nonnegative(),
  daysAgo: z.number().int().nonnegative().default(0),
  /** Who collected it (ADR 023): the platform (built-in test provider) or the school (its own integration in the school's currency). */
  collector: z.enum(['platform', 'school']).default('platform'),
})
/** A demo promo code (seed 001 §8): percentage (1–100) or fixed (minor units), optional product, limit and dates. */
const PromoSchema = z.object({
  code: z.string().regex(/^[A-Z0-9_-]{3,40}$/),
  kind: z.enum(['percent', 'fixed']),
  value: z.number().int().positive(),
  product: z.string().optional(),
  usageLimit: z.number().int().positive().optional(),
  /** Days from now (negative: in the past). */
  startsInDays: z.number().int().optional(),
  endsInDays: z.number().int().optional(),
})
/**
 * A payment provider connection with the development peers' credentials (workers/dev-peers
 * wrangler.toml), sealed with the development INTEGRATIONS_KEY. A Stripe one also registers its
 * webhook endpoint (and secret) at the Stripe peer.
 */
const IntegrationSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('payu'), currency: z.string().length(3), posId: z.string(), clientId: z.string(), clientSecret: z.string(), secondKey: z.string() }),
  z.object({ provider: z.literal('stripe'), currency: z.string().length(3), secretKey: z.string().startsWith('sk_test_'), webhookSecret: z.string().startsWith('whsec_') }),
  z.object({ provider: z.literal('test'), currency: z.string().length(3) }),
])
/** The school's invoicing system / mailing tool (issue 9) with the dev peers' credentials (workers/dev-peers migrations). */
const BusinessIntegrationSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('fakturownia'), account: z.string().min(1), apiToken: z.string().min(1) }),
  z.object({ provider: z.literal('mailchimp'), apiKey: z.string().regex(/-[a-z]+\d+$/), listId: z.string().min(1), listName: z.string().min(1), subscribeBuyers: z.boolean().default(true), subscribeLeads: z.boolean().default(true) }),
])
/**
 * The school's community (issue 22): topics (public, or restricted to students with access to the
 * named products) and posts by a student (their e-mail, plain text) or the school ("school",
 * markdown). Stable ids from the topic title and the post's title.
 */
const CommunitySchema = z.object({
  topics: z
    .array(
      z.object({
        title: z.string().min(1).max(120),
        description: z.string().max(2000).default(''),
        access: z.enum(['public', 'restricted']).default('public'),
        /** Restricted topics: the products (slugs) whose active access opens them. */
        products: z.array(z.string()).default([]),
        allowStudentsToAddPosts: z.boolean().default(true),
        /** The course whose player links to the topic (slug). */
        course: z.string().optional(),
      }),
    )
    .min(1),
  posts: z
    .array(
      z.object({
        topic: z.string(),
        /** A user's e-mail, or "school" (the owner, shown under the school's name). */
        author: z.union([z.literal('school'), z.string().email()]),
        title: z.string().min(5).max(159),
        body: z.string().trim().min(5).max(20_000),
        daysAgo: z.number().nonnegative().default(0),
        pinned: z.boolean().default(false),
      }),
    )
    .default([]),
})
/** A webhook with a fixed demo signing secret (so the README can say how to verify it). */
const WebhookSchema = z.object({ event: z.enum(['student.paid', 'student.registered']), url: z.string().url(), secret: z.string().startsWith('whsec_').min(20) })
export const DemoTenantSchema = z.object({
  slug: z.string().regex(/^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/),
  name: z.string().min(2).max(70),
  language: z.enum(['en', 'pl']),
  currency: z.string().length(3),
  customDomains: z.array(z.string()).default([]),
  users: z.array(UserSchema).min(1),
  authorName: z.string().max(70).default(''),
  bio: z.string().max(2000).default(''),
  contactEmail: z.string().email().optional(),
  /** Tax (issue 23): a Polish school charges VAT, Code Academy (USD) none. */
  vatMode: z.enum(['vat', 'none']).default('vat'),
  defaultVatRate: z.number().int().min(0).max(30).default(23),
  products: z.array(ProductSchema).default([]),
  articles: z.array(ArticleSchema).default([]),
  subpages: z.array(SubpageSchema).default([]),
  reviews: z.array(ReviewSchema).default([]),
  sales: z.array(SaleSchema).default([]),
  promoCodes: z.array(PromoSchema).default([]),
  integrations: z.array(IntegrationSchema).default([]),
  businessIntegrations: z.array(BusinessIntegrationSchema).default([]),
  webhooks: z.array(WebhookSchema).default([]),
  community: CommunitySchema.optional(),
  /** The school's site survey (active), questions as seed 000 §3 "Form question". */
  survey: z
    .object({ title: z.string().min(1).max(120), description: z.string().default(''), questions: z.array(z.record(z.unknown())).min(1) })
    .optional(),
})
/** Demo operators (issue 27 §6): a role, and a fixed TOTP key (base32, development only) printed by `npm start` for an authenticator app. */
export const OperatorsSchema = z.array(
  UserSchema.omit({ role: true }).extend({ role: z.enum(['admin', 'support', 'finance']).default('admin'), totpKey: z.string().regex(/^[A-Z2-7]{32}$/) }),
)

export type DemoTenant = z.infer<typeof DemoTenantSchema>

export function loadDemoTenants(dir: string) {
  const tenants = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'operators.json')
    .sort()
    .map((f) => DemoTenantSchema.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))))
  const operators = OperatorsSchema.parse(JSON.parse(readFileSync(join(dir, 'operators.json'), 'utf8')))
  return { tenants, operators }
}

// Stable ids, so running the seed again updates rows instead of adding new ones.
const stableId = (...parts: string[]) => sha256Hex(['coursefront-demo', ...parts].join(':')).slice(0, 24)
const q = (v: string | number | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)

/** Stable, so the Stripe peer's webhook endpoint (seeded separately) names the same notify URL. */
export const demoIntegrationId = (slug: string, provider: string, currency: string) => stableId('integration', slug, provider, currency.toUpperCase())

/** The development INTEGRATIONS_KEY (wrangler.toml [vars]): demo credentials are sealed with it. */
export function devIntegrationsKey(wranglerToml: string) {
  const key = /^INTEGRATIONS_KEY\s*=\s*"([^"]+)"/m.exec(wranglerToml)?.[1]
  if (!key) throw new Error('wrangler.toml has no INTEGRATIONS_KEY')
  return key
}

/**
 * The Stripe peer's side of the demo Stripe integrations: their webhook endpoints with the same
 * secret, pointing at the school's notify URL (delivered through the peers' APP binding, so the
 * port does not matter).
 */
export function buildPeerSeedSql({ tenants }: Pick<ReturnType<typeof loadDemoTenants>, 'tenants'>, platformHost: string, now = Date.now()) {
  const sql: string[] = []
  for (const t of tenants) {
    for (const integration of t.integrations) {
      if (integration.provider !== 'stripe') continue
      const id = demoIntegrationId(t.slug, 'stripe', integration.currency)
      const url = `http://${t.slug}.${platformHost}/payments/stripe/${id}/notify`
      const events = JSON.stringify(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed', 'checkout.session.expired', 'invoice.paid', 'invoice.payment_failed', 'customer.subscription.deleted'])
      sql.push(`INSERT INTO stripe_webhook_endpoints (id, url, secret, enabled_events, created_at) VALUES (${[`we_demo_${id}`, url, integration.webhookSecret, events, now].map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET url = excluded.url, secret = excluded.secret, enabled_events = excluded.enabled_events;`)
    }
  }
  return sql
}

/**
 * The demo schools' SQL by database (ADR 033): the control plane's rows (tenants, domains,
 * operators) and each shard's. Schools are spread over the shards in turn (the first on shard 0,
 * the second on shard 1, …), so every local stack and e2e run exercises both.
 */
export async function buildSeedSql({ tenants, operators }: ReturnType<typeof loadDemoTenants>, platformHost: string, now = Date.now(), integrationsKey = '', shardCount = 2) {
  const control: string[] = []
  const shards: string[][] = Array.from({ length: shardCount }, () => [])
  for (const [index, t] of tenants.entries()) {
    const tenantId = stableId('tenant', t.slug)
    const shard = index % shardCount
    const sql = shards[shard]!
    control.push(
      `INSERT INTO tenants (id, slug, name, status, language, currency, contact_email, shard, created_at, updated_at) VALUES (${[tenantId, t.slug, t.name, 'active', t.language, t.currency, t.contactEmail ?? '', shard, now, now].map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET slug = excluded.slug, name = excluded.name, status = 'active', language = excluded.language, currency = excluded.currency, contact_email = excluded.contact_email, updated_at = excluded.updated_at;`,
    )
    const hosts: Array<[string, 'platform_subdomain' | 'custom']> = [[`${t.slug}.${platformHost}`, 'platform_subdomain'], ...t.customDomains.map((h) => [h, 'custom'] as [string, 'custom'])]
    for (const [hostname, kind] of hosts) {
      control.push(
        `INSERT INTO domains (id, tenant_id, hostname, kind, verification_status, created_at, updated_at) VALUES (${[stableId('domain', hostname), tenantId, hostname, kind, 'active', now, now].map(q).join(', ')})
  ON CONFLICT(hostname) DO UPDATE SET tenant_id = excluded.tenant_id, kind = excluded.kind, verification_status = 'active', updated_at = excluded.updated_at;`,
      )
    }
    for (const u of t.users) {
      const hash = await hashPassword(u.password)
      sql.push(
        `INSERT INTO users (id, tenant_id, email, name, password_hash, role, created_at, updated_at) VALUES (${[stableId('user', t.slug, u.email), tenantId, u.email.toLowerCase(), u.name, hash, u.role, now, now].map(q).join(', ')})
  ON CONFLICT(tenant_id, email) DO UPDATE SET name = excluded.name, password_hash = excluded.password_hash, role = excluded.role, updated_at = excluded.updated_at;`,
      )
    }
    sql.push(`INSERT INTO school_settings (tenant_id, author_name, bio, vat_mode, default_vat_rate, created_at, updated_at) VALUES (${[tenantId, t.authorName, t.bio, t.vatMode, t.defaultVatRate, now, now].map(q).join(', ')})
  ON CONFLICT(tenant_id) DO UPDATE SET author_name = excluded.author_name, bio = excluded.bio, vat_mode = excluded.vat_mode, default_vat_rate = excluded.default_vat_rate, updated_at = excluded.updated_at;`)
    sql.push(...catalogueSql(t, tenantId, now))
    sql.push(...storefrontSql(t, tenantId, now))
    sql.push(...communitySql(t, tenantId, now))
    if (t.integrations.length && !integrationsKey) throw new Error('demo integrations need the development INTEGRATIONS_KEY')
    for (const integration of t.integrations) {
      const { provider, currency, ...credentials } = integration
      const sealed = await sealSecret(integrationsKey, tenantId, `payment:${provider}`, JSON.stringify(credentials))
      const publicRef = integration.provider === 'payu' ? integration.posId : integration.provider === 'stripe' ? `…${integration.secretKey.slice(-4)}` : ''
      const values = [demoIntegrationId(t.slug, provider, currency), tenantId, provider, currency.toUpperCase(), sealed, publicRef, 1, now, now]
      sql.push(`INSERT INTO payment_integrations (id, tenant_id, provider, currency, credentials, public_ref, enabled, created_at, updated_at) VALUES (${values.map(q).join(', ')})
    ON CONFLICT(tenant_id, provider, currency) DO UPDATE SET credentials = excluded.credentials, public_ref = excluded.public_ref, enabled = 1, updated_at = excluded.updated_at;`)
    }
    if ((t.businessIntegrations.length || t.webhooks.length) && !integrationsKey) throw new Error('demo integrations need the development INTEGRATIONS_KEY')
    // Added once: an owner who disconnects or replaces them keeps their choice until the row is gone.
    for (const integration of t.businessIntegrations) {
      const kind = integration.provider === 'mailchimp' ? 'mailing' : 'invoice'
      const [credentials, publicRef, settings] =
        integration.provider === 'mailchimp'
          ? [{ apiKey: integration.apiKey }, `…${integration.apiKey.slice(-4)}`, { listId: integration.listId, listName: integration.listName, subscribeBuyers: integration.subscribeBuyers, subscribeLeads: integration.subscribeLeads }]
          : [{ account: integration.account, apiToken: integration.apiToken }, `${integration.account} · …${integration.apiToken.slice(-4)}`, {}]
      const sealed = await sealSecret(integrationsKey, tenantId, `integration:${integration.provider}`, JSON.stringify(credentials))
      const values = [stableId('business-integration', t.slug, kind), tenantId, kind, integration.provider, sealed, publicRef, JSON.stringify(settings), 1, now, now]
      sql.push(`INSERT INTO business_integrations (id, tenant_id, kind, provider, credentials, public_ref, settings, enabled, created_at, updated_at) VALUES (${values.map(q).join(', ')})
    ON CONFLICT DO NOTHING;`)
    }
    for (const hook of t.webhooks) {
      const sealed = await sealSecret(integrationsKey, tenantId, 'webhook', hook.secret)
      const values = [stableId('webhook', t.slug, hook.event, hook.url), tenantId, hook.event, hook.url, sealed, hook.secret.slice(-4), 1, now, now]
      sql.push(`INSERT INTO webhooks (id, tenant_id, event, url, secret, secret_hint, enabled, created_at, updated_at) VALUES (${values.map(q).join(', ')})
    ON CONFLICT DO NOTHING;`)
    }
  }
  for (const o of operators) {
    const hash = await hashPassword(o.password)
    // Sealed like the app seals an enrolled key (app/auth/operator-two-factor.server.ts).
    const totpKey = await sealSecret(integrationsKey, 'platform', 'operator-totp', encodeBase64(decodeBase32(o.totpKey)))
    const values = [stableId('operator', o.email), o.email.toLowerCase(), o.name, hash, o.role, totpKey, now, now, now]
    control.push(
      `INSERT INTO operators (id, email, name, password_hash, role, totp_key, totp_enabled_at, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(email) DO UPDATE SET name = excluded.name, password_hash = excluded.password_hash, role = excluded.role, totp_key = excluded.totp_key, totp_enabled_at = excluded.totp_enabled_at, totp_last_step = NULL, updated_at = excluded.updated_at;`,
    )
  }
  return { control: control.join('\n'), shards: shards.map((sql) => sql.join('\n') || 'SELECT 1;') }
}

/** A demo comment's author: one of the school's users, by email. */
function demoAuthor(t: DemoTenant, email: string) {
  const user = t.users.find((u) => u.email === email)
  if (!user) throw new Error(`${t.slug}: comment by ${email}, who is not a user of the school`)
  return { id: stableId('user', t.slug, email), name: user.name, admin: user.role !== 'student' }
}

/** Products, prices, sections, lectures and manual access of a demo school, upserted by stable ids. */
function catalogueSql(t: DemoTenant, tenantId: string, now: number) {
  const sql: string[] = []
  const productId = (slug: string) => stableId('product', t.slug, slug)
  const day = 24 * 3600 * 1000
  t.products.forEach((p, position) => {
    const id = productId(p.slug)
    const free = p.price === undefined
    const cols: Record<string, string | number | null> = {
      id,
      tenant_id: tenantId,
      kind: p.kind,
      title: p.title,
      slug: p.slug,
      description: p.description,
      published: p.published ? 1 : 0,
      category: p.category,
      difficulty: p.difficulty ?? null,
      is_free: free ? 1 : 0,
      vat_rate: p.vatRate,
      promo_price: p.promoPrice ?? null,
      promo_starts_at: p.promoPrice ? now - day : null,
      promo_ends_at: p.promoPrice ? now + 30 * day : null,
      membership_period: p.membershipPeriod ?? null,
      position,
      created_at: now,
      updated_at: now,
    }
    const names = Object.keys(cols)
    const updates = names.filter((n) => !['id', 'tenant_id', 'created_at'].includes(n)).map((n) => `${n} = excluded.${n}`)
    sql.push(`INSERT INTO products (${names.join(', ')}) VALUES (${Object.values(cols).map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET ${updates.join(', ')};`)
    if (!free) {
      const priceId = stableId('price', t.slug, p.slug)
      sql.push(`INSERT INTO product_prices (id, tenant_id, product_id, name, amount, position, created_at, updated_at) VALUES (${[priceId, tenantId, id, '', p.price!, 0, now, now].map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET amount = excluded.amount, updated_at = excluded.updated_at;`)
      // The price "since" 40 days ago, so the 30-day lowest price has a history to read.
      sql.push(`INSERT OR IGNORE INTO product_price_history (id, tenant_id, product_id, price_id, amount, kind, recorded_at) VALUES (${[stableId('history', t.slug, p.slug, String(p.price)), tenantId, id, priceId, p.price!, 'standard', now - 40 * day].map(q).join(', ')});`)
      if (p.promoPrice) {
        sql.push(`INSERT OR IGNORE INTO product_price_history (id, tenant_id, product_id, price_id, amount, kind, recorded_at) VALUES (${[stableId('promo', t.slug, p.slug, String(p.promoPrice)), tenantId, id, null, p.promoPrice, 'promo', now - day].map(q).join(', ')});`)
      }
    }
    p.includes.forEach((slug, i) => {
      if (!t.products.some((other) => other.slug === slug && other.slug !== p.slug)) throw new Error(`${t.slug}/${p.slug}: includes unknown product ${slug}`)
      sql.push(`INSERT OR IGNORE INTO product_links (id, tenant_id, parent_id, product_id, position) VALUES (${[stableId('link', t.slug, p.slug, slug), tenantId, id, productId(slug), i].map(q).join(', ')});`)
    })
    p.sections.forEach((section, si) => {
      const sectionId = stableId('section', t.slug, p.slug, String(si))
      sql.push(`INSERT INTO sections (id, tenant_id, product_id, title, position, created_at, updated_at) VALUES (${[sectionId, tenantId, id, section.title, si, now, now].map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET title = excluded.title, position = excluded.position, updated_at = excluded.updated_at;`)
      section.lectures.forEach((lecture, li) => {
        const lectureId = stableId('lecture', t.slug, p.slug, String(si), String(li))
        const values = [lectureId, tenantId, id, sectionId, lecture.title, 'text', lecture.body, lecture.runTimeSeconds, lecture.freeToWatch ? 1 : 0, 1, lecture.dripDays ?? null, li, now, now]
        sql.push(`INSERT INTO lectures (id, tenant_id, product_id, section_id, title, kind, body, run_time_seconds, free_to_watch, published, drip_days, position, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET title = excluded.title, body = excluded.body, run_time_seconds = excluded.run_time_seconds, free_to_watch = excluded.free_to_watch, drip_days = excluded.drip_days, position = excluded.position, updated_at = excluded.updated_at;`)
        lecture.components.forEach((component, ci) => {
          const { kind, ...data } = component
          const values = [stableId('component', lectureId, String(ci)), tenantId, lectureId, kind, JSON.stringify(data), ci, now, now]
          sql.push(`INSERT INTO lecture_components (id, tenant_id, lecture_id, kind, data, position, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, data = excluded.data, position = excluded.position, updated_at = excluded.updated_at;`)
        })
        lecture.comments.forEach((comment, ci) => {
          const commentId = stableId('comment', lectureId, String(ci))
          const author = demoAuthor(t, comment.author)
          const at = now - comment.daysAgo * day - (lecture.comments.length - ci) * 60_000
          const values = [commentId, tenantId, 'lecture', lectureId, id, author.id, author.name, author.admin ? 1 : 0, comment.body, comment.replies.length, at, at]
          sql.push(`INSERT OR IGNORE INTO comments (id, tenant_id, commentable_type, commentable_id, product_id, user_id, author_name, by_admin, body, replies_count, created_at, updated_at) VALUES (${values.map(q).join(', ')});`)
          comment.replies.forEach((reply, ri) => {
            const replier = demoAuthor(t, reply.author)
            const values = [stableId('reply', commentId, String(ri)), tenantId, commentId, replier.id, replier.name, replier.admin ? 1 : 0, reply.body, at + (ri + 1) * 60_000, at + (ri + 1) * 60_000]
            sql.push(`INSERT OR IGNORE INTO replies (id, tenant_id, comment_id, user_id, author_name, by_admin, body, created_at, updated_at) VALUES (${values.map(q).join(', ')});`)
          })
        })
      })
    })
    for (const email of p.access) {
      if (!t.users.some((u) => u.email === email && u.role === 'student')) throw new Error(`${t.slug}/${p.slug}: access for ${email}, who is not a student of the school`)
      const values = [stableId('access', t.slug, p.slug, email), tenantId, id, stableId('user', t.slug, email), 'manual', 'Demo access', now, now, now]
      sql.push(`INSERT OR IGNORE INTO product_access (id, tenant_id, product_id, user_id, source, reason, starts_at, created_at, updated_at) VALUES (${values.map(q).join(', ')});`)
    }
  })
  return sql
}

/** Demo images (tenants/images/*.svg, SVG keeps the repository small): R2 key and file per school. */
export const DEMO_IMAGE_SIZES: Record<string, { width: number; height: number }> = {
  hero: { width: 1600, height: 900 },
  'slide-1': { width: 1200, height: 800 },
  'slide-2': { width: 1200, height: 800 },
  'slide-3': { width: 1200, height: 800 },
  'slide-4': { width: 1200, height: 800 },
  'gallery-1': { width: 1200, height: 800 },
  'gallery-2': { width: 1200, height: 800 },
  before: { width: 1200, height: 800 },
  after: { width: 1200, height: 800 },
}
export const DEMO_IMAGES_DIR = join(import.meta.dirname, '..', '..', 'tenants', 'images')
/** The media worker serves only keys shaped like uploads (`{26 base32 chars}.{ext}`, app/domain/upload-policy.ts): a stable one per school and image. */
const demoImageKey = (tenantId: string, name: string) => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  const hex = sha256Hex(`coursefront-demo-image:${tenantId}:${name}`)
  const random = Array.from({ length: 26 }, (_, i) => alphabet[parseInt(hex.slice(i * 2, i * 2 + 2), 16) % 32]).join('')
  return `tenants/${tenantId}/image/${random}.svg`
}

/** What seed.ts puts into the local R2 bucket: one object per demo image per school. */
export function demoImageObjects(tenants: DemoTenant[], imagesDir = DEMO_IMAGES_DIR) {
  return tenants.flatMap((t) => Object.keys(DEMO_IMAGE_SIZES).map((name) => ({ key: demoImageKey(stableId('tenant', t.slug), name), file: join(imagesDir, `${name}.svg`) })))
}

/** Replace `{ demoImage }` / `{ demoProduct }` placeholders in block props. */
function resolveDemoRefs(value: unknown, resolve: { image: (name: string) => unknown; product: (slug: string) => string }): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveDemoRefs(v, resolve))
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    if (typeof record.demoImage === 'string') return resolve.image(record.demoImage)
    if (typeof record.demoProduct === 'string') return resolve.product(record.demoProduct)
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, resolveDemoRefs(v, resolve)]))
  }
  return value
}

/** Articles, demo images, sales pages with blocks (props validated like the editor does) and approved reviews. */
function storefrontSql(t: DemoTenant, tenantId: string, now: number) {
  const sql: string[] = []
  const day = 24 * 3600 * 1000
  const productId = (slug: string) => {
    if (!t.products.some((p) => p.slug === slug)) throw new Error(`${t.slug}: unknown product ${slug}`)
    return stableId('product', t.slug, slug)
  }
  for (const a of t.articles) {
    const at = now - a.daysAgo * day
    const values = [stableId('article', t.slug, a.slug), tenantId, a.title, a.slug, a.body, a.authorName, at, 1, at, now]
    sql.push(`INSERT INTO articles (id, tenant_id, title, slug, body, author_name, published_at, published, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET title = excluded.title, slug = excluded.slug, body = excluded.body, author_name = excluded.author_name, published_at = excluded.published_at, published = 1, updated_at = excluded.updated_at;`)
  }
  if (t.subpages.length) {
    for (const name of Object.keys(DEMO_IMAGE_SIZES)) {
      const key = demoImageKey(tenantId, name)
      const bytes = statSync(join(DEMO_IMAGES_DIR, `${name}.svg`)).size
      const values = [stableId('image', t.slug, name), tenantId, key, 'image', 'svg', `${name}.svg`, 'image/svg+xml', bytes, 'ready', now, now]
      sql.push(`INSERT OR IGNORE INTO media_objects (id, tenant_id, key, context, kind, original_filename, content_type, size, status, created_at, completed_at) VALUES (${values.map(q).join(', ')});`)
    }
  }
  const image = (name: string) => {
    const size = DEMO_IMAGE_SIZES[name]
    if (!size) throw new Error(`${t.slug}: unknown demo image ${name}`)
    return { path: demoImageKey(tenantId, name), ...size }
  }
  for (const page of t.subpages) {
    const subpageId = stableId('subpage', t.slug, page.slug)
    sql.push(`INSERT INTO subpages (id, tenant_id, title, slug, published, seo_title, seo_description, created_at, updated_at) VALUES (${[subpageId, tenantId, page.title, page.slug, 1, page.seoTitle, page.seoDescription, now, now].map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET title = excluded.title, slug = excluded.slug, published = 1, seo_title = excluded.seo_title, seo_description = excluded.seo_description, updated_at = excluded.updated_at;`)
    page.blocks.forEach((block, position) => {
      if (!isBlockType(block.type)) throw new Error(`${t.slug}/${page.slug}: unknown block type ${block.type}`)
      const parsed = BLOCK_PROPS[block.type].safeParse(resolveDemoRefs(block.props, { image, product: productId }))
      if (!parsed.success) throw new Error(`${t.slug}/${page.slug}/${block.type}: ${JSON.stringify(parsed.error.issues)}`)
      // Readable, stable ids: tests address blocks as #block-demo-{school}-{type}.
      const id = `demo-${t.slug}-${block.type}`
      sql.push(`INSERT INTO blocks (id, tenant_id, subpage_id, type, props, position, created_at, updated_at) VALUES (${[id, tenantId, subpageId, block.type, JSON.stringify(parsed.data), position, now, now].map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET props = excluded.props, position = excluded.position, updated_at = excluded.updated_at;`)
    })
  }
  t.reviews.forEach((r, i) => {
    const at = now - r.daysAgo * day
    const values = [stableId('review', t.slug, r.product, String(i)), tenantId, productId(r.product), null, r.firstName, r.rating, r.body, 'approved', at, at]
    sql.push(`INSERT INTO reviews (id, tenant_id, product_id, user_id, first_name, rating, body, status, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET first_name = excluded.first_name, rating = excluded.rating, body = excluded.body, status = excluded.status;`)
  })
  t.sales.forEach((sale, i) => {
    const buyer = t.users.find((u) => u.email === sale.buyer && u.role === 'student')
    const product = t.products.find((p) => p.slug === sale.product)
    if (!buyer || !product) throw new Error(`${t.slug}: sale ${i} names an unknown student or product`)
    const at = now - sale.daysAgo * day
    const id = stableId('transaction', t.slug, String(i))
    // A school-collected sale went through the school's own integration in its currency.
    const own = sale.collector === 'school' ? t.integrations.find((x) => x.currency.toUpperCase() === t.currency.toUpperCase() && x.provider !== 'test') : undefined
    if (sale.collector === 'school' && !own) throw new Error(`${t.slug}: sale ${i} is collected by the school, which has no integration in ${t.currency}`)
    const provider = own?.provider ?? 'test'
    const integrationId = own ? demoIntegrationId(t.slug, own.provider, own.currency) : null
    const holdUntil = sale.collector === 'platform' ? at + HOLD_MS : null
    const values = [id, tenantId, stableId('hash', t.slug, String(i)).slice(0, 20), stableId('user', t.slug, buyer.email), productId(sale.product), product.kind, product.title, 1, t.currency, sale.totalAmount, sale.totalAmount, sale.vatAmount, sale.feeAmount, 'completed', provider, integrationId, stableId('ref', t.slug, String(i)), JSON.stringify({ name: buyer.name, email: buyer.email }), at, `/${sale.product}/checkout`, at, at, sale.collector, holdUntil, at, at]
    sql.push(`INSERT INTO transactions (id, tenant_id, hash, user_id, product_id, product_kind, product_title, quantity, currency, unit_amount, total_amount, vat_amount, fee_amount, status, provider, integration_id, provider_ref, buyer, terms_accepted_at, checkout_path, completed_at, access_granted_at, collector, hold_until, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET provider = excluded.provider, integration_id = excluded.integration_id, collector = excluded.collector, hold_until = excluded.hold_until;`)
  })
  for (const promo of t.promoCodes) {
    if (promo.product && !t.products.some((p) => p.slug === promo.product)) throw new Error(`${t.slug}: promo ${promo.code} names an unknown product`)
    const at = (days: number | undefined) => (days === undefined ? null : now + days * day)
    const values = [stableId('promo', t.slug, promo.code), tenantId, promo.code, promo.kind, promo.value, promo.product ? productId(promo.product) : null, at(promo.startsInDays), at(promo.endsInDays), promo.usageLimit ?? -1, 0, now, now]
    sql.push(`INSERT INTO promo_codes (id, tenant_id, code, kind, value, product_id, starts_at, ends_at, usage_limit, used_count, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, value = excluded.value, product_id = excluded.product_id, starts_at = excluded.starts_at, ends_at = excluded.ends_at, usage_limit = excluded.usage_limit, updated_at = excluded.updated_at;`)
  }
  if (t.survey) {
    const values = [stableId('survey', t.slug), tenantId, t.survey.title, t.survey.description, JSON.stringify(t.survey.questions), 1, now, now]
    sql.push(`INSERT INTO surveys (id, tenant_id, title, description, questions, active, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET title = excluded.title, description = excluded.description, questions = excluded.questions, updated_at = excluded.updated_at;`)
  }
  return sql
}

/** Community topics (with their products) and posts, upserted by stable ids; a pinned post pins its topic. */
function communitySql(t: DemoTenant, tenantId: string, now: number) {
  const sql: string[] = []
  if (!t.community) return sql
  const day = 24 * 3600 * 1000
  const product = (slug: string, what: string) => {
    const p = t.products.find((x) => x.slug === slug)
    if (!p) throw new Error(`${t.slug}: community ${what} names an unknown product ${slug}`)
    return p
  }
  const topicId = (title: string) => stableId('community-topic', t.slug, title)
  const titles = t.community.topics.map((topic) => topic.title)
  if (new Set(titles).size !== titles.length) throw new Error(`${t.slug}: two community topics share a title`)
  t.community.topics.forEach((topic, position) => {
    const id = topicId(topic.title)
    if (topic.access === 'restricted' && topic.products.length === 0) throw new Error(`${t.slug}: restricted community topic ${topic.title} names no product`)
    if (topic.access === 'public' && topic.products.length > 0) throw new Error(`${t.slug}: public community topic ${topic.title} names products`)
    const course = topic.course ? product(topic.course, `topic ${topic.title}`) : null
    if (course && course.kind !== 'course') throw new Error(`${t.slug}: community topic ${topic.title} links to ${course.slug}, which is not a course`)
    const values = [id, tenantId, topic.title, topic.description, topic.allowStudentsToAddPosts ? 1 : 0, topic.access, course ? stableId('product', t.slug, course.slug) : null, position, now, now]
    sql.push(`INSERT INTO community_topics (id, tenant_id, title, description, allow_students_to_add_posts, access, course_id, position, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET title = excluded.title, description = excluded.description, allow_students_to_add_posts = excluded.allow_students_to_add_posts, access = excluded.access, course_id = excluded.course_id, position = excluded.position, archived_at = NULL, updated_at = excluded.updated_at;`)
    // The topic's products are exactly the declared ones.
    sql.push(`DELETE FROM community_topic_products WHERE tenant_id = ${q(tenantId)} AND topic_id = ${q(id)};`)
    for (const slug of topic.products) {
      product(slug, `topic ${topic.title}`)
      sql.push(`INSERT OR IGNORE INTO community_topic_products (tenant_id, topic_id, product_id) VALUES (${[tenantId, id, stableId('product', t.slug, slug)].map(q).join(', ')});`)
    }
  })
  const owner = t.users.find((u) => u.role === 'owner')
  const pinned = new Set<string>()
  t.community.posts.forEach((post, i) => {
    if (!titles.includes(post.topic)) throw new Error(`${t.slug}: community post ${post.title} is in an unknown topic ${post.topic}`)
    const user = post.author === 'school' ? owner : t.users.find((u) => u.email === post.author)
    if (!user) throw new Error(`${t.slug}: community post ${post.title} by ${post.author}, who is not a user of the school`)
    const byAdmin = user.role !== 'student'
    const id = stableId('community-post', t.slug, post.topic, post.title)
    // Minutes apart in the order declared, so posts of the same day keep it.
    const at = Math.round(now - post.daysAgo * day - (t.community!.posts.length - i) * 60_000)
    const values = [id, tenantId, topicId(post.topic), stableId('user', t.slug, user.email), user.name, byAdmin ? 1 : 0, post.title, post.body, at, at]
    sql.push(`INSERT INTO community_posts (id, tenant_id, topic_id, user_id, author_name, by_admin, title, body, created_at, updated_at) VALUES (${values.map(q).join(', ')})
  ON CONFLICT(id) DO UPDATE SET topic_id = excluded.topic_id, user_id = excluded.user_id, author_name = excluded.author_name, by_admin = excluded.by_admin, title = excluded.title, body = excluded.body, created_at = excluded.created_at, updated_at = excluded.updated_at;`)
    if (post.pinned) {
      if (pinned.has(post.topic)) throw new Error(`${t.slug}: two pinned posts in community topic ${post.topic}`)
      pinned.add(post.topic)
      sql.push(`UPDATE community_topics SET pinned_post_id = ${q(id)} WHERE tenant_id = ${q(tenantId)} AND id = ${q(topicId(post.topic))};`)
    }
  })
  return sql
}
