// The browser side of the comment calls (seed 000 §7): every call carries the XMLHttpRequest
// header (the server answers JSON, and 419 rather than a login redirect), and the answer is
// turned into what the box shows (seed 000 §8): toasts for 401, 419 (then /login), 422, other.
import type { ErrorAnswer } from './contract.ts'

export type CallResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; data: ErrorAnswer }

export async function callComments<T>(url: string, { method = 'POST', body }: { method?: string; body?: Record<string, unknown> | FormData } = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' }
  let payload: BodyInit | undefined
  if (body instanceof FormData) payload = body
  else if (body) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  let response: Response
  try {
    response = await fetch(url, { method, headers, body: payload, credentials: 'same-origin' })
  } catch (error) {
    console.error('comments: network error', error)
    return { ok: false, status: 0, data: {} }
  }
  const data = (await response.json().catch(() => ({}))) as unknown
  if (response.ok) return { ok: true, status: response.status, data: data as T }
  return { ok: false, status: response.status, data: (data && typeof data === 'object' ? data : {}) as ErrorAnswer }
}

/** First server message for a field (errors.body[0]), else the answer's message. */
export function firstError(data: ErrorAnswer, field: string): string | null {
  const list = data.errors?.[field]
  if (Array.isArray(list) && typeof list[0] === 'string') return list[0]
  return typeof data.message === 'string' ? data.message : null
}

/** '@Name ' — a reply starts with a mention of the author it answers (seed 000 §5). */
export function mentionOf(name: string) {
  const clean = name.trim()
  return clean ? `@${clean} ` : ''
}

/** Seed 000 §5: Send is shown when there is text, enabled from 2 characters (trimmed). */
export function sendState(text: string, min = 2): 'hidden' | 'disabled' | 'enabled' {
  if (text.length === 0) return 'hidden'
  return text.trim().length < min ? 'disabled' : 'enabled'
}
