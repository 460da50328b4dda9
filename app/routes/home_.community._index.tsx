// /home/community (issue 22 item 1): the school's community topics in their order (public or
// restricted, whether students may post, archived, posts), a "New topic" form, and the order
// (Move up / Move down without JavaScript; `intent=order` with the whole list for scripts).
// A school may have no topic at all: students then see no community link.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Button, Card, FieldError, PageTitle } from '#app/components/ui.tsx'
import { choiceErrors, TOPIC_FORM_RULES, TopicSchema } from '#app/community/topic-form.server.ts'
import { TopicFields } from '#app/community/components/topic-fields.tsx'
import { listGrantableProducts } from '#app/models/access.server.ts'
import { countPostsByTopic, createTopic, listTopics, reorderTopics } from '#app/models/community.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

const MoveSchema = z.object({ id: z.string().trim().min(1).max(64), move: z.enum(['up', 'down']) })
const OrderSchema = z.object({
  order: z
    .string()
    .min(1)
    .max(5000)
    .transform((s) =>
      s
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [topics, posts, products] = await Promise.all([listTopics(context.db, tenant.id), countPostsByTopic(context.db, tenant.id), listGrantableProducts(context.db, tenant.id)])
  return {
    title: `${getT(request, context)('community_admin.title')} · ${tenant.name}`,
    topics: topics.map((t) => ({ id: t.id, title: t.title, access: t.access, allowStudentsToAddPosts: t.allowStudentsToAddPosts, archived: t.archivedAt !== null, posts: posts.get(t.id) ?? 0 })),
    products: products.map((p) => ({ id: p.id, title: p.title, kind: p.kind })),
    rules: TOPIC_FORM_RULES,
  }
}

export const action = staffAction({
  invalidStatus: 422,
  intents: (intent) => ({
    default: intent(TopicSchema, async (input, { tenant, request, context, fields }) => {
      const problem = choiceErrors(input, await listGrantableProducts(context.db, tenant.id))
      if (problem) return formError(problem, fields, 422)
      await createTopic(context.db, tenant.id, input)
      throw redirectWithFlash(request, '/home/community', { done: 'created', message: 'community_admin.done.created' }, { status: 303 })
    }),
    move: intent(MoveSchema, async (input, { tenant, request, context }) => {
      const ids = (await listTopics(context.db, tenant.id)).map((t) => t.id)
      const from = ids.indexOf(input.id)
      const to = from + (input.move === 'up' ? -1 : 1)
      // Another school's id, or already at the end: nothing written.
      if (from < 0 || to < 0 || to >= ids.length) return formError({ form: { key: 'community_admin.error.order' } }, {}, 409)
      ;[ids[from], ids[to]] = [ids[to], ids[from]]
      await reorderTopics(context.db, tenant.id, ids)
      throw redirectWithFlash(request, '/home/community', { done: 'order', message: 'community_admin.done.order' }, { status: 303 })
    }),
    order: intent(OrderSchema, async (input, { tenant, request, context }) => {
      const ids = (await listTopics(context.db, tenant.id)).map((t) => t.id)
      // The whole list, each topic once: a stale page (a topic added or deleted meanwhile) writes nothing.
      const same = input.order.length === ids.length && new Set(input.order).size === ids.length && input.order.every((id) => ids.includes(id))
      if (!same) return formError({ form: { key: 'community_admin.error.order' } }, {}, 409)
      await reorderTopics(context.db, tenant.id, input.order)
      throw redirectWithFlash(request, '/home/community', { done: 'order', message: 'community_admin.done.order' }, { status: 303 })
    }),
  }),
})

/** A new topic lets students post and is public until the owner says otherwise. */
const NEW_TOPIC: FormValues = { allowStudentsToAddPosts: 'on', access: 'public' }

export default function CommunityTopicsPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<{ errors: FieldErrors; values: FormValues }>()
  const busy = useNavigation().state !== 'idle'
  const t = useT()
  const errors = action?.errors ?? {}
  const last = data.topics.length - 1
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('community_admin.intro')}>{t('community_admin.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      <Card>
        <FieldError name="form" error={errors.form} />
        {data.topics.length === 0 ? (
          <p className="text-sm text-slate-600" data-topics-empty>
            {t('community_admin.empty')}
          </p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-500">{t('community_admin.count', { count: data.topics.length })}</p>
            <DataTable
              data-topics
              rows={data.topics}
              rowKey={(topic) => topic.id}
              rowProps={(topic) => ({ 'data-topic-row': topic.title })}
              columns={[
                {
                  key: 'title',
                  header: t('community_admin.col.title'),
                  cell: (topic) => (
                    <Link to={`/home/community/${topic.id}`} className="font-semibold text-brand-700 hover:underline">
                      {topic.title}
                    </Link>
                  ),
                },
                { key: 'access', header: t('community_admin.col.access'), cellProps: (topic) => ({ 'data-topic-access': topic.access }), cell: (topic) => t(`community_admin.access.${topic.access}`) },
                { key: 'post', header: t('community_admin.col.students_post'), cell: (topic) => (topic.allowStudentsToAddPosts ? t('community_admin.yes') : t('community_admin.no')) },
                { key: 'posts', header: t('community_admin.col.posts'), cell: (topic) => topic.posts },
                {
                  key: 'status',
                  header: t('community_admin.col.status'),
                  cellProps: (topic) => ({ 'data-topic-status': topic.archived ? 'archived' : 'open' }),
                  cell: (topic) =>
                    topic.archived ? (
                      <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600">{t('community_admin.status.archived')}</span>
                    ) : (
                      t('community_admin.status.open')
                    ),
                },
                {
                  key: 'order',
                  header: t('community_admin.col.order'),
                  cell: (topic, index) => (
                    <Form method="post" className="flex gap-1" data-topic-move>
                      <input type="hidden" name="intent" value="move" />
                      <input type="hidden" name="id" value={topic.id} />
                      <Button
                        type="submit"
                        name="move"
                        value="up"
                        variant="secondary"
                        className="px-2 py-1 text-xs"
                        disabled={busy || index === 0}
                        aria-label={t('courses.move_up_label', { name: topic.title })}
                      >
                        {t('courses.move_up')}
                      </Button>
                      <Button
                        type="submit"
                        name="move"
                        value="down"
                        variant="secondary"
                        className="px-2 py-1 text-xs"
                        disabled={busy || index === last}
                        aria-label={t('courses.move_down_label', { name: topic.title })}
                      >
                        {t('courses.move_down')}
                      </Button>
                    </Form>
                  ),
                },
              ]}
            />
          </>
        )}
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('community_admin.new')}</h2>
        {/* Keyed by the list's length: after a create the form starts empty again. */}
        <Form method="post" className="mt-4 space-y-4" data-topic-create key={data.topics.length}>
          <TopicFields values={action && Object.keys(action.values).length ? action.values : NEW_TOPIC} errors={errors} products={data.products} rules={data.rules} />
          <Button type="submit" disabled={busy}>
            {t('community_admin.create')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
