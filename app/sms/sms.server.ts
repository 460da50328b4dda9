// Sending an SMS, behind one small interface (login verification codes, issue 7). The only
// provider today is SMSAPI.pl (smsapi.server.ts); in development and tests its requests go to the
// local peer in workers/dev-peers through the DEV_PEERS binding, whatever host SMSAPI_URL names.
import { isDevelopment, type Env } from '#app/utils/env.server.ts'
import type { FetchFn, SmsSender } from './contract.ts'
import { SmsapiClient } from './smsapi.server.ts'

export { SmsSendError, type SmsMessage, type SmsReceipt, type SmsSender } from './contract.ts'

/** Variables of the app worker the SMS adapter reads (wrangler.toml [vars], secret SMSAPI_TOKEN). */
export type SmsEnv = Pick<Env, 'ENVIRONMENT' | 'DEV_PEERS' | 'SMSAPI_TOKEN' | 'SMSAPI_URL' | 'SMS_SENDER'>

export const SMSAPI_DEFAULT_URL = 'https://api.smsapi.pl/sms.do'

/** The configured sender, or null when SMS is not configured (no token). */
export function getSmsSender(env: SmsEnv, deps: { fetch?: FetchFn; timeoutMs?: number } = {}): SmsSender | null {
  if (!env.SMSAPI_TOKEN) return null
  const peers = isDevelopment(env) && env.DEV_PEERS ? env.DEV_PEERS : null
  const fetch: FetchFn | undefined = deps.fetch ?? (peers ? (input, init) => peers.fetch(input, init as RequestInit<CfProperties>) : undefined)
  return new SmsapiClient({ token: env.SMSAPI_TOKEN, url: env.SMSAPI_URL || SMSAPI_DEFAULT_URL, sender: env.SMS_SENDER || null, fetch, timeoutMs: deps.timeoutMs })
}
