// Which runtime each test file runs in: the cheapest one that can run it (docs/testing.md).
//   node     pure code: no D1, no Workers API, no WebCrypto/scrypt (plain Node)
//   units    workerd with the app's bindings (real D1 with the migrations, queues) and its
//            auxiliary workers (dev peers, domains, media), without evaluating the app bundle:
//            model functions, crypto, adapters against their peers
//   app      workerd with the built app worker, its auxiliary workers and the Bunny peer: routes,
//            flows, the cross-tenant matrix
// A file listed nowhere runs in `app`, the tier that can run anything: moving a file down a tier
// is a choice made here, never an accident.

/** Pure code, plain Node. */
export const NODE_TESTS = [
  'tests/layers.test.ts',
  'tests/tenant-scope.test.ts',
  'tests/route-matching-memo.test.ts',
  'app/checkout/checkout.server.test.ts',
  'app/comments/client.test.ts',
  'app/auth/school-slug.test.ts',
  'app/components/user-avatar.test.ts',
  'app/domains/hostname.test.ts',
  'app/domains/lifecycle.server.test.ts',
  'app/i18n/i18n.test.ts',
  'app/invoicing/invoice-content.test.ts',
  'app/domain/upload-policy.test.ts',
  'app/media/svg-safety.test.ts',
  'app/domain/video-policy.test.ts',
  'app/domain/video-state.test.ts',
  'app/models/fee-settings.server.test.ts',
  'app/models/balance-accounts.server.test.ts',
  'app/models/student-panel.server.test.ts',
  'app/membership/membership-billing.server.test.ts',
  'app/payments/payment-mode.server.test.ts',
  'app/domain/payment-failure.test.ts',
  'app/domain/payment-confirm.test.ts',
  'app/payments/pricing.test.ts',
  'app/player/gate.test.ts',
  'app/player/quiz.test.ts',
  'app/storefront/lead-submission.server.test.ts',
  'app/storefront/loader-cache.server.test.ts',
  'app/storefront/product-price.test.ts',
  'app/storefront/recent-searches.test.ts',
  'app/domain/seo.test.ts',
  'app/domain/community-post.test.ts',
  'app/storefront/widgets/*.test.ts',
  'app/utils/csv.test.ts',
  'app/utils/flash.server.test.ts',
  'app/utils/markdown.test.ts',
  'app/utils/money.test.ts',
  'app/utils/page-cache.server.test.ts',
  'app/utils/school-origin.server.test.ts',
  'app/utils/security.server.test.ts',
  'app/utils/validation.test.ts',
  'app/webhooks/delivery-outcome.test.ts',
  'app/webhooks/target.test.ts',
  // Node-side tooling (local protocol peers, the demo seed): they listen on sockets and drive Node clients.
  'scripts/**/*.test.ts',
  // Issue 24: pure rules (grading, shipping transitions, time zones, certificate dates) and the PDF read back with pdfjs.
  'app/exams/grading.test.ts',
  'app/shipping/shipping-rules.test.ts',
  'app/domain/school-time-zone.test.ts',
  'app/certificates/certificate-dates.test.ts',
  'app/certificates/pdf.server.test.ts',
]

/** workerd + D1 + dev peers, no app bundle. */
export const UNIT_TESTS = [
  'app/models/**/*.test.ts',
  // Moving a school between shards (ADR 033): model functions over both shards, no app bundle.
  'app/shards/**/*.test.ts',
  'app/db/**/*.test.ts',
  // WebCrypto / scrypt: exercised in the runtime that runs them in production.
  'app/media/bunny.server.test.ts',
  'app/media/sigv4.server.test.ts',
  'app/payments/card.test.ts',
  'app/utils/password.server.test.ts',
  'app/utils/secret-box.server.test.ts',
  'app/community/unsubscribe-token.server.test.ts',
  'app/utils/session-token.server.test.ts',
  'app/webhooks/signature.test.ts',
  // Adapters against their local peers (DEV_PEERS).
  'app/domains/custom-hostnames.server.test.ts',
  'app/domains/doh.server.test.ts',
  'app/invoicing/adapters.test.ts',
  'app/mailing/mailchimp.server.test.ts',
  'app/payments/provider-check.server.test.ts',
  'app/payments/fee-statements.server.test.ts',
  'app/payments/stripe.server.test.ts',
  'app/sms/smsapi.server.test.ts',
  'app/domains/site.server.test.ts',
  'tests/integration/block-context.test.ts',
  'app/exams/attempts.server.test.ts',
  'app/affiliates/affiliates.server.test.ts',
  // Issue 25: each provider module's adapter against its peer, the shared provider contract, the company registers.
  'app/payments/providers/**/*.test.ts',
  'app/payments/payu-contract.server.test.ts',
  'app/checkout/company-lookup/**/*.test.ts',
]

/** Everything else of the app: routes and flows through the built worker. */
export const APP_TESTS = ['app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts']
