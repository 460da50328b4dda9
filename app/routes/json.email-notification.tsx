// POST /json/email-notification {topic, action} (seed 000 §7, §3 "User email notification
// setting: community_topics, a map of subscribed topics"): subscribe (action true) or unsubscribe
// the caller to a topic they may read. Answers the whole map.
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { readFields } from '#app/comments/api.server.ts'
import { json, notFoundJson, requireCaller } from '#app/community/api.server.ts'
import { getTopic, readableTopic, setTopicSubscription, subscribedTopicIds } from '#app/models/community.server.ts'
import { actionOnlyLoader, requireSchool } from '#app/utils/request.server.ts'

export const SubscriptionSchema = z.object({
  topic: z.string().trim().min(1).max(64),
  action: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return json({ message: 'Method Not Allowed' }, 405)
  const fields = (await readFields(request))?.fields ?? {}
  const parsed = SubscriptionSchema.safeParse(fields)
  if (!parsed.success) return json({ message: 'Bad Request' }, 400)
  if (!(await getTopic(context.db, tenant.id, parsed.data.topic))) notFoundJson()
  const viewer = await requireCaller(request, context, '/community')
  const topic = await readableTopic(context.db, tenant.id, parsed.data.topic, viewer)
  if (!topic) notFoundJson()
  await setTopicSubscription(context.db, tenant.id, viewer.id, topic.id, parsed.data.action)
  const subscribed = await subscribedTopicIds(context.db, tenant.id, viewer.id)
  return json({ community_topics: Object.fromEntries([...subscribed].map((id) => [id, true])) })
}
