// HTTP surface of the mail worker: a health check and nothing else.
import { Hono } from 'hono'
import type { MailWorkerEnv } from './env.ts'

const health = new Hono<{ Bindings: MailWorkerEnv }>().get('/', (c) => c.json({ ok: true }))

export const mailApp = new Hono<{ Bindings: MailWorkerEnv }>()
mailApp.route('/health', health)
mailApp.notFound((c) => c.body(null, 404))
