// What the /home/webhooks pages share: the form schema (target rules of target.ts as field
// errors) and the queue "send test event" and "redeliver" put deliveries on.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { z } from 'zod'
import { WEBHOOK_EVENTS } from '#app/db/schema.server.ts'
import { msg } from '#app/utils/validation.ts'
import { checkWebhookTarget, isProductionEnvironment, WEBHOOK_URL_MAX } from './target.ts'

/** The producer binding of coursefront-webhook-deliveries (wrangler.toml WEBHOOK_DELIVERIES_QUEUE). */
export function deliveriesQueue(context: AppLoadContext) {
  return context.cloudflare.env.WEBHOOK_DELIVERIES_QUEUE
}

/** New webhook: an event of seed 001 §7 and a target the environment allows (stored normalised). */
export function createWebhookSchema(context: AppLoadContext) {
  const production = isProductionEnvironment(context.cloudflare.env.ENVIRONMENT)
  return z.object({
    event: z.enum(WEBHOOK_EVENTS),
    url: z
      .string()
      .trim()
      .min(1)
      .max(WEBHOOK_URL_MAX)
      .transform((raw, ctx) => {
        const checked = checkWebhookTarget(raw, { production })
        if (checked.ok) return checked.url.toString()
        ctx.addIssue({ code: 'custom', message: msg(`webhooks.error.url_${checked.reason}`) })
        return z.NEVER
      }),
  })
}
