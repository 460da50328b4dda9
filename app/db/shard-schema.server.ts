// Tenant data (ADR 033): every table here carries tenant_id and lives in the school's shard
// database (DB_SHARD_0 … DB_SHARD_{N-1}); migrations in /migrations/shard are generated from this
// file alone (drizzle.shard.config.ts). Rule (tested in app/db/schema.test.ts): `tenant_id NOT
// NULL` and an index led by tenant_id. Queries import tables from schema.server.ts.

import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { sql } from 'drizzle-orm'
import { VIDEO_STATES } from '#app/domain/video-state.ts'
import { BLOCK_TYPES } from '#app/domain/block-types.ts'

export const BANK_ACCOUNT_TYPES = ['iban', 'nrb', 'us', 'swift'] as const
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number]
export const VAT_MODES = ['vat', 'none'] as const
export type VatMode = (typeof VAT_MODES)[number]
export const REVIEW_STATUSES = ['pending', 'approved', 'disapproved'] as const
export const LOGIN_VERIFICATION_MODES = ['off', 'email', 'phone'] as const
export type LoginVerificationMode = (typeof LOGIN_VERIFICATION_MODES)[number]

/**
 * Every tenant-owned row: tenant_id NOT NULL, led by an index. No foreign key to tenants: the
 * school's row lives in the control plane, another database (ADR 033); a school's rows are removed
 * table by table (SHARD_TABLES).
 */
const tenantIdColumn = () => text('tenant_id').notNull()

export const timestamps = {
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}

/**
 * The school's own settings that tenant data is read and written with (ADR 033): one row per school
 * in its shard, so the batches that join them with sales, sessions or balances stay one round trip.
 * What resolution caches for every page (name, language, template, switches…) is on the control
 * plane's tenant row instead.
 */
export const schoolSettings = sqliteTable('school_settings', {
  tenantId: text('tenant_id').primaryKey(),
  /** Page settings (seed 001 §3 "Page"): author and bio (contact e-mail and template are on the tenant row: every page shows them). */
  authorName: text('author_name').notNull().default(''),
  bio: text('bio').notNull().default(''),
  /** JSON: which events email the owner (leads, reviews, comments, transactions, registrations). */
  notificationPrefs: text('notification_prefs').notNull().default('{}'),
  /** Bumped by every creator edit (server.ts): part of the public page cache key, so an edit invalidates the school's cached pages. */
  contentVersion: integer('content_version').notNull().default(0),
  /** Payout account for withdrawals (seed 001 §3 "Account: bank account"); IBAN or local format, spaces removed. */
  bankAccount: text('bank_account'),
  bankAccountHolder: text('bank_account_holder'),
  /** Which format bankAccount is in (issue 23): IBAN, Polish NRB, US (ABA routing + account) or SWIFT/BIC + account. */
  bankAccountType: text('bank_account_type', { enum: BANK_ACCOUNT_TYPES }),
  bankSwift: text('bank_swift'),
  bankRoutingNumber: text('bank_routing_number'),
  /** Tax (issue 23): whether prices include VAT at all, and the rate new products start with. */
  vatMode: text('vat_mode', { enum: VAT_MODES }).notNull().default('vat'),
  defaultVatRate: integer('default_vat_rate').notNull().default(23),
  /** The school's terms of sale and privacy policy (markdown); '' = the template in the school's language. */
  termsMd: text('terms_md').notNull().default(''),
  privacyMd: text('privacy_md').notNull().default(''),
  /** IANA time zone for stats and dates (issue 24); '' = by language (pl: Europe/Warsaw, en: UTC). */
  timeZone: text('time_zone').notNull().default(''),
  ...timestamps,
})

/** Uploaded files (issue 4): one row per R2 object under `tenants/{tenantId}/…`. */
export const MEDIA_STATUSES = ['pending', 'ready'] as const
export type MediaStatus = (typeof MEDIA_STATUSES)[number]

export const mediaObjects = sqliteTable(
  'media_objects',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    /** R2 key `tenants/{tenantId}/{context}/{random}.{ext}` (app/domain/upload-policy.ts objectKey). */
    key: text('key').notNull(),
    context: text('context').notNull(),
    /** The kind the extension declared; confirmed from the bytes on completion. */
    kind: text('kind').notNull(),
    originalFilename: text('original_filename').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    status: text('status', { enum: MEDIA_STATUSES }).notNull().default('pending'),
    createdBy: text('created_by'),
    createdAt: integer('created_at').notNull(),
    completedAt: integer('completed_at'),
  },
  (t) => [uniqueIndex('media_objects_key_unique').on(t.key), index('media_objects_tenant_idx').on(t.tenantId, t.context, t.createdAt), index('media_objects_status_idx').on(t.status, t.createdAt)],
)

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    // Always stored lower-cased; the same address may hold separate accounts in two schools.
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'student'] }).notNull(),
    phone: text('phone'),
    vatId: text('vat_id'),
    /** Set when the account was erased (issue 23, GDPR): personal data replaced, sales kept anonymised. */
    deletedAt: integer('deleted_at'),
    /** When a session was last created for the user (sign-in, hand-over, registration): the operator's school page shows it for staff. */
    lastSignInAt: integer('last_sign_in_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_tenant_email_unique').on(t.tenantId, t.email),
    index('users_tenant_role_idx').on(t.tenantId, t.role),
    // The platform's "Log in to your school" finds an address's accounts across schools (cross-tenant.ts).
    index('users_email_idx').on(t.email),
  ],
)

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // SHA-256 of the token's secret half (hex); the secret itself is never stored.
    secretHash: text('secret_hash').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: integer('created_at').notNull(),
    lastVerifiedAt: integer('last_verified_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** When this session passed login verification (a code by email or SMS); null = not yet. */
    loginVerifiedAt: integer('login_verified_at'),
  },
  (t) => [index('sessions_tenant_user_idx').on(t.tenantId, t.userId)],
)

// One row per throttle key (login: email + IP, account, IP; promo, verification and signup counters; ADR 024).
// tenant_id is the school, or 'platform' for operator logins and platform-wide (per-IP, signup) counters.
export const loginAttempts = sqliteTable(
  'login_attempts',
  {
    tenantId: text('tenant_id').notNull(),
    throttleKey: text('throttle_key').notNull(),
    failures: integer('failures').notNull(),
    firstFailureAt: integer('first_failure_at').notNull(),
    lockedUntil: integer('locked_until'),
    /** Lockouts so far (progressive delay, ADR 024): the next lockout lasts base × 2^lockouts, capped; forgotten after a quiet period. */
    lockouts: integer('lockouts').notNull().default(0),
  },
  (t) => [uniqueIndex('login_attempts_tenant_key_unique').on(t.tenantId, t.throttleKey)],
)

// A new school owner's e-mail confirmation (issue 19 §4): until it is confirmed, no creator-chosen
// text (school or owner name) is mailed to the address. Only a SHA-256 of the token is stored.
export const signupConfirmations = sqliteTable(
  'signup_confirmations',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    confirmedAt: integer('confirmed_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('signup_confirmations_hash_unique').on(t.tokenHash), index('signup_confirmations_tenant_user_idx').on(t.tenantId, t.userId)],
)

// One-use tokens: password reset links and the signup hand-over to the school's own host.
export const authTokens = sqliteTable(
  'auth_tokens',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['password_reset', 'login_handover', 'invitation', 'login_link', 'email_change'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** What the token carries besides its user: the new address of an email_change. */
    payload: text('payload'),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('auth_tokens_hash_unique').on(t.tokenHash), index('auth_tokens_tenant_user_idx').on(t.tenantId, t.userId)],
)

export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    template: text('template').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    providerMessageId: text('provider_message_id'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
  },
  (t) => [index('email_outbox_tenant_created_idx').on(t.tenantId, t.createdAt), index('email_outbox_status_idx').on(t.status, t.createdAt)],
)

/** Product kinds (seed 001 §3). Issue 4 uses `file`; the catalogue issue fills in the rest. */
export const PRODUCT_KINDS = ['course', 'bundle', 'membership', 'live_event', 'file', 'consultation', 'physical'] as const
export type ProductKind = (typeof PRODUCT_KINDS)[number]
export const DIFFICULTIES = ['beginner', 'intermediate', 'advanced'] as const
export const MEMBERSHIP_PERIODS = [-1, 1, 3, 6, 12] as const

/** What a school sells. Columns beyond the basics arrive with the catalogue issue (ALTER TABLE). */
export const products = sqliteTable(
  'products',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    kind: text('kind', { enum: PRODUCT_KINDS }).notNull(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    published: integer('published', { mode: 'boolean' }).notNull().default(false),
    /** Catalogue fields (issue 5, seed 001 §3). Money in minor units of the school's currency. */
    coverPath: text('cover_path'),
    category: text('category').notNull().default(''),
    difficulty: text('difficulty', { enum: DIFFICULTIES }),
    isFree: integer('is_free', { mode: 'boolean' }).notNull().default(false),
    /** VAT rate in percent; null = exempt ("zw"). */
    vatRate: integer('vat_rate'),
    promoPrice: integer('promo_price'),
    promoStartsAt: integer('promo_starts_at'),
    promoEndsAt: integer('promo_ends_at'),
    /** Promotional packages: -1 unlimited. */
    promoLimit: integer('promo_limit').notNull().default(-1),
    promoSold: integer('promo_sold').notNull().default(0),
    /** Access day limit and access date limit (ms); 0 = none. */
    accessDays: integer('access_days').notNull().default(0),
    accessUntil: integer('access_until').notNull().default(0),
    /** Sale limit; 0 = none. */
    saleLimit: integer('sale_limit').notNull().default(0),
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    seoTitle: text('seo_title').notNull().default(''),
    seoDescription: text('seo_description').notNull().default(''),
    /** Course settings take priority over lecture settings (seed 001 §4). */
    commentsEnabled: integer('comments_enabled', { mode: 'boolean' }).notNull().default(true),
    /** Free courses or free-to-watch lectures may require login (seed 001 §6). */
    freeRequiresLogin: integer('free_requires_login', { mode: 'boolean' }).notNull().default(false),
    /** Membership: period in months (-1 lifetime, 1, 3, 6, 12); grants all products or the chosen ones. */
    membershipPeriod: integer('membership_period'),
    membershipGrantsAll: integer('membership_grants_all', { mode: 'boolean' }).notNull().default(false),
    /** Live event: start (ms), IANA time zone, join link (revealed to buyers only). */
    eventStartsAt: integer('event_starts_at'),
    eventTimezone: text('event_timezone'),
    eventJoinUrl: text('event_join_url'),
    /** Consultation length in minutes. */
    consultationMinutes: integer('consultation_minutes'),
    /** Physical product shipping prices (minor units). */
    shippingCourierPrice: integer('shipping_courier_price'),
    shippingLockerPrice: integer('shipping_locker_price'),
    /** Order bump (issue 8): another product offered at checkout, at bumpPrice (minor units), with a short pitch. */
    bumpProductId: text('bump_product_id'),
    bumpPrice: integer('bump_price'),
    bumpText: text('bump_text').notNull().default(''),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('products_tenant_slug_unique').on(t.tenantId, t.slug), index('products_tenant_kind_idx').on(t.tenantId, t.kind, t.createdAt)],
)

/** Private files of a product (downloads of a file product). Served only through short-lived signed URLs. */
export const productFiles = sqliteTable(
  'product_files',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    mediaObjectId: text('media_object_id')
      .notNull()
      .references(() => mediaObjects.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('product_files_media_unique').on(t.mediaObjectId), index('product_files_product_idx').on(t.tenantId, t.productId, t.position)],
)

/** How a student came to have a product (seed 001: purchase, membership, manual grant, import). */
export const ACCESS_SOURCES = ['manual', 'purchase', 'membership', 'import'] as const
export type AccessSource = (typeof ACCESS_SOURCES)[number]

/**
 * One row per (product, student). Access holds while startsAt ≤ now < expiresAt (null = no end)
 * and revokedAt is null ("denied" by the owner, with a reason). Owners and admins need no row.
 */
export const productAccess = sqliteTable(
  'product_access',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ACCESS_SOURCES }).notNull(),
    reason: text('reason'),
    grantedBy: text('granted_by'),
    startsAt: integer('starts_at').notNull(),
    expiresAt: integer('expires_at'),
    revokedAt: integer('revoked_at'),
    revokedReason: text('revoked_reason'),
    ...timestamps,
  },
  // The student's index also carries product_id, so "what does this student hold" is answered from
  // it alone; without that, SQLite preferred the covering unique index and read every enrolment of
  // the school for one panel (bench/capacity.mjs).
  (t) => [uniqueIndex('product_access_unique').on(t.tenantId, t.productId, t.userId), index('product_access_user_idx').on(t.tenantId, t.userId, t.productId)],
)

/** Videos hosted on Bunny Stream (one library for the platform; rows say whose they are). */
export const videos = sqliteTable(
  'videos',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    libraryId: text('library_id').notNull(),
    /** Bunny's video guid (lower-case). */
    bunnyVideoId: text('bunny_video_id').notNull(),
    title: text('title').notNull(),
    originalFilename: text('original_filename').notNull(),
    size: integer('size').notNull(),
    /** Our one state for Bunny's two status enums (app/domain/video-state.ts). */
    state: text('state', { enum: VIDEO_STATES }).notNull().default('awaiting_upload'),
    /** The last webhook Status number seen (the seed's bunny_status). */
    bunnyStatus: integer('bunny_status'),
    lengthSeconds: integer('length_seconds'),
    createdBy: text('created_by'),
    /** Last time the state was read from Bunny's API (webhooks can be lost). */
    checkedAt: integer('checked_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('videos_bunny_unique').on(t.libraryId, t.bunnyVideoId), index('videos_tenant_idx').on(t.tenantId, t.createdAt)],
)

/** Up to 3 price variants of a product (seed 001 §3), minor units. A free product has none. */
export const productPrices = sqliteTable(
  'product_prices',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    amount: integer('amount').notNull(),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('product_prices_product_idx').on(t.tenantId, t.productId, t.position)],
)

/** Every price a product was offered at, and since when (the storefront shows the lowest of the last 30 days, seed 001 §9). */
export const productPriceHistory = sqliteTable(
  'product_price_history',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The variant (null for a promotion price row). */
    priceId: text('price_id'),
    amount: integer('amount').notNull(),
    kind: text('kind', { enum: ['standard', 'promo'] })
      .notNull()
      .default('standard'),
    recordedAt: integer('recorded_at').notNull(),
  },
  (t) => [index('product_price_history_idx').on(t.tenantId, t.productId, t.recordedAt)],
)

/** What a bundle holds (courses) and what a membership grants (when not all): parent → product. */
export const productLinks = sqliteTable(
  'product_links',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    parentId: text('parent_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('product_links_unique').on(t.tenantId, t.parentId, t.productId), index('product_links_product_idx').on(t.tenantId, t.productId)],
)

/** Course sections (seed 001 §2 /home/courses/{courseId}/sections). */
export const sections = sqliteTable(
  'sections',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('sections_course_idx').on(t.tenantId, t.productId, t.position)],
)

export const LECTURE_KINDS = ['video', 'pdf', 'text', 'exam'] as const

/** Lectures (episodes): video, PDF or text; free-to-watch, published, comments (seed 001 §3). */
export const lectures = sqliteTable(
  'lectures',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sectionId: text('section_id')
      .notNull()
      .references(() => sections.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: LECTURE_KINDS }).notNull(),
    /** Markdown (text lectures); rendered sanitized. */
    body: text('body').notNull().default(''),
    videoId: text('video_id').references(() => videos.id, { onDelete: 'set null' }),
    /** A video hosted elsewhere (seed: "source url"). */
    sourceUrl: text('source_url'),
    /** media_objects.key of the lecture PDF (context lecture_pdf). */
    pdfKey: text('pdf_key'),
    runTimeSeconds: integer('run_time_seconds').notNull().default(0),
    freeToWatch: integer('free_to_watch', { mode: 'boolean' }).notNull().default(false),
    published: integer('published', { mode: 'boolean' }).notNull().default(false),
    commentsEnabled: integer('comments_enabled', { mode: 'boolean' }).notNull().default(true),
    /** Drip: opens this many days after the student's enrolment (null = at once) … */
    dripDays: integer('drip_days'),
    /** … or on this date (ms, null = no date). Both set: the later of the two. */
    dripAt: integer('drip_at'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('lectures_section_idx').on(t.tenantId, t.sectionId, t.position), index('lectures_course_idx').on(t.tenantId, t.productId)],
)

export const COMPONENT_KINDS = ['text', 'file', 'quiz'] as const

/** Parts of a lecture below its main content: text, a downloadable file, a quiz (JSON `data`). */
export const lectureComponents = sqliteTable(
  'lecture_components',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: COMPONENT_KINDS }).notNull(),
    data: text('data').notNull().default('{}'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('lecture_components_idx').on(t.tenantId, t.lectureId, t.position)],
)

/** The school's blog (seed 001 §3 "Article"). */
export const articles = sqliteTable(
  'articles',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    body: text('body').notNull().default(''),
    authorName: text('author_name').notNull().default(''),
    coverPath: text('cover_path'),
    publishedAt: integer('published_at'),
    published: integer('published', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('articles_tenant_slug_unique').on(t.tenantId, t.slug), index('articles_tenant_idx').on(t.tenantId, t.publishedAt)],
)

/** Leads from the storefront lead form (issue 6 writes them). */
export const leads = sqliteTable(
  'leads',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    source: text('source').notNull().default(''),
    /** JSON object of every submitted field (configured and hidden fields of the lead form), by field name. */
    fields: text('fields').notNull().default('{}'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('leads_tenant_email_unique').on(t.tenantId, t.email), index('leads_tenant_created_idx').on(t.tenantId, t.createdAt)],
)

/** "Once per minute" features (exports): the last time a user did it. */
export const actionThrottles = sqliteTable(
  'action_throttles',
  {
    tenantId: tenantIdColumn(),
    userId: text('user_id').notNull(),
    action: text('action').notNull(),
    lastAt: integer('last_at').notNull(),
  },
  (t) => [uniqueIndex('action_throttles_unique').on(t.tenantId, t.userId, t.action)],
)

/** Custom subpages (sales pages) of a school's site, built from blocks in the sales-page editor. */
export const subpages = sqliteTable(
  'subpages',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    published: integer('published', { mode: 'boolean' }).notNull().default(false),
    seoTitle: text('seo_title').notNull().default(''),
    seoDescription: text('seo_description').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('subpages_tenant_slug_unique').on(t.tenantId, t.slug), index('subpages_tenant_idx').on(t.tenantId, t.createdAt)],
)

/** One block of a subpage: a type and its props (JSON, validated by app/domain/blocks.ts). */
export const blocks = sqliteTable(
  'blocks',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    subpageId: text('subpage_id')
      .notNull()
      .references(() => subpages.id, { onDelete: 'cascade' }),
    type: text('type', { enum: BLOCK_TYPES }).notNull(),
    props: text('props').notNull().default('{}'),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('blocks_tenant_subpage_idx').on(t.tenantId, t.subpageId, t.position)],
)

/** A student's review of a product (seed 000 §3): rating 10 recommended, 5 neutral, 0 not recommended. */
export const reviews = sqliteTable(
  'reviews',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Shown as the reviewer's name; kept when the account goes. */
    firstName: text('first_name').notNull().default(''),
    rating: integer('rating').notNull(),
    body: text('body').notNull().default(''),
    status: text('status', { enum: REVIEW_STATUSES }).notNull().default('pending'),
    /** Set when the owner converted a comment into this review (scores 10/5/1); one review per comment. */
    sourceCommentId: text('source_comment_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('reviews_product_user_unique').on(t.productId, t.userId),
    uniqueIndex('reviews_source_comment_unique').on(t.tenantId, t.sourceCommentId),
    index('reviews_tenant_product_idx').on(t.tenantId, t.productId, t.status, t.createdAt),
  ],
)

/** A student's state in one lecture: watch position, notes, star, completion (POST /lecture/{id}/…). */
export const lectureProgress = sqliteTable(
  'lecture_progress',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** Last reported playback position and the furthest point watched (seconds). */
    positionSeconds: integer('position_seconds').notNull().default(0),
    watchedSeconds: integer('watched_seconds').notNull().default(0),
    note: text('note').notNull().default(''),
    starred: integer('starred', { mode: 'boolean' }).notNull().default(false),
    completedAt: integer('completed_at'),
    /** Last time the student opened or played it ("continue where you left off"). */
    lastViewedAt: integer('last_viewed_at').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('lecture_progress_unique').on(t.tenantId, t.userId, t.lectureId), index('lecture_progress_user_idx').on(t.tenantId, t.userId, t.productId, t.lastViewedAt)],
)

export const COMMENTABLE_TYPES = ['lecture', 'community_post'] as const
export type CommentableType = (typeof COMMENTABLE_TYPES)[number]

/** A comment under a lecture (or, later, a community post). Video comments carry a Bunny video. */
export const comments = sqliteTable(
  'comments',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    commentableType: text('commentable_type', { enum: COMMENTABLE_TYPES }).notNull(),
    commentableId: text('commentable_id').notNull(),
    /** The course of a lecture comment (moderation feed filter, review conversion); null otherwise. */
    productId: text('product_id').references(() => products.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Name shown; kept when the account goes. */
    authorName: text('author_name').notNull(),
    byAdmin: integer('by_admin', { mode: 'boolean' }).notNull().default(false),
    body: text('body').notNull(),
    videoId: text('video_id').references(() => videos.id, { onDelete: 'set null' }),
    repliesCount: integer('replies_count').notNull().default(0),
    upVotesCount: integer('up_votes_count').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('comments_commentable_idx').on(t.tenantId, t.commentableType, t.commentableId, t.createdAt), index('comments_tenant_created_idx').on(t.tenantId, t.createdAt)],
)

export const replies = sqliteTable(
  'replies',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    commentId: text('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    byAdmin: integer('by_admin', { mode: 'boolean' }).notNull().default(false),
    body: text('body').notNull(),
    /** media key of an image attached by an admin (png, gif, jpeg). */
    imagePath: text('image_path'),
    upVotesCount: integer('up_votes_count').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('replies_comment_idx').on(t.tenantId, t.commentId, t.createdAt)],
)

export const VOTABLE_TYPES = ['comment', 'reply'] as const
export type VotableType = (typeof VOTABLE_TYPES)[number]

/** One vote per user and item: 1 up, -1 down (a removed vote deletes the row). */
export const votes = sqliteTable(
  'votes',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    votableType: text('votable_type', { enum: VOTABLE_TYPES }).notNull(),
    votableId: text('votable_id').notNull(),
    value: integer('value').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('votes_unique').on(t.tenantId, t.userId, t.votableType, t.votableId), index('votes_votable_idx').on(t.tenantId, t.votableType, t.votableId)],
)

/** Satisfaction / site survey (seed 000 §3 "Survey"): markdown description and questions (JSON). */
export const surveys = sqliteTable(
  'surveys',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** JSON array of form questions (seed 000 §3 "Form question"). */
    questions: text('questions').notNull().default('[]'),
    active: integer('active', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('surveys_tenant_idx').on(t.tenantId, t.active, t.createdAt)],
)

export const surveyResponses = sqliteTable(
  'survey_responses',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    surveyId: text('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** JSON object keyed by each question's title in kebab case. */
    response: text('response').notNull(),
    respondedAt: integer('responded_at').notNull(),
  },
  (t) => [uniqueIndex('survey_responses_unique').on(t.tenantId, t.surveyId, t.userId), index('survey_responses_survey_idx').on(t.tenantId, t.surveyId, t.respondedAt)],
)

export const VERIFICATION_CHANNELS = ['email', 'phone'] as const

/** Login verification codes: only a SHA-256 of the code is stored; limited attempts; short expiry. */
export const verificationCodes = sqliteTable(
  'verification_codes',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: VERIFICATION_CHANNELS }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    sentAt: integer('sent_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    consumedAt: integer('consumed_at'),
  },
  (t) => [index('verification_codes_session_idx').on(t.tenantId, t.sessionId, t.sentAt)],
)

export const NOTIFICATION_KINDS = ['comment', 'reply', 'review', 'sale', 'post'] as const
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]

/** In-app notifications for a school's owners and admins (one row per recipient). */
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    /** The comment, reply, review or transaction it is about. */
    subjectId: text('subject_id').notNull(),
    /** Who did it and a short excerpt (plain text, snapshot). */
    actorName: text('actor_name').notNull().default(''),
    excerpt: text('excerpt').notNull().default(''),
    /** Path inside the school to open it. */
    link: text('link').notNull().default(''),
    readAt: integer('read_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('notifications_user_idx').on(t.tenantId, t.userId, t.createdAt)],
)

// ─── Payments (issue 8, ADR 019) ────────────────────────────────────────────────────────────────

/** Payment providers a school can connect; `test` is the built-in hosted-page imitation for development. */
export const PAYMENT_PROVIDERS = ['test', 'payu', 'stripe', 'p24', 'tpay', 'paypal', 'braintree', 'paylane'] as const
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number]

/**
 * A school's connection to a payment provider for one currency (seed 001 §3 "several per school,
 * chosen by currency"). Credentials are a secret-box sealed JSON (app/utils/secret-box.server.ts,
 * purpose `payment:{provider}`); `publicRef` is the non-secret part shown in /home (PayU POS id,
 * Stripe account hint). One integration per (school, provider, currency): a duplicate is rejected.
 */
export const paymentIntegrations = sqliteTable(
  'payment_integrations',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    currency: text('currency').notNull(),
    credentials: text('credentials').notNull(),
    publicRef: text('public_ref').notNull().default(''),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_integrations_unique').on(t.tenantId, t.provider, t.currency)],
)

/**
 * A school's account inside the platform's marketplace at a provider (issue 18, ADR 023): a Stripe
 * Connect Express account (`acct_…`) or a PayU Marketplace submerchant (`extCustomerId`). Sales
 * through it are split at the provider. `status`: 'onboarding' until the provider says the account
 * can take charges ('enabled'); 'restricted' when it later says it cannot.
 */
export const PAYOUT_PROVIDERS = ['stripe', 'payu'] as const
export type PayoutProvider = (typeof PAYOUT_PROVIDERS)[number]
export const PAYOUT_ACCOUNT_STATUSES = ['onboarding', 'enabled', 'restricted'] as const
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number]
export const payoutAccounts = sqliteTable(
  'payout_accounts',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    provider: text('provider', { enum: PAYOUT_PROVIDERS }).notNull(),
    /** Stripe `acct_…`; PayU the extCustomerId we gave the submerchant. */
    accountRef: text('account_ref').notNull(),
    status: text('status', { enum: PAYOUT_ACCOUNT_STATUSES }).notNull().default('onboarding'),
    chargesEnabled: integer('charges_enabled', { mode: 'boolean' }).notNull().default(false),
    payoutsEnabled: integer('payouts_enabled', { mode: 'boolean' }).notNull().default(false),
    /** What the provider still asks for (Stripe requirements.currently_due, PayU verification status), for the owner. */
    detail: text('detail').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('payout_accounts_tenant_provider_unique').on(t.tenantId, t.provider), uniqueIndex('payout_accounts_ref_unique').on(t.provider, t.accountRef)],
)

/**
 * pending → waiting (provider says the buyer paid, confirmation outstanding) → completed, or →
 * failed / canceled. Never leaves completed except to refunded (seed 001 §4; PayU statuses never
 * regress after COMPLETED). mismatch: the provider's own API answered an order, amount or currency
 * other than the transaction's (ADR 023) — nothing granted, shown to the owner and the operator.
 */
export const SHIPPING_STATUSES = ['ready', 'shipped', 'delivered'] as const
export type ShippingStatus = (typeof SHIPPING_STATUSES)[number]
export const TRANSACTION_STATUSES = ['pending', 'waiting', 'completed', 'failed', 'canceled', 'refunded', 'mismatch'] as const
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number]
/**
 * Who holds a sale's money (ADR 023): 'platform' — paid into an account the platform owns (the
 * built-in test provider; the platform's Stripe/PayU before the school is onboarded), withdrawable
 * by the school after the hold; 'school' — paid into the school's own provider account (its
 * PayU/Stripe keys): never withdrawable, its fee is owed; 'split' — paid through the platform's
 * marketplace account and split at the provider (Stripe Connect destination charge, PayU
 * Marketplace cart): the provider pays the school its share, the platform keeps the fee.
 */
export const COLLECTORS = ['platform', 'school', 'split'] as const
export type Collector = (typeof COLLECTORS)[number]
export const INVOICE_STATUSES = ['none', 'pending', 'issued', 'failed'] as const

/**
 * One checkout = one transaction. Amounts in minor units of `currency`, gross (VAT included):
 * total = unit × quantity − discount + bump + shipping. `hash` is the public, unguessable handle
 * (`/transaction/{hash}/pending`). `(provider, provider_ref)` is unique: a provider order or
 * Checkout Session belongs to exactly one transaction.
 */
export const transactions = sqliteTable(
  'transactions',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    hash: text('hash').notNull(),
    /** The buyer; null only after the account was deleted (the record of the sale stays). */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** null only after the product was deleted (the snapshots below stay). */
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    priceId: text('price_id'),
    /** Snapshots at checkout time: the receipt must not change when the product is edited. */
    productKind: text('product_kind', { enum: PRODUCT_KINDS }).notNull(),
    productTitle: text('product_title').notNull(),
    quantity: integer('quantity').notNull().default(1),
    currency: text('currency').notNull(),
    unitAmount: integer('unit_amount').notNull(),
    discountAmount: integer('discount_amount').notNull().default(0),
    bumpProductId: text('bump_product_id'),
    bumpAmount: integer('bump_amount').notNull().default(0),
    shippingAmount: integer('shipping_amount').notNull().default(0),
    totalAmount: integer('total_amount').notNull(),
    /** VAT included in totalAmount (per line, rounded half up). */
    vatAmount: integer('vat_amount').notNull().default(0),
    /** Platform fee (percentage + fixed, none on free orders), fixed at checkout time. */
    feeAmount: integer('fee_amount').notNull().default(0),
    status: text('status', { enum: TRANSACTION_STATUSES }).notNull().default('pending'),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }),
    integrationId: text('integration_id'),
    /** PayU orderId / Stripe Checkout Session id / test payment id. */
    providerRef: text('provider_ref'),
    promoCodeId: text('promo_code_id'),
    /** The product's promotion price was charged: completion counts one promotional package. */
    promoPriceApplied: integer('promo_price_applied', { mode: 'boolean' }).notNull().default(false),
    /** JSON: { name, email, phone? } */
    buyer: text('buyer').notNull().default('{}'),
    /** JSON: { type: 'person'|'company', name, companyName?, vatNumber?, address, city, postalCode, country } or null */
    invoiceDetails: text('invoice_details'),
    /** JSON: { shipmentType: 'parcel_locker'|'courier', parcelLockerCode?, address?, postalCode?, city? } or null */
    shipping: text('shipping'),
    termsAcceptedAt: integer('terms_accepted_at').notNull(),
    /** EU withdrawal-waiver consent for digital content (Directive 2011/83/EU art. 16(m)), recorded with the order. */
    withdrawalWaiverAt: integer('withdrawal_waiver_at'),
    /** Where 'Go back' on a failed payment leads (seed 000 §7 pending: checkoutLink). */
    checkoutPath: text('checkout_path').notNull(),
    invoiceStatus: text('invoice_status', { enum: INVOICE_STATUSES }).notNull().default('none'),
    completedAt: integer('completed_at'),
    /** A membership's renewal charge (memberships.id); the first purchase is memberships.transaction_id. */
    membershipId: text('membership_id'),
    /** Set in the same batch that grants access: the grant happens once. */
    accessGrantedAt: integer('access_granted_at'),
    /** Who holds the money (ADR 023), fixed when the buyer leaves for the provider. */
    collector: text('collector', { enum: COLLECTORS }).notNull().default('school'),
    /** Platform-collected: withdrawable from this time (completion + the hold). */
    holdUntil: integer('hold_until'),
    /** Why the status is what it is, when the status alone does not say (mismatch detail, expired, a decline code). */
    statusReason: text('status_reason'),
    /** When the cron last asked the provider about this pending transaction (the least recently asked go first). */
    checkedAt: integer('checked_at'),
    /** Split sales: the school's payout account (payout_accounts.id) the provider paid its share into. */
    payoutAccountId: text('payout_account_id'),
    /** When the payment-success page first ran the school's conversion code: once per sale (seed 001 §7). */
    conversionAt: integer('conversion_at'),
    /** Physical products (seed 001 §3, issue 24): ready → shipped (carrier, tracking) → delivered; null for other kinds. */
    shippingStatus: text('shipping_status', { enum: SHIPPING_STATUSES }),
    shippingCarrier: text('shipping_carrier'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    shippedAt: integer('shipped_at'),
    deliveredAt: integer('delivered_at'),
    /** The affiliate partner whose `recommendation` cookie the buyer carried at checkout (issue 24). */
    affiliatePartnerId: text('affiliate_partner_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('transactions_hash_unique').on(t.hash),
    uniqueIndex('transactions_provider_ref_unique').on(t.provider, t.providerRef),
    index('transactions_tenant_idx').on(t.tenantId, t.createdAt),
    index('transactions_user_idx').on(t.tenantId, t.userId, t.createdAt),
    // Across schools (issue 18): the operator's mismatch list and the monthly fee statements.
    index('transactions_status_idx').on(t.status, t.updatedAt),
    index('transactions_collector_idx').on(t.collector, t.completedAt),
    // Stats (issue 24): a school's completed sales by completion time; orders to ship; a partner's sales.
    index('transactions_tenant_completed_idx').on(t.tenantId, t.completedAt),
    index('transactions_shipping_idx').on(t.tenantId, t.shippingStatus, t.createdAt),
    index('transactions_affiliate_idx').on(t.tenantId, t.affiliatePartnerId, t.createdAt),
  ],
)

/**
 * Every provider notification we acted on, keyed by the provider's event id (Stripe `evt_…`,
 * PayU `{orderId}:{status}`, test `{paymentId}:{status}`). The unique index makes a replay's
 * batch fail as a whole: one event, one effect.
 */
export const paymentEvents = sqliteTable(
  'payment_events',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    eventKey: text('event_key').notNull(),
    /** The status the event reported, as the provider spelled it. */
    providerStatus: text('provider_status').notNull(),
    receivedAt: integer('received_at').notNull(),
  },
  (t) => [uniqueIndex('payment_events_unique').on(t.provider, t.eventKey), index('payment_events_tx_idx').on(t.tenantId, t.transactionId)],
)

/** Promo codes (seed 001 §3, §8): percent (1–100) or fixed (minor units), optionally for one product. */
export const PROMO_KINDS = ['percent', 'fixed'] as const
export const promoCodes = sqliteTable(
  'promo_codes',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    /** Stored upper-case; matched case-insensitively. */
    code: text('code').notNull(),
    kind: text('kind', { enum: PROMO_KINDS }).notNull(),
    value: integer('value').notNull(),
    /** null = every product of the school. */
    productId: text('product_id').references(() => products.id, { onDelete: 'cascade' }),
    startsAt: integer('starts_at'),
    endsAt: integer('ends_at'),
    /** -1 unlimited. */
    usageLimit: integer('usage_limit').notNull().default(-1),
    /** Completed transactions that used the code (counted in the grant batch). */
    usedCount: integer('used_count').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('promo_codes_code_unique').on(t.tenantId, t.code)],
)

/** One use of a code per student ('Promo code already used'); written with the completed transaction. */
export const promoRedemptions = sqliteTable(
  'promo_redemptions',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    promoCodeId: text('promo_code_id')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('promo_redemptions_unique').on(t.tenantId, t.promoCodeId, t.userId), uniqueIndex('promo_redemptions_tx_unique').on(t.transactionId)],
)

/** Withdrawals of a school's balance (seed 001 §4): pending → paid within 7 days, marked paid by an operator. */
export const WITHDRAWAL_STATUSES = ['pending', 'paid'] as const

/**
 * The monthly statement of platform fees on school-collected sales (issue 18 §1): one per school,
 * month (`YYYY-MM`, UTC) and currency. `coveredAmount` was deducted from money the platform held
 * for the school; `owedAmount` remained owed when the statement was made.
 */
export const feeStatements = sqliteTable(
  'fee_statements',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    month: text('month').notNull(),
    currency: text('currency').notNull(),
    salesCount: integer('sales_count').notNull(),
    salesAmount: integer('sales_amount').notNull(),
    feesAmount: integer('fees_amount').notNull(),
    coveredAmount: integer('covered_amount').notNull().default(0),
    owedAmount: integer('owed_amount').notNull().default(0),
    invoiceStatus: text('invoice_status', { enum: INVOICE_STATUSES }).notNull().default('none'),
    invoiceNumber: text('invoice_number'),
    emailedAt: integer('emailed_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('fee_statements_unique').on(t.tenantId, t.month, t.currency), index('fee_statements_tenant_idx').on(t.tenantId, t.month)],
)

export const withdrawals = sqliteTable(
  'withdrawals',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    /** The bank account at request time. */
    bankAccount: text('bank_account').notNull(),
    status: text('status', { enum: WITHDRAWAL_STATUSES }).notNull().default('pending'),
    requestedBy: text('requested_by'),
    paidAt: integer('paid_at'),
    paidBy: text('paid_by'),
    ...timestamps,
  },
  (t) => [index('withdrawals_tenant_idx').on(t.tenantId, t.createdAt), index('withdrawals_status_idx').on(t.status, t.createdAt)],
)

/**
 * Domain events for the queue consumers (webhooks, invoicing; issue 9): written in the same batch
 * as the change they describe, then sent to EVENTS_QUEUE; a cron sweep re-sends rows left unsent.
 * Consumers deduplicate by id.
 */
export const APP_EVENT_TYPES = ['student.paid', 'student.registered'] as const
export const appEvents = sqliteTable(
  'app_events',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    type: text('type', { enum: APP_EVENT_TYPES }).notNull(),
    /** Unique per type: the transaction id for student.paid, the user id for student.registered. */
    subjectId: text('subject_id').notNull(),
    payload: text('payload').notNull(),
    sentAt: integer('sent_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('app_events_subject_unique').on(t.tenantId, t.type, t.subjectId), index('app_events_unsent_idx').on(t.sentAt, t.createdAt)],
)

/** Seats of a multi-seat purchase given to others (seed 000 widget 15, §3 "Invitation", §5). */
export const INVITATION_STATUSES = ['sent', 'accepted'] as const
export const accessInvitations = sqliteTable(
  'access_invitations',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Lower-cased. */
    email: text('email').notNull(),
    status: text('status', { enum: INVITATION_STATUSES }).notNull().default('sent'),
    /** The account that took the seat. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    acceptedAt: integer('accepted_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('access_invitations_unique').on(t.tenantId, t.transactionId, t.email), index('access_invitations_email_idx').on(t.tenantId, t.email)],
)

/**
 * Membership lifecycle (seed 001 §4): started (first payment not settled yet) → active; a failed
 * renewal charge → at_risk (the student is emailed, retries follow); canceled = no further charges,
 * access runs to the end of the paid period; ended = the period is over (or retries ran out).
 */
export const MEMBERSHIP_STATUSES = ['started', 'active', 'at_risk', 'canceled', 'ended'] as const
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number]

/** A student's subscription to a membership product: one per purchase, renewed per period. */
export const memberships = sqliteTable(
  'memberships',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The purchase that started it. */
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: MEMBERSHIP_STATUSES }).notNull().default('started'),
    /** Months per period (1, 3, 6, 12); -1 lifetime (never renews). */
    periodMonths: integer('period_months').notNull(),
    /** What each renewal charges, minor units (the price paid, without one-off discounts). */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }),
    integrationId: text('integration_id'),
    /** Stripe subscription id (sub_…) when the provider renews it; null when we charge on schedule. */
    providerSubscriptionId: text('provider_subscription_id'),
    /** End of the paid period (ms); null for lifetime. */
    currentPeriodEnd: integer('current_period_end'),
    /** When our scheduler charges next (providers without subscriptions); null when none is due. */
    nextChargeAt: integer('next_charge_at'),
    /** Failed renewal attempts in a row (at risk after the first; ended after the last). */
    failedCharges: integer('failed_charges').notNull().default(0),
    /** The card on file as shown to the student (never the number): brand, last 4, expiry. */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpMonth: integer('card_exp_month'),
    cardExpYear: integer('card_exp_year'),
    /** Opaque reference of the stored card at the provider (test provider: its card token). */
    cardToken: text('card_token'),
    /** A card change started on the provider's page (issue 25): its reference there, until the student comes back. */
    cardUpdateRef: text('card_update_ref'),
    canceledAt: integer('canceled_at'),
    endedAt: integer('ended_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('memberships_transaction_unique').on(t.tenantId, t.transactionId),
    uniqueIndex('memberships_provider_subscription_unique').on(t.provider, t.providerSubscriptionId),
    index('memberships_user_idx').on(t.tenantId, t.userId),
    index('memberships_due_idx').on(t.status, t.nextChargeAt),
  ],
)

/** Seed 000 §3 cancellation survey enums. */
export const CANCEL_REASONS = ['no_time', 'no_value', 'expensive', 'alternative', 'technical', 'other'] as const
export const RETURN_INTENTS = ['definitely_return', 'maybe_return', 'probably_not_return', 'never_return'] as const

/** The exit survey after a cancellation: one per membership. */
export const cancellationSurveys = sqliteTable(
  'cancellation_surveys',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    membershipId: text('membership_id')
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason', { enum: CANCEL_REASONS }).notNull(),
    otherReason: text('other_reason'),
    returnIntent: text('return_intent', { enum: RETURN_INTENTS }).notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('cancellation_surveys_membership_unique').on(t.tenantId, t.membershipId), index('cancellation_surveys_tenant_idx').on(t.tenantId, t.createdAt)],
)

// ─── Integrations: webhooks, invoicing, mailing (issue 9) ──────────────────────────────────────

/** Events a creator's webhook can subscribe to (seed 001 §7): the app_events types. */
export const WEBHOOK_EVENTS = ['student.paid', 'student.registered'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** A creator's webhook: one event to one https URL; the signing secret sealed like credentials. */
export const webhooks = sqliteTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    event: text('event', { enum: WEBHOOK_EVENTS }).notNull(),
    url: text('url').notNull(),
    /** secret-box sealed (purpose `webhook`): signs each delivery (HMAC-SHA256). */
    secret: text('secret').notNull(),
    /** Last 4 characters of the secret, to recognise it (the whole secret is shown once). */
    secretHint: text('secret_hint').notNull().default(''),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('webhooks_unique').on(t.tenantId, t.event, t.url)],
)

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'dead'] as const
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number]

/**
 * One delivery of one event to one webhook (the delivery log). Unique per (webhook, event): a
 * redelivered queue message finds the row and does not send a delivered event again. `eventId`
 * is the app_events id, or `test:{id}` for "send test event".
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type', { enum: WEBHOOK_EVENTS }).notNull(),
    isTest: integer('is_test', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    deliveredAt: integer('delivered_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('webhook_deliveries_unique').on(t.tenantId, t.webhookId, t.eventId),
    index('webhook_deliveries_tenant_idx').on(t.tenantId, t.createdAt),
    // The operator dashboard's backlog and failures across schools (issue 27 §1).
    index('webhook_deliveries_status_idx').on(t.status, t.updatedAt),
  ],
)

/** Invoicing systems and mailing tools a school connects (seed 001 §3). */
export const BUSINESS_INTEGRATION_KINDS = ['invoice', 'mailing'] as const
export const BUSINESS_PROVIDERS = ['fakturownia', 'infakt', 'ifirma', 'mailchimp'] as const
export type BusinessProvider = (typeof BUSINESS_PROVIDERS)[number]

/**
 * One invoicing system and one mailing tool per school at most (a duplicate is rejected by the
 * unique index). Credentials sealed (purpose `integration:{provider}`); `settings` is plain JSON
 * (e.g. Mailchimp list id and whom to subscribe).
 */
export const businessIntegrations = sqliteTable(
  'business_integrations',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    kind: text('kind', { enum: BUSINESS_INTEGRATION_KINDS }).notNull(),
    provider: text('provider', { enum: BUSINESS_PROVIDERS }).notNull(),
    credentials: text('credentials').notNull(),
    publicRef: text('public_ref').notNull().default(''),
    settings: text('settings').notNull().default('{}'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('business_integrations_kind_unique').on(t.tenantId, t.kind)],
)

/** An invoice for a completed sale, one per transaction (transactions.invoice_status mirrors it). */
export const invoices = sqliteTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    integrationId: text('integration_id'),
    provider: text('provider', { enum: BUSINESS_PROVIDERS }).notNull(),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('pending'),
    /** The invoicing system's id and number, and a link the student may open. */
    externalId: text('external_id'),
    number: text('number'),
    url: text('url'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('invoices_transaction_unique').on(t.tenantId, t.transactionId), index('invoices_status_idx').on(t.status, t.updatedAt)],
)

/** People subscribed to the school's mailing list (buyers, leads), once per address. */
export const mailingMembers = sqliteTable(
  'mailing_members',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    integrationId: text('integration_id').notNull(),
    email: text('email').notNull(),
    source: text('source', { enum: ['buyer', 'lead', 'student'] }).notNull(),
    status: text('status', { enum: ['pending', 'subscribed', 'failed'] })
      .notNull()
      .default('pending'),
    externalId: text('external_id'),
    error: text('error'),
    ...timestamps,
  },
  (t) => [uniqueIndex('mailing_members_unique').on(t.tenantId, t.integrationId, t.email), index('mailing_members_status_idx').on(t.status, t.updatedAt)],
)

// ---- community (issue 22, seed 000 widget 16, §3, §5) ------------------------------------------

export const COMMUNITY_TOPIC_ACCESS = ['public', 'restricted'] as const
export type CommunityTopicAccess = (typeof COMMUNITY_TOPIC_ACCESS)[number]

/** A community topic: public to every signed-in student of the school, or restricted to holders of chosen products. */
export const communityTopics = sqliteTable(
  'community_topics',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    allowStudentsToAddPosts: integer('allow_students_to_add_posts', { mode: 'boolean' }).notNull().default(true),
    access: text('access', { enum: COMMUNITY_TOPIC_ACCESS }).notNull().default('public'),
    /** The course whose player links to this topic (issue 22 item 8); null = none. */
    courseId: text('course_id').references(() => products.id, { onDelete: 'set null' }),
    position: integer('position').notNull().default(0),
    /** The one pinned post of the topic (shown first). */
    pinnedPostId: text('pinned_post_id'),
    archivedAt: integer('archived_at'),
    ...timestamps,
  },
  (t) => [index('community_topics_tenant_idx').on(t.tenantId, t.position)],
)

/** Restricted topic → the products whose active access opens it (a membership, a course, a bundle…). */
export const communityTopicProducts = sqliteTable(
  'community_topic_products',
  {
    tenantId: tenantIdColumn(),
    topicId: text('topic_id')
      .notNull()
      .references(() => communityTopics.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('community_topic_products_unique').on(t.tenantId, t.topicId, t.productId)],
)

/** A post in a topic. user_id + by_admin false = a student's post (plain text); by_admin = the school's (markdown, page name as author). */
export const communityPosts = sqliteTable(
  'community_posts',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    topicId: text('topic_id')
      .notNull()
      .references(() => communityTopics.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    byAdmin: integer('by_admin', { mode: 'boolean' }).notNull().default(false),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** media key of the post's image (context post_image). */
    imagePath: text('image_path'),
    /** A Vimeo or YouTube embed URL. */
    videoUrl: text('video_url'),
    /** An uploaded video (Bunny Stream), shown once transcoded. */
    videoId: text('video_id').references(() => videos.id, { onDelete: 'set null' }),
    commentsCount: integer('comments_count').notNull().default(0),
    /** Computed by SQLite: the post carries a picture or a video (the gallery's index). */
    hasMedia: integer('has_media', { mode: 'boolean' }).generatedAlwaysAs(sql`image_path IS NOT NULL OR video_url IS NOT NULL OR video_id IS NOT NULL`, { mode: 'virtual' }),
    ...timestamps,
  },
  (t) => [
    index('community_posts_topic_idx').on(t.tenantId, t.topicId, t.createdAt, t.id),
    index('community_posts_tenant_created_idx').on(t.tenantId, t.createdAt, t.id),
    // The gallery's walk seeks only posts with a picture or a video.
    index('community_posts_media_idx').on(t.tenantId, t.topicId, t.hasMedia, t.createdAt, t.id),
  ],
)

/** A student's e-mail subscription to a topic (seed 000 §3 "community_topics, a map of subscribed topics"). */
export const communitySubscriptions = sqliteTable(
  'community_subscriptions',
  {
    tenantId: tenantIdColumn(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    topicId: text('topic_id')
      .notNull()
      .references(() => communityTopics.id, { onDelete: 'cascade' }),
    /** Last e-mail sent for this topic (at most one an hour; the rest wait for the digest). */
    lastSentAt: integer('last_sent_at'),
    /** A post arrived within the hour after lastSentAt: a digest is due at lastSentAt + 1 h. */
    digestDueAt: integer('digest_due_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('community_subscriptions_unique').on(t.tenantId, t.userId, t.topicId),
    index('community_subscriptions_topic_idx').on(t.tenantId, t.topicId),
    index('community_subscriptions_digest_idx').on(t.digestDueAt),
  ],
)

// ---------------------------------------------------------------------------------------------
// Issue 24: exams, certificates, stats, affiliate partners.

export const EXAM_QUESTION_KINDS = ['single', 'multiple', 'text'] as const
export type ExamQuestionKind = (typeof EXAM_QUESTION_KINDS)[number]
export const EXAM_ATTEMPT_STATUSES = ['in_progress', 'pending_review', 'passed', 'failed'] as const
export type ExamAttemptStatus = (typeof EXAM_ATTEMPT_STATUSES)[number]

/** An exam: the settings of a lecture of kind 'exam' (one per lecture). */
export const exams = sqliteTable(
  'exams',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    lectureId: text('lecture_id')
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** Pass mark in percent of the points (0–100). */
    passPercent: integer('pass_percent').notNull().default(60),
    /** Attempts a student may start; 0 = unlimited. */
    attemptsAllowed: integer('attempts_allowed').notNull().default(0),
    /** Minutes from the attempt's start; null = no limit. Enforced on the server. */
    timeLimitMinutes: integer('time_limit_minutes'),
    shuffleQuestions: integer('shuffle_questions', { mode: 'boolean' }).notNull().default(false),
    shuffleAnswers: integer('shuffle_answers', { mode: 'boolean' }).notNull().default(false),
    /** Show the right answers after a submitted attempt. */
    showAnswers: integer('show_answers', { mode: 'boolean' }).notNull().default(true),
    /** Passing it is required to complete the course (and for its certificate). */
    required: integer('required', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('exams_lecture_unique').on(t.tenantId, t.lectureId), index('exams_course_idx').on(t.tenantId, t.productId)],
)

/** A question of an exam. `options` JSON: [{ id, text, correct }] (choice kinds); the key never leaves the server before submission. */
export const examQuestions = sqliteTable(
  'exam_questions',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: EXAM_QUESTION_KINDS }).notNull(),
    prompt: text('prompt').notNull(),
    options: text('options').notNull().default('[]'),
    points: integer('points').notNull().default(1),
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('exam_questions_exam_idx').on(t.tenantId, t.examId, t.position)],
)

/** A student's attempt: the order served, the answers, the score; graded on the server. */
export const examAttempts = sqliteTable(
  'exam_attempts',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 1, 2, … per student and exam: the unique index makes a double start fail. */
    number: integer('number').notNull(),
    startedAt: integer('started_at').notNull(),
    /** startedAt + the time limit; null = none. */
    deadlineAt: integer('deadline_at'),
    submittedAt: integer('submitted_at'),
    /** JSON: the question ids and option ids in the order this attempt showed them. */
    layout: text('layout').notNull().default('{}'),
    /** JSON: { [questionId]: optionId[] | string }, plus the owner's points for text answers. */
    answers: text('answers').notNull().default('{}'),
    grades: text('grades').notNull().default('{}'),
    score: integer('score').notNull().default(0),
    maxScore: integer('max_score').notNull().default(0),
    status: text('status', { enum: EXAM_ATTEMPT_STATUSES }).notNull().default('in_progress'),
    /** Reset by the owner: kept for the record, no longer counted against the limit. */
    resetAt: integer('reset_at'),
    gradedAt: integer('graded_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('exam_attempts_number_unique').on(t.tenantId, t.examId, t.userId, t.number),
    index('exam_attempts_exam_idx').on(t.tenantId, t.examId, t.status, t.startedAt),
    index('exam_attempts_user_idx').on(t.tenantId, t.userId, t.startedAt),
  ],
)

/** A course's certificate settings (one row per course; none = certificates off). */
export const certificateSettings = sqliteTable(
  'certificate_settings',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(false),
    /** Language of the certificate's wording; null = the school's. */
    language: text('language', { enum: ['en', 'pl'] }),
    signatureName: text('signature_name').notNull().default(''),
    /** media_objects.key of a signature image (PNG/JPEG), or null. */
    signatureImageKey: text('signature_image_key'),
    ...timestamps,
  },
  (t) => [uniqueIndex('certificate_settings_course_unique').on(t.tenantId, t.productId)],
)

/** An issued certificate. `id` is unguessable and public (the verification page); the PDF is in R2 once. */
export const certificates = sqliteTable(
  'certificates',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    productId: text('product_id').references(() => products.id, { onDelete: 'set null' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Snapshots: the certificate says what was true when it was issued. */
    studentName: text('student_name').notNull(),
    courseTitle: text('course_title').notNull(),
    language: text('language', { enum: ['en', 'pl'] }).notNull(),
    issuedAt: integer('issued_at').notNull(),
    /** R2 key of the PDF once rendered; null until then. */
    pdfKey: text('pdf_key'),
    revokedAt: integer('revoked_at'),
    revokedReason: text('revoked_reason'),
    ...timestamps,
  },
  (t) => [uniqueIndex('certificates_student_unique').on(t.tenantId, t.productId, t.userId), index('certificates_tenant_idx').on(t.tenantId, t.issuedAt)],
)

/** Cookieless, server-side page views (stats funnel): one counter per school, product, kind and UTC hour. */
export const PAGE_VIEW_KINDS = ['sales_page', 'checkout'] as const
export type PageViewKind = (typeof PAGE_VIEW_KINDS)[number]
export const pageViews = sqliteTable(
  'page_views',
  {
    tenantId: tenantIdColumn(),
    /** '' = not about one product (the school's home). */
    productId: text('product_id').notNull(),
    kind: text('kind', { enum: PAGE_VIEW_KINDS }).notNull(),
    /** Hours since the epoch (UTC): any time zone's day is a range of hours. */
    hour: integer('hour').notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [uniqueIndex('page_views_unique').on(t.tenantId, t.kind, t.hour, t.productId)],
)

export const COMMISSION_KINDS = ['percent', 'fixed'] as const
export const COMMISSION_STATUSES = ['accrued', 'reversed', 'self_referral'] as const
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number]

/** Affiliate (recommendation) partners of a school: `?ref={code}` sets the `recommendation` cookie. */
export const affiliatePartners = sqliteTable(
  'affiliate_partners',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** Stored upper-case; matched case-insensitively. */
    code: text('code').notNull(),
    commissionKind: text('commission_kind', { enum: COMMISSION_KINDS }).notNull(),
    /** Percent (1–100) or minor units of the sale's currency. */
    commissionValue: integer('commission_value').notNull(),
    cookieDays: integer('cookie_days').notNull().default(30),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('affiliate_partners_code_unique').on(t.tenantId, t.code)],
)

/** A partner's commission on one completed sale: accrued once (unique per sale), reversed by a refund. */
export const affiliateCommissions = sqliteTable(
  'affiliate_commissions',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => affiliatePartners.id, { onDelete: 'cascade' }),
    transactionId: text('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    /** Sale amount the commission was computed on, and the commission (0 on self-referral). */
    saleAmount: integer('sale_amount').notNull(),
    amount: integer('amount').notNull(),
    status: text('status', { enum: COMMISSION_STATUSES }).notNull().default('accrued'),
    reversedAt: integer('reversed_at'),
    /** affiliate_payouts.id once the owner marked it paid. */
    payoutId: text('payout_id'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('affiliate_commissions_tx_unique').on(t.transactionId), index('affiliate_commissions_partner_idx').on(t.tenantId, t.partnerId, t.createdAt)],
)

/** The owner marked a partner's owed commission paid (per currency). */
export const affiliatePayouts = sqliteTable(
  'affiliate_payouts',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    partnerId: text('partner_id')
      .notNull()
      .references(() => affiliatePartners.id, { onDelete: 'cascade' }),
    currency: text('currency').notNull(),
    amount: integer('amount').notNull(),
    note: text('note').notNull().default(''),
    paidAt: integer('paid_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('affiliate_payouts_partner_idx').on(t.tenantId, t.partnerId, t.paidAt)],
)

export type User = typeof users.$inferSelect
export type Session = typeof sessions.$inferSelect
export type EmailOutboxRow = typeof emailOutbox.$inferSelect
export type MediaObject = typeof mediaObjects.$inferSelect
export type Product = typeof products.$inferSelect
export type ProductFile = typeof productFiles.$inferSelect
export type ProductAccess = typeof productAccess.$inferSelect
export type Video = typeof videos.$inferSelect
export type ProductPrice = typeof productPrices.$inferSelect
export type Section = typeof sections.$inferSelect
export type Lecture = typeof lectures.$inferSelect
export type LectureComponent = typeof lectureComponents.$inferSelect
export type Article = typeof articles.$inferSelect
export type Lead = typeof leads.$inferSelect
export type Subpage = typeof subpages.$inferSelect
export type Block = typeof blocks.$inferSelect
export type Review = typeof reviews.$inferSelect
export type LectureProgress = typeof lectureProgress.$inferSelect
export type Comment = typeof comments.$inferSelect
export type Reply = typeof replies.$inferSelect
export type Vote = typeof votes.$inferSelect
export type Survey = typeof surveys.$inferSelect
export type SurveyResponse = typeof surveyResponses.$inferSelect
export type VerificationCode = typeof verificationCodes.$inferSelect
export type Notification = typeof notifications.$inferSelect
export type PaymentIntegration = typeof paymentIntegrations.$inferSelect
export type TransactionRow = typeof transactions.$inferSelect
export type PromoCode = typeof promoCodes.$inferSelect
export type Withdrawal = typeof withdrawals.$inferSelect
export type AppEvent = typeof appEvents.$inferSelect
export type AccessInvitation = typeof accessInvitations.$inferSelect
export type Membership = typeof memberships.$inferSelect
export type CancellationSurvey = typeof cancellationSurveys.$inferSelect
export type Webhook = typeof webhooks.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
export type BusinessIntegration = typeof businessIntegrations.$inferSelect
export type Invoice = typeof invoices.$inferSelect
export type MailingMember = typeof mailingMembers.$inferSelect
export type CommunityTopic = typeof communityTopics.$inferSelect
export type CommunityPost = typeof communityPosts.$inferSelect
export type Exam = typeof exams.$inferSelect
export type ExamQuestion = typeof examQuestions.$inferSelect
export type ExamAttempt = typeof examAttempts.$inferSelect
export type CertificateSettings = typeof certificateSettings.$inferSelect
export type Certificate = typeof certificates.$inferSelect
export type AffiliatePartner = typeof affiliatePartners.$inferSelect
export type AffiliateCommission = typeof affiliateCommissions.$inferSelect
export type AffiliatePayout = typeof affiliatePayouts.$inferSelect
export type SchoolSettings = typeof schoolSettings.$inferSelect
