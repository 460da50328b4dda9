// A stand-in for a school's webhook endpoint (development and tests; issue 9): the webhooks worker
// POSTs to http://webhooks.dev-peers.internal/webhook-receiver/{inbox} (through the DEV_PEERS
// binding), and the receiver answers as programmed and keeps what it got.
//   POST   /webhook-receiver/{inbox}          a delivery: logged, answered per the inbox's plan
//   PUT    /webhook-receiver/{inbox}/_plan    {"fail": N, "status": 500, "delayMs": 0} → N failures, then 200s;
//                                             {"fail": "always"} → fails forever
//   GET    /webhook-receiver/{inbox}/_log     what it received, oldest first: headers, body, answered status
//   DELETE /webhook-receiver/{inbox}          forget the inbox (plan and log)
import { Hono } from 'hono'
import { z } from 'zod'
import { zodJson } from '../../shared/zod-json.ts'
import type { PeersHono } from './env.ts'

const INBOX = /^[a-z0-9][a-z0-9_-]{0,63}$/i
const BODY_MAX = 64 * 1024
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const planInput = z.object({
  fail: z.union([z.number().int().min(0).max(1000), z.literal('always')]),
  status: z.number().int().min(300).max(599).default(500),
  delayMs: z.number().int().min(0).max(30_000).default(0),
})

type PlanRow = { fail_remaining: number; fail_status: number; delay_ms: number }
type RequestRow = { id: number; headers: string; body: string; status: number; created_at: number }

export const webhookReceiver = new Hono<PeersHono>()

webhookReceiver.use('/:inbox/*', async (c, next) => (INBOX.test(c.req.param('inbox')) ? next() : c.json({ error: 'Bad inbox name' }, 400)))
webhookReceiver.use('/:inbox', async (c, next) => (INBOX.test(c.req.param('inbox')) ? next() : c.json({ error: 'Bad inbox name' }, 400)))

webhookReceiver.post('/:inbox', async (c) => {
  const inbox = c.req.param('inbox')
  const db = c.env.PEERS_DB
  const body = new TextDecoder().decode(await c.req.raw.arrayBuffer()).slice(0, BODY_MAX)
  const plan = await db.prepare('SELECT fail_remaining, fail_status, delay_ms FROM webhook_receiver_plans WHERE inbox = ?').bind(inbox).first<PlanRow>()
  let fails = plan?.fail_remaining === -1
  if (plan && plan.fail_remaining > 0) {
    // One failure used up atomically, so concurrent deliveries each get their own answer.
    const taken = await db.prepare('UPDATE webhook_receiver_plans SET fail_remaining = fail_remaining - 1 WHERE inbox = ? AND fail_remaining > 0 RETURNING inbox').bind(inbox).first()
    fails = !!taken
  }
  if (plan?.delay_ms) await sleep(plan.delay_ms)
  const status = fails ? plan!.fail_status : 200
  const headers = Object.fromEntries([...c.req.raw.headers].filter(([name]) => name !== 'cf-connecting-ip'))
  await db
    .prepare('INSERT INTO webhook_receiver_requests (inbox, headers, body, status, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(inbox, JSON.stringify(headers), body, status, Date.now())
    .run()
  return status === 200 ? c.json({ received: true }) : c.json({ error: 'Programmed failure' }, status as 500)
})

const planJson = zodJson(planInput, (c, problem) => c.json({ error: problem.json ? problem.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : 'Body must be JSON' }, 400))

webhookReceiver.put('/:inbox/_plan', planJson, async (c) => {
  const { fail, status, delayMs } = c.req.valid('json')
  await c.env.PEERS_DB.prepare(
    `INSERT INTO webhook_receiver_plans (inbox, fail_remaining, fail_status, delay_ms, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (inbox) DO UPDATE SET fail_remaining = ?2, fail_status = ?3, delay_ms = ?4, updated_at = ?5`,
  )
    .bind(c.req.param('inbox'), fail === 'always' ? -1 : fail, status, delayMs, Date.now())
    .run()
  return c.json({ inbox: c.req.param('inbox'), fail, status, delayMs })
})

webhookReceiver.get('/:inbox/_log', async (c) => {
  const { results } = await c.env.PEERS_DB.prepare('SELECT * FROM webhook_receiver_requests WHERE inbox = ? ORDER BY id LIMIT 500').bind(c.req.param('inbox')).all<RequestRow>()
  return c.json({
    requests: results.map((r) => ({ id: r.id, headers: JSON.parse(r.headers) as Record<string, string>, body: r.body, status: r.status, receivedAt: r.created_at })),
  })
})

webhookReceiver.delete('/:inbox', async (c) => {
  const inbox = c.req.param('inbox')
  await c.env.PEERS_DB.batch([
    c.env.PEERS_DB.prepare('DELETE FROM webhook_receiver_plans WHERE inbox = ?').bind(inbox),
    c.env.PEERS_DB.prepare('DELETE FROM webhook_receiver_requests WHERE inbox = ?').bind(inbox),
  ])
  return c.body(null, 204)
})
