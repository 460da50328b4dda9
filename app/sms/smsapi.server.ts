// SMSAPI.pl REST client for one thing: sending an SMS (POST https://api.smsapi.pl/sms.do).
// Protocol, from SMSAPI's documentation and its official clients:
//   - `Authorization: Bearer <OAuth token>` (generated in the SMSAPI panel);
//   - application/x-www-form-urlencoded: to, message, from (optional registered sender name),
//     format=json, encoding=utf-8;
//   - success: {count, list: [{id, points, number, date_sent, submitted_number, status, …}]};
//   - failure: {error: <numeric code>, message} — SMSAPI has answered these with HTTP 200 as well
//     as 4xx, so the body decides, not the status. 101/102/103/105 are account problems (not
//     retryable); 201 (internal error), 203 (too many requests) and 5xx/429 are retryable.
import { z } from 'zod'
import { SmsSendError, type FetchFn, type SmsMessage, type SmsReceipt, type SmsSender } from './contract.ts'

const SuccessSchema = z.object({
  count: z.number().int().min(1),
  list: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String), points: z.number().nullable().optional(), status: z.string().optional() })).min(1),
})
const ErrorSchema = z.object({ error: z.union([z.number(), z.string()]), message: z.string().optional() })

const RETRYABLE_CODES = new Set([201, 203, 999])

export class SmsapiClient implements SmsSender {
  private readonly fetch: FetchFn
  private readonly timeoutMs: number

  constructor(private readonly options: { token: string; url: string; sender: string | null; fetch?: FetchFn; timeoutMs?: number }) {
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init))
    this.timeoutMs = options.timeoutMs ?? 10_000
  }

  async send({ to, text }: SmsMessage): Promise<SmsReceipt> {
    const body = new URLSearchParams({ to: to.replace(/^\+/, ''), message: text, format: 'json', encoding: 'utf-8' })
    if (this.options.sender) body.set('from', this.options.sender)
    let res: Response
    try {
      res = await this.fetch(this.options.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.options.token}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: body.toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      })
    } catch (error) {
      throw new SmsSendError(`SMSAPI unreachable: ${(error as Error)?.name ?? 'Error'}`, null, null, true)
    }
    const raw = await res.text()
    let json: unknown = null
    try {
      json = JSON.parse(raw)
    } catch {
      /* handled below */
    }
    const failure = ErrorSchema.safeParse(json)
    if (failure.success) {
      const code = typeof failure.data.error === 'string' && /^\d+$/.test(failure.data.error) ? Number(failure.data.error) : failure.data.error
      const retryable = res.status === 429 || res.status >= 500 || (typeof code === 'number' && RETRYABLE_CODES.has(code))
      throw new SmsSendError(`SMSAPI error ${code}: ${failure.data.message ?? ''}`.trim(), code, res.status, retryable)
    }
    if (!res.ok) throw new SmsSendError(`SMSAPI HTTP ${res.status}`, null, res.status, res.status === 429 || res.status >= 500)
    const ok = SuccessSchema.safeParse(json)
    if (!ok.success) throw new SmsSendError('SMSAPI answered something that is not a send result', null, res.status, true)
    const first = ok.data.list[0]
    return { id: first.id, points: first.points ?? null }
  }
}
