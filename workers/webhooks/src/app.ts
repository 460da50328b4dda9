// HTTP surface of the webhooks worker: a health check and nothing else.
import { Hono } from 'hono'
import type { WebhooksWorkerEnv } from './env.ts'

const health = new Hono<{ Bindings: WebhooksWorkerEnv }>().get('/', (c) => c.json({ ok: true }))

export const webhooksApp = new Hono<{ Bindings: WebhooksWorkerEnv }>()
webhooksApp.route('/health', health)
webhooksApp.notFound((c) => c.body(null, 404))
