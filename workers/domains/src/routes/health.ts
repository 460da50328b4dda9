import { Hono } from 'hono'
import type { DomainsWorkerEnv } from '../env.ts'

export const health = new Hono<{ Bindings: DomainsWorkerEnv }>().get('/', (c) => c.json({ ok: true }))
