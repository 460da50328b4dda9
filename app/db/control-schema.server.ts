// The control plane (ADR 033): the tables tenant resolution, the platform and the operator console
// need, in one database (binding DB); migrations in /migrations/control are generated from this
// file alone (drizzle.control.config.ts). Queries import tables from schema.server.ts.

import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { LOGIN_VERIFICATION_MODES, PAYOUT_PROVIDERS, timestamps } from './shard-schema.server.ts'

// Platform-wide throttles (ADR 024's per-IP limits across every school, scope 'platform') must count
// in one place whatever the school's shard: the same table also lives in the control plane, and
// login-throttle.server.ts writes scope 'platform' there, a school's own scope in its shard.
export { loginAttempts } from './shard-schema.server.ts'

/** A domain row belongs to its school, in the same database: removed with it. */
const tenantIdColumn = () =>
  text('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' })

export const tenants = sqliteTable(
  'tenants',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: ['active', 'suspended'] })
      .notNull()
      .default('active'),
    language: text('language', { enum: ['en', 'pl'] }).notNull(),
    currency: text('currency').notNull(),
    /** Media keys (media_objects.key, context avatar/cover) of the school's images; served from the media host. */
    avatarPath: text('avatar_path'),
    coverPath: text('cover_path'),
    contactEmail: text('contact_email').notNull().default(''),
    template: text('template').notNull().default('classic'),
    /** The creator's own scripts: injected only on the school's public pages, never on /home or the platform. */
    customJs: text('custom_js').notNull().default(''),
    conversionCode: text('conversion_code').notNull().default(''),
    /** Login verification (seed 000 §2 "session verification"): off, or a code by email or by SMS to the phone. */
    loginVerification: text('login_verification', { enum: LOGIN_VERIFICATION_MODES }).notNull().default('off'),
    /** School switches (issue 23): sign-in / registration temporarily off for students (staff keep access); checkout asking only e-mail, name and consents. */
    loginDisabled: integer('login_disabled', { mode: 'boolean' }).notNull().default(false),
    registrationDisabled: integer('registration_disabled', { mode: 'boolean' }).notNull().default(false),
    simplifiedCheckout: integer('simplified_checkout', { mode: 'boolean' }).notNull().default(false),
    /** Platform fee set by the operator (seed 001 §1): basis points and fixed minor units; null = defaults (app/payments/pricing.ts). */
    feeBasisPoints: integer('fee_basis_points'),
    feeFixed: integer('fee_fixed'),
    /** Which shard database holds the school's data (ADR 033): DB_SHARD_{shard}. Changed only by a move. */
    shard: integer('shard').notNull().default(0),
    /** Set while the school moves to another shard (app/shards/move-school.server.ts): its writes are refused until the move unfreezes it. */
    movingSince: integer('moving_since'),
    /** Issue 27 §8: when set, the school is suspended and its data is deleted at this time unless restored first. */
    deletionDueAt: integer('deletion_due_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('tenants_slug_unique').on(t.slug), index('tenants_created_at_idx').on(t.createdAt)],
)

/** Lifecycle of a custom domain (issue 3); platform subdomains are created `active`. */
export const DOMAIN_STATUSES = ['pending_dns', 'pending_ownership', 'pending_certificate', 'active', 'failed'] as const
export type DomainStatus = (typeof DOMAIN_STATUSES)[number]

export const domains = sqliteTable(
  'domains',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    hostname: text('hostname').notNull(),
    kind: text('kind', { enum: ['platform_subdomain', 'custom'] }).notNull(),
    verificationStatus: text('verification_status', { enum: DOMAIN_STATUSES }).notNull().default('pending_dns'),
    /** Other hosts of the school redirect (301) to the primary one while it is active. */
    isPrimary: integer('is_primary', { mode: 'boolean' }).notNull().default(false),
    // Cloudflare for SaaS custom hostname, as last seen.
    cfHostnameId: text('cf_hostname_id'),
    cfStatus: text('cf_status'),
    sslStatus: text('ssl_status'),
    ownershipTxtName: text('ownership_txt_name'),
    ownershipTxtValue: text('ownership_txt_value'),
    /** JSON: [{ name, value }] TXT records Cloudflare wants for certificate validation. */
    sslValidationRecords: text('ssl_validation_records'),
    /** What the DNS lookup saw last (JSON: { cname, a, aaaa, ownershipTxt }). */
    dnsObserved: text('dns_observed'),
    /** Why the domain is in trouble: a translation key (e.g. domains.problem.timeout). */
    problem: text('problem'),
    /** The last technical error talking to DNS or Cloudflare (kept, retried later). */
    lastError: text('last_error'),
    checkCount: integer('check_count').notNull().default(0),
    lastCheckedAt: integer('last_checked_at'),
    nextCheckAt: integer('next_check_at'),
    verificationStartedAt: integer('verification_started_at'),
    activatedAt: integer('activated_at'),
    problemNotifiedAt: integer('problem_notified_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('domains_hostname_unique').on(t.hostname), index('domains_tenant_idx').on(t.tenantId), index('domains_due_idx').on(t.verificationStatus, t.nextCheckAt)],
)

/** Every state change of a domain, per tenant (issue 3 §6). */
export const domainEvents = sqliteTable(
  'domain_events',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    domainId: text('domain_id').notNull(),
    hostname: text('hostname').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    detail: text('detail'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('domain_events_tenant_domain_idx').on(t.tenantId, t.domainId, t.createdAt)],
)

// Platform staff. Not tenant-owned.
export const OPERATOR_ROLES = ['admin', 'support', 'finance'] as const
export type OperatorRole = (typeof OPERATOR_ROLES)[number]

export const operators = sqliteTable(
  'operators',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Issue 27 §6: what the operator may do (app/operator/permissions.ts). */
    role: text('role', { enum: OPERATOR_ROLES }).notNull().default('admin'),
    /** The TOTP key, sealed (secret-box, purpose 'operator-totp'); null until the operator enrols. */
    totpKey: text('totp_key'),
    totpEnabledAt: integer('totp_enabled_at'),
    /** The last 30-second step whose code was accepted: a code works once (RFC 6238 §5.2). */
    totpLastStep: integer('totp_last_step'),
    lastSignInAt: integer('last_sign_in_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('operators_email_unique').on(t.email)],
)

/** One-time codes for an operator who lost the authenticator: SHA-256 of the code, spent once. */
export const operatorRecoveryCodes = sqliteTable(
  'operator_recovery_codes',
  {
    id: text('id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('operator_recovery_codes_hash_unique').on(t.operatorId, t.codeHash)],
)

/** An admin's invitation: the link carries id.secret; the row keeps the secret's hash. */
export const operatorInvites = sqliteTable(
  'operator_invites',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: OPERATOR_ROLES }).notNull(),
    secretHash: text('secret_hash').notNull(),
    invitedBy: text('invited_by').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    acceptedAt: integer('accepted_at'),
  },
  (t) => [index('operator_invites_email_idx').on(t.email)],
)

export const operatorSessions = sqliteTable(
  'operator_sessions',
  {
    id: text('id').primaryKey(),
    operatorId: text('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    createdAt: integer('created_at').notNull(),
    lastVerifiedAt: integer('last_verified_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** Set when the second factor was given; until then the session reaches only /operator/two-factor. */
    twoFactorAt: integer('two_factor_at'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
)

/**
 * The platform's own webhook endpoints at a provider (issue 18): Stripe sends the platform
 * account's events (Checkout Sessions of marketplace sales) and its connected accounts' events
 * (`account.updated`) to one URL each on the platform host. Created through the provider's API the
 * first time they are needed; the signing secret is sealed like integration credentials.
 */
export const PLATFORM_WEBHOOK_PURPOSES = ['account', 'connect'] as const
export type PlatformWebhookPurpose = (typeof PLATFORM_WEBHOOK_PURPOSES)[number]

export const platformWebhooks = sqliteTable(
  'platform_webhooks',
  {
    id: text('id').primaryKey(),
    provider: text('provider', { enum: PAYOUT_PROVIDERS }).notNull(),
    purpose: text('purpose', { enum: PLATFORM_WEBHOOK_PURPOSES }).notNull(),
    endpointId: text('endpoint_id').notNull(),
    url: text('url').notNull(),
    /** Secret-box sealed signing secret (purpose `platform-webhook:{provider}`). */
    secret: text('secret').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('platform_webhooks_unique').on(t.provider, t.purpose)],
)

/**
 * What the Polish business register (GUS BIR 1.1) or the EU's VIES said about a tax number (issue
 * 25): public data, cached per number for every school's checkout. `key` is `nip:{10 digits}` or
 * `vat:{CC}{number}`; `found` false records a number the register does not know (cached shorter).
 */
export const companyLookups = sqliteTable('company_lookups', {
  key: text('key').primaryKey(),
  found: integer('found', { mode: 'boolean' }).notNull(),
  /** JSON: { name, street, postalCode, city, country, regon? } as the checkout fills it. */
  company: text('company').notNull().default('{}'),
  fetchedAt: integer('fetched_at').notNull(),
})

/**
 * A school's move between shards (ADR 033, app/shards/move-school.server.ts), advanced a bounded
 * number of batches at a time (operator action, cron) and resumable from what is recorded here.
 * At most one unfinished move per school.
 */
export const SCHOOL_MOVE_PHASES = ['clear_target', 'copy', 'verify', 'switch', 'unfreeze', 'delete', 'done', 'failed'] as const
export type SchoolMovePhase = (typeof SCHOOL_MOVE_PHASES)[number]

export const schoolMoves = sqliteTable(
  'school_moves',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    fromShard: integer('from_shard').notNull(),
    toShard: integer('to_shard').notNull(),
    phase: text('phase', { enum: SCHOOL_MOVE_PHASES }).notNull(),
    /** Position in the phase's table order. */
    tableIndex: integer('table_index').notNull().default(0),
    /** JSON: the last copied (or verified) row's key in that table; null = from its start. */
    lastKey: text('last_key'),
    /** JSON: rows copied and deleted, counts and checksums per table on both shards, re-copies. */
    progress: text('progress').notNull().default('{}'),
    /** Bumped by every recorded batch: two advancers of one move never both record theirs. */
    step: integer('step').notNull().default(0),
    error: text('error'),
    startedAt: integer('started_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    uniqueIndex('school_moves_one_open').on(t.tenantId).where(sql`finished_at IS NULL`),
    index('school_moves_tenant_idx').on(t.tenantId, t.startedAt),
    index('school_moves_open_idx').on(t.finishedAt, t.startedAt),
  ],
)

/**
 * Issue 27 §5: who did what to a school, when, from where, with the values before and after.
 * Append-only: the model inserts and lists, and triggers (migration 0002) refuse UPDATE and
 * DELETE, a school's deletion included — the record outlives the school. In the control plane so
 * operators read every school's rows in one query; `tenant_id` is 'platform' for actions on no
 * school (an operator account). Never a secret in before/after: the callers pass what is safe.
 */
export const AUDIT_ACTIONS = [
  'school.suspend',
  'school.reactivate',
  'school.fees',
  'withdrawal.paid',
  'payout_account.update',
  'payment_integration.connect',
  'payment_integration.delete',
  'domain.add',
  'domain.remove',
  'webhook.create',
  'operator.forbidden',
  'operator.invite',
  'operator.join',
  'operator.remove',
  'operator.role',
  'operator.two_factor_enrol',
  'operator.recovery_code_used',
  'operator.session_revoke',
  'dead_letter.redeliver',
  'dead_letter.discard',
  'domain.check',
  'school.note',
  'support.sign_in_link',
  'support.view_as_owner',
  'school.export',
  'school.deletion_schedule',
  'school.deletion_cancel',
  'school.delete',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]
export const AUDIT_ACTOR_KINDS = ['operator', 'owner', 'admin', 'system'] as const
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number]

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    actorKind: text('actor_kind', { enum: AUDIT_ACTOR_KINDS }).notNull(),
    actorId: text('actor_id'),
    /** The actor's name and e-mail as they were then: the row stays readable after the account changes. */
    actorLabel: text('actor_label').notNull().default(''),
    action: text('action', { enum: AUDIT_ACTIONS }).notNull(),
    /** What it was done to (a withdrawal id, a hostname, a provider…), for the reader. */
    target: text('target').notNull().default(''),
    ip: text('ip').notNull().default(''),
    /** JSON of the changed fields, or null (created / deleted). */
    before: text('before'),
    after: text('after'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('audit_log_tenant_created_idx').on(t.tenantId, t.createdAt), index('audit_log_created_idx').on(t.createdAt)],
)

/**
 * Issue 27 §4: every message a queue gave up on, consumed from its dead-letter queue into D1 so it
 * never expires unseen (a DLQ keeps messages four days). `body` is the message as it was sent, so
 * a redelivery puts the same job back on its queue; (queue, message_id) makes recording idempotent.
 */
export const DEAD_LETTER_QUEUES = ['events', 'webhook-deliveries', 'invoicing', 'mail', 'mailing'] as const
export type DeadLetterQueue = (typeof DEAD_LETTER_QUEUES)[number]
export const DEAD_LETTER_STATUSES = ['open', 'redelivered', 'discarded'] as const

export const deadLetters = sqliteTable(
  'dead_letters',
  {
    id: text('id').primaryKey(),
    queue: text('queue', { enum: DEAD_LETTER_QUEUES }).notNull(),
    messageId: text('message_id').notNull(),
    /** The school the job was for; '' when the body names none. */
    tenantId: text('tenant_id').notNull().default(''),
    body: text('body').notNull(),
    /** Why it failed, as far as the consumer knows (the job's last error, else "retries exhausted"). */
    reason: text('reason').notNull(),
    attempts: integer('attempts').notNull(),
    status: text('status', { enum: DEAD_LETTER_STATUSES }).notNull().default('open'),
    resolvedBy: text('resolved_by'),
    resolvedAt: integer('resolved_at'),
    discardReason: text('discard_reason'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('dead_letters_message_unique').on(t.queue, t.messageId),
    index('dead_letters_status_idx').on(t.status, t.createdAt),
    index('dead_letters_tenant_idx').on(t.tenantId, t.status),
  ],
)

/** Operators' notes on a school (issue 27 §2), shown on its page; removed with the school. */
export const operatorNotes = sqliteTable(
  'operator_notes',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    operatorId: text('operator_id'),
    authorLabel: text('author_label').notNull(),
    body: text('body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('operator_notes_tenant_idx').on(t.tenantId, t.createdAt)],
)

/** Issue 27 §8: an export of one school's data (JSON per table + its R2 files listed) into R2. */
export const schoolExports = sqliteTable(
  'school_exports',
  {
    id: text('id').primaryKey(),
    tenantId: tenantIdColumn(),
    status: text('status', { enum: ['pending', 'ready', 'failed'] })
      .notNull()
      .default('pending'),
    /** Who asked: an operator or the school's owner, as "Name <e-mail>". */
    requestedBy: text('requested_by').notNull(),
    r2Key: text('r2_key'),
    sizeBytes: integer('size_bytes'),
    error: text('error'),
    createdAt: integer('created_at').notNull(),
    finishedAt: integer('finished_at'),
    expiresAt: integer('expires_at'),
  },
  (t) => [index('school_exports_tenant_idx').on(t.tenantId, t.createdAt)],
)

export type Tenant = typeof tenants.$inferSelect
export type Domain = typeof domains.$inferSelect
export type DomainEvent = typeof domainEvents.$inferSelect
export type Operator = typeof operators.$inferSelect
export type SchoolMove = typeof schoolMoves.$inferSelect
export type AuditEntry = typeof auditLog.$inferSelect
export type DeadLetter = typeof deadLetters.$inferSelect
export type SchoolExport = typeof schoolExports.$inferSelect
export type OperatorNote = typeof operatorNotes.$inferSelect
