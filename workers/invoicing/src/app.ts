// HTTP surface of the invoicing worker: a health check and nothing else.
import { Hono } from 'hono'
import type { InvoicingWorkerEnv } from './env.ts'

const health = new Hono<{ Bindings: InvoicingWorkerEnv }>().get('/', (c) => c.json({ ok: true }))

export const invoicingApp = new Hono<{ Bindings: InvoicingWorkerEnv }>()
invoicingApp.route('/health', health)
invoicingApp.notFound((c) => c.body(null, 404))
