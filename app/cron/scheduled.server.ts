// The app worker's cron (wrangler.toml [triggers], every 5 minutes), loaded by server.ts on the
// first run only: its jobs reach most of the payments, billing and mail code, which the request
// path does not need at an isolate's start. In order: membership renewals due, pending
// transactions re-checked with their providers (ADR 023), last month's fee statements, PayU
// Marketplace registrations, community digests, school moves, then school deletions and exports.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { sendDueCommunityDigests } from '#app/community/topic-mail.server.ts'
import { controlDb, noShard } from '#app/db/shards.server.ts'
import { runScheduledBilling } from '#app/membership/membership-billing.server.ts'
import { runMonthlyFeeStatements } from '#app/payments/fee-statements.server.ts'
import { recheckPayuRegistrations } from '#app/payments/marketplace.server.ts'
import { recheckPendingTransactions } from '#app/payments/pending-check.server.ts'
import { runSchoolDataCron } from '#app/schools/delete-school.server.ts'
import { advanceAllSchoolMoves, settleMsOf } from '#app/shards/move-school.server.ts'
import type { Env } from '#app/utils/env.server.ts'

export async function runScheduledJobs(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  // Awaited (not waitUntil): the invocation lasts as long as the run. Number(): a Date in test triggers.
  const now = Number(controller.scheduledTime) || Date.now()
  await runScheduledBilling(env, now)
  const pending = await recheckPendingTransactions(env, ctx, now)
  console.log(JSON.stringify({ event: 'pending_recheck', ...pending }))
  // Last month's fee statements in the first days of a month (idempotent; app/payments/fee-statements.server.ts).
  const statements = await runMonthlyFeeStatements(env, now)
  if (statements) console.log(JSON.stringify({ event: 'fee_statements', ...statements }))
  // PayU Marketplace registrations still being verified (PayU tells no one when it is done).
  const payu = await recheckPayuRegistrations({ cloudflare: { env, ctx }, db: noShard(), control: controlDb(env), site: { kind: 'platform' }, memo: new Map() } as unknown as AppLoadContext, now)
  if (payu.checked) console.log(JSON.stringify({ event: 'payu_registrations_recheck', ...payu }))
  // Community topic digests whose hour is up (issue 22 item 6).
  const digests = await sendDueCommunityDigests(env, now)
  if (digests.due) console.log(JSON.stringify({ event: 'community_digests', ...digests }))
  // Schools moving between shards (ADR 033): each run takes every open move a bounded step further.
  const moves = await advanceAllSchoolMoves(env, { maxBatches: 50, batchSize: 100, settleMs: settleMsOf(env) })
  if (moves.length) console.log(JSON.stringify({ event: 'school_moves', moves }))
  // Schools past their 14-day deletion grace (issue 27 §8), stale exports re-run, expired ones removed.
  const schoolData = await runSchoolDataCron(env, now)
  if (schoolData.deletions.length || schoolData.exports.rerun || schoolData.exports.expired) console.log(JSON.stringify({ event: 'school_data', ...schoolData }))
}
