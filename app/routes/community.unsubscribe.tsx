// /community/unsubscribe?token= (issue 22 item 6): the link in every topic e-mail. It works without
// logging in: the token is signed (app/community/unsubscribe-token.server.ts) and names the school,
// the student and the topic. GET asks (mail scanners open links; only the button unsubscribes),
// POST unsubscribes. A token of another school, altered or unsigned, is "not valid" (404).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { data } from '@remix-run/cloudflare'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { verifyUnsubscribeToken } from '#app/community/unsubscribe-token.server.ts'
import { getTopic, setTopicSubscription, subscribedTopicIds } from '#app/models/community.server.ts'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { readFormFields } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }, { name: 'robots', content: 'noindex' }]

const TokenSchema = z.string().min(1).max(400)

/** The subscription a token names in this school, or null (invalid, another school's, unknown topic). */
async function subscriptionOf(request: Request, context: LoaderFunctionArgs['context'], raw: unknown) {
  const tenant = requireSchool(context)
  const token = TokenSchema.safeParse(raw)
  const key = context.cloudflare.env.INTEGRATIONS_KEY
  if (!token.success || !key) return null
  const claims = await verifyUnsubscribeToken(key, token.data)
  if (!claims || claims.tenantId !== tenant.id) return null
  const topic = await getTopic(context.db, tenant.id, claims.topicId)
  if (!topic) return null
  return { token: token.data, userId: claims.userId, topic: { id: topic.id, title: topic.title } }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const pageTitle = getT(request, context)('community.unsubscribe.title')
  const found = await subscriptionOf(request, context, new URL(request.url).searchParams.get('token'))
  if (!found) throw data({ pageTitle, state: 'invalid' as const }, { status: 404 })
  const subscribed = (await subscribedTopicIds(context.db, requireSchool(context).id, found.userId)).has(found.topic.id)
  return { pageTitle, state: subscribed ? ('ask' as const) : ('already' as const), topic: found.topic.title, token: found.token }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const fields = await readFormFields(request)
  const found = await subscriptionOf(request, context, fields?.token)
  if (!found) return data({ done: false as const }, { status: 404 })
  await setTopicSubscription(context.db, requireSchool(context).id, found.userId, found.topic.id, false)
  return { done: true as const, topic: found.topic.title }
}

export default function Unsubscribe() {
  const page = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const t = useT()
  return (
    <main className="mx-auto max-w-xl space-y-6 px-4 py-12" data-unsubscribe={answer?.done ? 'done' : page.state}>
      <PageTitle>{t('community.unsubscribe.title')}</PageTitle>
      <Card className="space-y-4">
        {answer?.done ? (
          <Alert tone="success">{t('community.unsubscribe.done', { topic: answer.topic })}</Alert>
        ) : page.state === 'already' ? (
          <p>{t('community.unsubscribe.already', { topic: page.topic })}</p>
        ) : (
          <Form method="post" className="space-y-4">
            <p>{t('community.unsubscribe.question', { topic: page.topic })}</p>
            <input type="hidden" name="token" value={page.token} />
            <Button type="submit">{t('community.unsubscribe.button')}</Button>
          </Form>
        )}
      </Card>
    </main>
  )
}

export function ErrorBoundary() {
  const t = useT()
  return (
    <main className="mx-auto max-w-xl space-y-6 px-4 py-12" data-unsubscribe="invalid">
      <PageTitle>{t('community.unsubscribe.title')}</PageTitle>
      <Alert tone="info">{t('community.unsubscribe.invalid')}</Alert>
    </main>
  )
}
