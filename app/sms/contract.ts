// What every SMS provider adapter offers (sms.server.ts picks the configured one).

export type SmsMessage = {
  /** E.164 without formatting: digits with the country code, an optional leading +. */
  to: string
  text: string
}

export type SmsReceipt = { id: string; points: number | null }

export interface SmsSender {
  send(message: SmsMessage): Promise<SmsReceipt>
}

/**
 * The provider refused or could not be reached. `code` is the provider's own error code when it
 * sent one; `retryable` says whether trying later may help (rate limits, outages, timeouts).
 */
export class SmsSendError extends Error {
  constructor(
    message: string,
    readonly code: string | number | null,
    readonly status: number | null,
    readonly retryable: boolean,
  ) {
    super(message)
    this.name = 'SmsSendError'
  }
}

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>
