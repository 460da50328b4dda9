// /home/community/:topicId (issue 22 item 1): edit a topic (title, description, students may post,
// public or restricted to chosen products, the course that links here), archive or restore it,
// delete it with its posts after a confirmation. Another school's id is 404 (before sign-in is
// asked for); bad input answers field errors and writes nothing.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, CheckField, PageTitle } from '#app/components/ui.tsx'
import { choiceErrors, TOPIC_FORM_RULES, TopicSchema } from '#app/community/topic-form.server.ts'
import { TopicFields } from '#app/community/components/topic-fields.tsx'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { listGrantableProducts } from '#app/models/access.server.ts'
import { countPostsByTopic, deleteTopic, getTopic, listTopicProductIds, setTopicArchived, updateTopic } from '#app/models/community.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

const NoFields = z.object({})
const DeleteSchema = z.object({ confirm: z.literal('on', { errorMap: () => ({ message: msg('community_admin.error.confirm') }) }) })

/** Another school's id: 404 for everyone, before sign-in is asked for. */
async function loadTopic(tenant: SchoolTenant, { context, params }: Pick<LoaderFunctionArgs, 'context' | 'params'>) {
  return (await getTopic(context.db, tenant.id, String(params.topicId ?? '').slice(0, 64))) ?? notFound()
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const topic = await loadTopic(requireSchool(args.context), args)
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const [productIds, products, posts] = await Promise.all([
    listTopicProductIds(context.db, tenant.id, topic.id),
    listGrantableProducts(context.db, tenant.id),
    countPostsByTopic(context.db, tenant.id),
  ])
  const values: FormValues = {
    title: topic.title,
    description: topic.description,
    allowStudentsToAddPosts: topic.allowStudentsToAddPosts ? 'on' : '',
    access: topic.access,
    courseId: topic.courseId ?? '',
    ...Object.fromEntries(productIds.map((id) => [`product_${id}`, 'on'])),
  }
  return {
    title: `${topic.title} · ${getT(request, context)('community_admin.title')}`,
    topic: { id: topic.id, title: topic.title, archived: topic.archivedAt !== null, posts: posts.get(topic.id) ?? 0, updatedAt: topic.updatedAt },
    products: products.map((p) => ({ id: p.id, title: p.title, kind: p.kind })),
    rules: TOPIC_FORM_RULES,
    values,
  }
}

export const action = staffAction({
  invalidStatus: 422,
  load: loadTopic,
  intents: (intent) => ({
    save: intent(TopicSchema, async (input, { tenant, request, context, fields, loaded: topic }) => {
      const problem = choiceErrors(input, await listGrantableProducts(context.db, tenant.id))
      if (problem) return formError(problem, fields, 422)
      if (!(await updateTopic(context.db, tenant.id, topic.id, input))) notFound()
      throw redirectWithFlash(request, `/home/community/${topic.id}`, { done: 'saved', message: 'community_admin.done.saved' }, { status: 303 })
    }),
    archive: intent(NoFields, async (_input, { tenant, request, context, loaded: topic }) => {
      await setTopicArchived(context.db, tenant.id, topic.id, true)
      throw redirectWithFlash(request, `/home/community/${topic.id}`, { done: 'archived', message: 'community_admin.done.archived' }, { status: 303 })
    }),
    unarchive: intent(NoFields, async (_input, { tenant, request, context, loaded: topic }) => {
      await setTopicArchived(context.db, tenant.id, topic.id, false)
      throw redirectWithFlash(request, `/home/community/${topic.id}`, { done: 'unarchived', message: 'community_admin.done.unarchived' }, { status: 303 })
    }),
    delete: intent(DeleteSchema, async (_input, { tenant, request, context, loaded: topic }) => {
      await deleteTopic(context.db, tenant.id, topic.id)
      throw redirectWithFlash(request, '/home/community', { done: 'deleted', message: 'community_admin.done.deleted' }, { status: 303 })
    }),
  }),
})

export default function CommunityTopicPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<{ errors: FieldErrors; values: FormValues }>()
  const busy = useNavigation().state !== 'idle'
  const t = useT()
  const errors = action?.errors ?? {}
  // A refused save echoes what was typed; a refused delete (no fields) keeps the stored values.
  const values = action && Object.keys(action.values).length ? action.values : data.values
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/home/community" className="font-semibold text-brand-700 hover:underline">
          ← {t('community_admin.back')}
        </Link>
      </p>
      <PageTitle
        subtitle={
          data.topic.archived ? null : (
            <a href={`/community/topics/${data.topic.id}`} className="font-semibold text-brand-700 hover:underline" data-topic-view>
              {t('community_admin.view')}
            </a>
          )
        }
      >
        {data.topic.title}
      </PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      {data.topic.archived ? (
        <div data-topic-archived>
          <Alert tone="info">{t('community_admin.archived_note')}</Alert>
        </div>
      ) : null}
      <Card>
        {/* Keyed by the saved version so a successful save shows the stored values again. */}
        <Form method="post" className="space-y-4" data-topic-edit key={data.topic.updatedAt}>
          <input type="hidden" name="intent" value="save" />
          <TopicFields values={values} errors={errors} products={data.products} rules={data.rules} />
          <Button type="submit" disabled={busy}>
            {t('community_admin.save')}
          </Button>
        </Form>
      </Card>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('community_admin.archive_title')}</h2>
        <p className="text-sm text-slate-600">{t('community_admin.archive_hint')}</p>
        <Form method="post" data-topic-archive>
          <input type="hidden" name="intent" value={data.topic.archived ? 'unarchive' : 'archive'} />
          <Button type="submit" variant="secondary" disabled={busy}>
            {data.topic.archived ? t('community_admin.unarchive') : t('community_admin.archive')}
          </Button>
        </Form>
      </Card>
      <Card className="space-y-3 border-red-200">
        <h2 className="text-lg font-semibold text-red-800">{t('community_admin.delete_title')}</h2>
        <p className="text-sm text-slate-600">{t('community_admin.delete_hint', { count: data.topic.posts })}</p>
        <Form method="post" className="space-y-3" data-topic-delete>
          <input type="hidden" name="intent" value="delete" />
          <CheckField label={t('community_admin.delete_confirm_label')} name="confirm" error={errors.confirm} />
          <Button type="submit" variant="danger" disabled={busy}>
            {t('community_admin.delete')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
