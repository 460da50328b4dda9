import type { WebhookDeliveryJob } from '#app/models/webhook.server.ts'
import type { CommunityFeed } from '#app/community/live-feed.server.ts'

export interface MailJob {
  outboxId: string
  tenantId: string
}

/** A domain event on the coursefront-events queue (app_events row id; consumers deduplicate by it). */
export interface AppEventJob {
  eventId: string
  tenantId: string
  type: 'student.paid' | 'student.registered'
}

/** Subscribe someone to the school's mailing list: who is read from D1 by the subject's id. */
export interface MailingJob {
  tenantId: string
  source: 'buyer' | 'lead'
  /** The transaction id (buyer) or the lead id (lead). */
  subjectId: string
}

/** Bindings and vars of the app worker (wrangler.toml). */
export interface Env {
  /** The control plane (ADR 033): tenants, domains, operators, platform tables. */
  DB: D1Database
  /** Tenant data: DB_SHARD_0 … DB_SHARD_{N-1}, picked only by app/db/shards.server.ts. */
  [shard: `DB_SHARD_${number}`]: D1Database | undefined
  MEDIA: R2Bucket
  MAIL_QUEUE: Queue<MailJob>
  /** Domain events for the webhooks and invoicing workers (ADR 019). */
  EVENTS_QUEUE?: Queue<AppEventJob>
  /** Completed sales for the invoicing worker (ADR 020). */
  INVOICING_QUEUE?: Queue<AppEventJob>
  /** Mailing-list subscriptions for the mail worker (issue 9; MailingJob). */
  MAILING_QUEUE?: Queue<MailingJob>
  ASSETS?: Fetcher
  /** The domains worker (custom domain lifecycle). */
  DOMAINS?: Fetcher
  /** The media worker (image uploads, public serving of media.{PLATFORM_HOST}; app/media/contract.ts). */
  MEDIA_WORKER?: Fetcher
  /** Public origin of served images, e.g. https://media.coursefront.com (app/media/origins.server.ts). */
  MEDIA_ORIGIN?: string
  /** Origin browsers PUT presigned uploads to (R2's S3 API; in development the S3 peer). */
  S3_ENDPOINT?: string
  /** Development only: local DNS-over-HTTPS, Cloudflare API and S3 peers (workers/dev-peers). */
  DEV_PEERS?: Fetcher
  /**
   * Development only: origin of the local Bunny Stream peer (scripts/peers/bunny-stream-peer.ts).
   * Sent to the media worker (its port may differ per run) and allowed by the CSP.
   */
  BUNNY_PEER_ORIGIN?: string
  PLATFORM_HOST: string
  /**
   * development | test | production (any other value is treated as production: every dev-only
   * surface — /dev/*, the dev peers, pay.{host} forwarding, test payments without
   * ALLOW_TEST_PAYMENTS — is closed).
   */
  ENVIRONMENT: string
  /**
   * Development and tests only: the port the local stack serves on, for links in e-mails
   * (app/utils/school-origin.server.ts). Never read from a request; ignored in production.
   */
  PUBLIC_PORT?: string
  /** 'off' turns the edge page cache off (ADR 015); anything else leaves it on. */
  PAGE_CACHE?: string
  /** How long a school move waits for every isolate's tenant cache (ADR 033); 90 s unless set (ms). */
  SHARD_MOVE_SETTLE_MS?: string
  MAIL_TRANSPORT: string
  MAIL_FROM: string
  RESEND_API_KEY?: string
  RESEND_API_URL?: string
  /** SMS codes for login verification (app/sms): SMSAPI.pl token (a secret), endpoint, sender name. */
  SMSAPI_TOKEN?: string
  SMSAPI_URL?: string
  SMS_SENDER?: string
  /** Payments (issue 8, ADR 019). Base64 of 32 bytes: seals integration credentials (app/utils/secret-box.server.ts). A secret in production. */
  INTEGRATIONS_KEY?: string
  /** HMAC key of the built-in test payment provider's notifications (development, tests and a staging deployment that allows test payments). */
  TEST_PAYMENTS_SECRET?: string
  /**
   * "true" only on a staging deployment: production then still takes the test provider, PayU sandbox
   * credentials and Stripe test keys (app/payments/payment-mode.server.ts). Unset in production.
   */
  ALLOW_TEST_PAYMENTS?: string
  /** Where the PayU and Stripe adapters send API calls: unset = the real APIs; development = the dev peers (through DEV_PEERS). */
  PAYU_API_URL?: string
  STRIPE_API_URL?: string
  /** Issue 25: the same for Przelewy24, Tpay, PayPal, Braintree, Paylane, GUS BIR and VIES (app/payments/providers/provider-context.server.ts). */
  P24_API_URL?: string
  TPAY_API_URL?: string
  PAYPAL_API_URL?: string
  BRAINTREE_API_URL?: string
  PAYLANE_API_URL?: string
  GUS_API_URL?: string
  VIES_API_URL?: string
  /** Tpay's JWS root certificates (PEM) its notification signatures must chain to: production and sandbox (https://secure.tpay.com/x509/tpay-jws-root.pem). Unset in development: the dev peer's CA. */
  TPAY_JWS_ROOT_PEM?: string
  TPAY_SANDBOX_JWS_ROOT_PEM?: string
  /** GUS BIR 1.1 API key (the public test key in development). */
  GUS_API_KEY?: string
  /**
   * The platform's own provider accounts (issue 18, ADR 023): Stripe Connect (its secret key; the
   * webhook endpoints are created through the API and kept in platform_webhooks) and PayU
   * Marketplace (the marketplace POS). Secrets in production; unset = not offered.
   */
  PLATFORM_STRIPE_SECRET_KEY?: string
  PLATFORM_PAYU_POS_ID?: string
  PLATFORM_PAYU_CLIENT_ID?: string
  PLATFORM_PAYU_CLIENT_SECRET?: string
  PLATFORM_PAYU_SECOND_KEY?: string
  /** "true": the marketplace POS is a PayU sandbox one (refused where test payments are not allowed). */
  PLATFORM_PAYU_SANDBOX?: string
  /** Where a school registers as PayU Marketplace submerchant (`?extCustomerId=…&continueUrl=…` appended); development = the PayU peer. */
  PLATFORM_PAYU_REGISTRATION_URL?: string
  /**
   * The platform's own invoicing of its monthly fee statements (app/payments/fee-statements.server.ts):
   * fakturownia | infakt | ifirma, that system's credentials as JSON (a secret), the VAT rate on the
   * fee line (default 23; "zw" exempt). Unset = statements are kept and e-mailed, not invoiced.
   */
  PLATFORM_INVOICING_PROVIDER?: string
  PLATFORM_INVOICING_CREDENTIALS?: string
  PLATFORM_INVOICING_VAT_RATE?: string
  /** Mailchimp Marketing API base; `{dc}` is replaced by the key's data centre. Unset = the real API; development = the Mailchimp peer. */
  MAILCHIMP_API_URL?: string
  /** Private RSA JWK (JSON) that opens stored card data for scheduled membership charges (app/payments/card-vault.server.ts). A secret in production. */
  CARD_VAULT_KEY?: string
  /** Test events and redeliveries of creators' webhooks for the webhooks worker (issue 9, docs/webhooks.md). */
  WEBHOOK_DELIVERIES_QUEUE?: Queue<WebhookDeliveryJob>
  /** The live topic feed: one Durable Object per school fans change hints out to open feed sockets (issue 22, ADR 029). Unset = no live updates (the bench harness). */
  COMMUNITY_FEED?: DurableObjectNamespace<CommunityFeed>
}

/** Only the two known dev values: an unknown, misspelt or empty ENVIRONMENT fails closed. */
export function isDevelopment(env: Pick<Env, 'ENVIRONMENT'>) {
  return env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'test'
}
