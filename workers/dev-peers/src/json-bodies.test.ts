// The peers' JSON preambles (zodJson, workers/shared): PayU's bearer check before its body check,
// ERROR_SYNTAX / ERROR_VALUE_* in PayU's words, and the control APIs' own 400s.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'

const peersEnv = env as unknown as PeersEnv
const call = (path: string, init: RequestInit = {}) => peersApp.request(`http://dev-peers.internal${path}`, init, peersEnv)
const post = (path: string, body: string, headers: Record<string, string> = {}) => call(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body })
const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown })

async function payuToken() {
  const res = await call('/payu/pl/standard/user/oauth/authorize', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: peersEnv.PEER_PAYU_CLIENT_ID, client_secret: peersEnv.PEER_PAYU_CLIENT_SECRET }).toString(),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

describe('PayU REST preamble', () => {
  it('checks the token before the body', async () => {
    expect(await answer(await post('/payu/api/v2_1/orders', 'not json'))).toEqual({ status: 401, body: { status: { statusCode: 'UNAUTHORIZED', statusDesc: 'Invalid or expired access token' } } })
  })

  it('answers a body that is not JSON with ERROR_SYNTAX, a missing or invalid field with 8300 / 8301', async () => {
    const auth = { Authorization: `Bearer ${await payuToken()}` }
    expect(await answer(await post('/payu/api/v2_1/orders', '{"oops', auth))).toEqual({ status: 400, body: { status: { statusCode: 'ERROR_SYNTAX', statusDesc: 'Bad syntax' } } })
    expect(await answer(await post('/payu/api/v2_1/orders/ANY/refunds', JSON.stringify({}), auth))).toEqual({
      status: 400,
      body: { status: { statusCode: 'ERROR_VALUE_MISSING', code: '8300', codeLiteral: 'ERROR_VALUE_MISSING', statusDesc: 'Missing value: refund' } },
    })
    expect(await answer(await post('/payu/api/v2_1/orders/ANY/refunds', JSON.stringify({ refund: { description: '' } }), auth))).toEqual({
      status: 400,
      body: { status: { statusCode: 'ERROR_VALUE_INVALID', code: '8301', codeLiteral: 'ERROR_VALUE_INVALID', statusDesc: 'Invalid value: refund.description' } },
    })
  })
})

describe('control APIs', () => {
  it('answer a body that is not JSON or does not fit with their own 400', async () => {
    expect(await answer(await post('/_peer/invoicing/faults', JSON.stringify({ system: 'fakturownia', count: 1 })))).toEqual({ status: 400, body: { error: 'system, count, status' } })
    expect(await answer(await post('/_peer/invoicing/accounts', 'nope'))).toEqual({ status: 400, body: { error: 'system, login, secret' } })
    expect(await answer(await post('/mailchimp/_peer/faults', JSON.stringify({ status: 404 })))).toEqual({ status: 400, body: { error: 'Send {count, status: 429|500|503}.' } })
    expect(await answer(await post('/mailchimp/_peer/lists', ''))).toEqual({ status: 400, body: { error: 'Send {id, apiKey, name, tags[]}.' } })
    expect(await answer(await call('/webhook-receiver/inbox-x/_plan', { method: 'PUT', body: 'nope' }))).toEqual({ status: 400, body: { error: 'Body must be JSON' } })
  })
})
