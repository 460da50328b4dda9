// Cross-tenant registry of the webhooks area (issue 9 item 1): the owner's webhook page and its
// actions (the delivery id of "redeliver" travels in the form body).
import { env } from 'cloudflare:workers'
import { createWebhook, scheduleTestDelivery } from '#app/models/webhook.server.ts'
import { dbOf } from '#tests/factories.ts'
import type { IdRouteProbe, VictimSchool } from '../cross-tenant-routes.ts'

export const routes: Record<string, IdRouteProbe[]> = {
  'home_.webhooks.$webhookId': [
    { method: 'GET', path: (v) => `/home/webhooks/${v.webhookId}`, control: { status: 302 } },
    { method: 'POST', path: (v) => `/home/webhooks/${v.webhookId}`, form: { intent: 'test' } },
    // The delivery id is the victim's too, but a form body cannot refer to it: any id does, the webhook id 404s first.
    { method: 'POST', path: (v) => `/home/webhooks/${v.webhookId}`, form: { intent: 'redeliver', deliveryId: 'victim-delivery' } },
    { method: 'POST', path: (v) => `/home/webhooks/${v.webhookId}`, form: { intent: 'disable' } },
    { method: 'POST', path: (v) => `/home/webhooks/${v.webhookId}`, form: { intent: 'delete', confirm: 'DELETE' } },
  ],
}

/** A webhook of the victim school with one (pending) delivery. */
export async function victims(school: VictimSchool): Promise<Record<string, string>> {
  const created = await createWebhook(dbOf(school.tenantId), (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY, school.tenantId, { event: 'student.paid', url: `https://hooks.example.com/victim-${crypto.randomUUID().slice(0, 8)}` })
  if (!created.ok) throw new Error('victim webhook')
  const { delivery } = await scheduleTestDelivery(dbOf(school.tenantId), undefined, school.tenantId, created.webhook)
  return { webhookId: created.webhook.id, webhookDeliveryId: delivery.id }
}
