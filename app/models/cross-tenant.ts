// The deliberate cross-tenant queries (issue 20, ADR 025): every other statement on a tenant-owned
// table is bound with ofTenant/sameTenant (./tenant-scope.server.ts). A function listed here may
// read or write rows of several schools, or find the school from something other than its id;
// scripts/check-tenant-scope.mjs fails on a bypass anywhere else, on an entry whose function is
// gone, and on an entry whose function no longer needs it. Key: '<file>#<function>'; value: why.
export const CROSS_TENANT: Record<string, string> = {
  // Routing: the request names a hostname, not a school.
  'app/models/audit-log.server.ts#listAllAudit': "operator console: every school's audit rows (issue 27 §5)",
  'app/models/school-move.server.ts#getSchoolMove': 'the move id names the school (operator action, cron)',
  'app/models/school-move.server.ts#listOpenSchoolMoves': "cron: every school's unfinished move",
  'app/models/tenant.server.ts#getTenantByCustomHostnameForRouting': 'routing: the school is found from the custom hostname of the request',

  // Custom domains: a hostname belongs to at most one school, so claims are decided across schools.
  'app/models/domain.server.ts#findDomainByHostname': 'hostname claims: the row holding a hostname, whichever school it is',
  'app/models/domain.server.ts#isHostnameTakenFor': "hostname claims: this school's rows or any school's row for the hostname",
  'app/models/domain.server.ts#countOtherClaims': 'hostname claims: the other rows standing for the hostname, any school',
  'app/models/domain.server.ts#claimHostname': "hostname claims: the claim batch re-keys the losing holder's row of another school",
  'app/models/domain.server.ts#listDueDomainsAcrossTenants': "cron (domains worker): every school's domains whose check is due",
  'app/models/domain.server.ts#listUnfinishedCustomDomainsForDevTools': 'development tools only: custom domains of every school still being set up',

  // Provider callbacks and links: a signed provider id or an unguessable token names the row, the row names the school.
  'app/models/transaction.server.ts#findTenantOfPlatformSale': "payments webhook on the platform host: the provider's signed reference names the sale and its school",
  'app/models/membership.server.ts#findTenantOfPlatformSubscription': "payments webhook on the platform host: the provider's subscription id names the membership and its school",
  'app/models/payout-account.server.ts#findTenantOfPayoutAccount': "payout webhook on the platform host: the provider's signed account id names the school",
  'app/models/video.server.ts#findVideoByBunnyId': 'Bunny webhook: carries only the library and video ids; the row names the school',
  'app/models/signup-confirmation.server.ts#peekSignupConfirmation': 'signup link on the platform host: the unguessable token (stored hashed) names the new school',
  'app/models/signup-confirmation.server.ts#consumeSignupConfirmation': 'signup link on the platform host: the unguessable token (stored hashed) names the new school',
  'app/models/login-throttle.server.ts#lockedSecondsAny': "login throttle: one read over several throttle scopes (a school's and the platform's), each or-branch bound to its own scope",

  // The platform's "Log in to your school" (issue 23 §6): an e-mail address typed on the platform host names accounts in any school.
  'app/models/user.server.ts#listAccountsByEmailForPlatformLogin': "platform login: the address's accounts in every school, answered only by e-mail to that address (the page says the same whatever is found)",

  // Crons and sweeps: they list rows of every school, then handle each through the tenant-bound functions.
  'app/models/app-event.server.ts#listTenantsWithUnsentEvents': 'cron sweep: schools whose events never reached the queues',
  'app/models/community.server.ts#listDueDigestsAcrossTenants': "cron: every school's topic subscriptions whose hourly digest e-mail is due",
  'app/models/email-outbox.server.ts#listStrandedQueuedEmailsAcrossTenants': 'cron sweep (mail worker): queued mail of every school that never reached the queue',
  'app/models/media.server.ts#listAbandonedUploadsAcrossTenants': 'cron sweep (media worker): abandoned uploads of every school',
  'app/models/video.server.ts#listUnsettledVideosAcrossTenants': 'cron sweep: videos of every school stuck before ready (a lost webhook)',
  'app/models/video.server.ts#listAbandonedVideosAcrossTenants': 'cron sweep: abandoned video uploads of every school',
  'app/models/webhook.server.ts#listStrandedDeliveriesAcrossTenants': 'cron sweep (webhooks worker): pending deliveries of every school the queue never saw',
  'app/models/membership-lifecycle.server.ts#listDueMemberships':
    "cron: every school's memberships due for a scheduled charge (narrowed to one school or membership in tests and the development trigger)",
  'app/models/membership-lifecycle.server.ts#endFinishedMemberships': "cron: ends every school's memberships whose paid period is over (narrowed like listDueMemberships)",
  'app/models/transaction.server.ts#listTransactionsToRecheck': 'cron: pending transactions of every school to ask the provider about',
  'app/models/payout-account.server.ts#listPayoutAccountsToRecheck': 'cron: payout accounts of every school still onboarding at a provider that never calls back',
  'app/models/fee-statement.server.ts#listStatementsDue': "cron: the month's school-collected sales of every school without a fee statement",
  'app/models/fee-statement.server.ts#listUnemailedFeeStatements': 'cron: fee statements of every school written but never e-mailed',
  'app/models/fee-statement.server.ts#listFeeStatementsToInvoice': 'cron: fee statements of every school still to be invoiced by the platform',

  // Operator console and development tools: platform staff see every school.
  'app/models/balance.server.ts#balancesOf': "balances of the given schools (one for a school's own page, many for the operator's list), bound by inArray(tenantId, …)",
  'app/models/balance.server.ts#listMismatchesForOperator': 'operator console: provider mismatches of every school, or of one when filtered',
  'app/models/withdrawal.server.ts#listWithdrawalsForOperator': 'operator console: withdrawal requests of every school',
  'app/models/withdrawal.server.ts#markWithdrawalPaid': 'operator console: the operator marks a withdrawal paid by its id',
  'app/models/school-export.server.ts#listExportsToSweep': "cron: every school's exports left pending by a killed run or past their expiry (issue 27 §8)",
  'app/models/dead-letter.server.ts#listDeadLettersForOperator': "operator console: every school's dead letters, or one school's when filtered (issue 27 §4)",
  'app/models/dead-letter.server.ts#countOpenDeadLettersByQueue': 'operator console: open dead letters per queue across schools (dashboard)',
  'app/models/platform-stats.server.ts#platformSalesOfShard': 'operator dashboard: sales, GMV and fees across every school on one shard (issue 27 §1)',
  'app/models/platform-stats.server.ts#queueBacklogOfShard': 'operator dashboard: what waits in D1 per queue across every school on one shard',
  'app/models/platform-stats.server.ts#recentErrorsOfShard': 'operator dashboard: recorded failures by kind across every school on one shard',
  'app/models/platform-stats.server.ts#recentControlErrors': 'operator dashboard: failures recorded in the control plane across every school',
  'app/models/platform-stats.server.ts#failingDomainsForOperator': "operator dashboard: every school's failing custom domains",
  'app/models/platform-stats.server.ts#listDomainsForOperator': "operator console: every school's custom domains (issue 27 §3)",
  'app/models/platform-stats.server.ts#getDomainForOperator': '"check again" names the domain by id; the row names its school',
  'app/models/email-outbox.server.ts#listOutboxForDevViewer': "development tools only: the mail viewer lists every school's outbox",
  'app/models/email-outbox.server.ts#getOutboxForDevViewer': 'development tools only: one outbox row by id',
}
