// One site survey: title, markdown description and questions (the editor), activate (only one
// survey of a school is active at a time) or deactivate, delete, and the responses as a table.
// Another school's survey id is 404; bad input writes nothing.
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { SurveyEditor } from '#app/engagement/components/survey-editor.tsx'
import { kebabCase, SURVEY_DESCRIPTION_MAX, SURVEY_TITLE_MAX, type ClientSurveyQuestion } from '#app/domain/survey-fields.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { Alert, Button, Card, Field, PageTitle, TextAreaField } from '#app/components/ui.tsx'
import { deleteSurvey, getSurvey, listSurveyResponses, parseQuestions, setSurveyActive, SurveyInputSchema, updateSurvey } from '#app/models/survey.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { formatDateTime } from '#app/utils/dates.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseWith, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

const DeleteSchema = z.object({ confirm: z.literal('DELETE') })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

/** Another school's id: 404 for everyone, before sign-in is asked for. */
async function loadSurvey(tenant: { id: string }, { context, params }: LoaderFunctionArgs) {
  return (await getSurvey(context.db, tenant.id, String(params.surveyId ?? '').slice(0, 64))) ?? notFound()
}

export async function loader(args: LoaderFunctionArgs) {
  const survey = await loadSurvey(requireSchool(args.context), args)
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const questions: ClientSurveyQuestion[] = parseQuestions(survey.questions)
  const responses = await listSurveyResponses(context.db, tenant.id, survey.id)
  return {
    title: `${survey.title} · ${getT(request, context)('engagement.surveys.title')}`,
    survey: { id: survey.id, title: survey.title, description: survey.description, active: survey.active, updatedAt: survey.updatedAt },
    questions,
    responses,
  }
}

// The schemas run inside the intents: their refusals echo only what the page's contract says.
const AnyFields = z.object({})

export const action = staffAction({
  load: loadSurvey,
  intents: (intent) => ({
    save: intent(AnyFields, async (_input, { tenant, context, fields: input, loaded: survey }) => {
      const parsed = parseWith(SurveyInputSchema, input)
      if (!parsed.ok) return formError(parsed.errors, { title: input.title ?? '', description: input.description ?? '' }, 422)
      await updateSurvey(context.db, tenant.id, survey.id, parsed.data)
      return { ok: true as const, saved: 'save' }
    }),
    activate: intent(AnyFields, async (_input, { tenant, context, loaded: survey }) => {
      if (parseQuestions(survey.questions).filter((q) => q.type !== 'separator').length === 0) return formError({ form: { key: 'engagement.surveys.error.no_questions' } }, {}, 422)
      await setSurveyActive(context.db, tenant.id, survey.id, true)
      return { ok: true as const, saved: 'activate' }
    }),
    deactivate: intent(AnyFields, async (_input, { tenant, context, loaded: survey }) => {
      await setSurveyActive(context.db, tenant.id, survey.id, false)
      return { ok: true as const, saved: 'deactivate' }
    }),
    delete: intent(AnyFields, async (_input, { tenant, context, fields: input, loaded: survey }) => {
      const confirmed = parseWith(DeleteSchema, input)
      if (!confirmed.ok) return formError({ confirm: { key: 'engagement.surveys.error.confirm' } }, {}, 422)
      await deleteSurvey(context.db, tenant.id, survey.id)
      throw redirect('/home/surveys', 303)
    }),
  }),
})

type ActionAnswer = { ok: true; saved: string } | { errors: FieldErrors; values: FormValues }

function answerCell(value: unknown) {
  if (value === true) return '✓'
  if (value === false || value === undefined || value === null || value === '') return '—'
  return Array.isArray(value) ? value.join(', ') : String(value)
}

export default function SurveyPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<ActionAnswer>()
  const navigation = useNavigation()
  const t = useT()
  const field = useFieldMessage()
  const errors = action && 'errors' in action ? action.errors : {}
  const values = action && 'values' in action ? action.values : {}
  const busy = navigation.state !== 'idle'
  const columns = data.questions.filter((q) => q.type !== 'separator').map((q) => ({ key: kebabCase(q.title), title: q.title }))
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/home/surveys" className="font-semibold text-brand-700 hover:underline">
          ← {t('engagement.surveys.back')}
        </Link>
      </p>
      <PageTitle subtitle={data.survey.active ? t('engagement.surveys.active_intro') : t('engagement.surveys.inactive_intro')}>{data.survey.title}</PageTitle>
      {action && 'ok' in action ? <Alert tone="success">{t(`engagement.surveys.done.${action.saved}`)}</Alert> : null}
      {errors.form ? <Alert>{field(errors.form)}</Alert> : null}
      <Card className="flex flex-wrap items-center justify-between gap-3" data-survey-state={data.survey.active ? 'active' : 'inactive'}>
        <p className="text-sm font-medium">{data.survey.active ? t('engagement.surveys.active') : t('engagement.surveys.inactive')}</p>
        <Form method="post">
          <input type="hidden" name="intent" value={data.survey.active ? 'deactivate' : 'activate'} />
          <Button type="submit" variant={data.survey.active ? 'secondary' : 'primary'} disabled={busy} data-survey-toggle>
            {data.survey.active ? t('engagement.surveys.deactivate') : t('engagement.surveys.activate')}
          </Button>
        </Form>
      </Card>
      <Card>
        <Form method="post" className="space-y-5" data-survey-form>
          <input type="hidden" name="intent" value="save" />
          <Field label={t('engagement.surveys.field.title')} name="title" required maxLength={SURVEY_TITLE_MAX} defaultValue={values.title ?? data.survey.title} error={errors.title} />
          <TextAreaField label={t('engagement.surveys.field.description')} name="description" rows={4} maxLength={SURVEY_DESCRIPTION_MAX} hint={t('engagement.surveys.field.description_hint')} defaultValue={values.description ?? data.survey.description} error={errors.description} />
          <SurveyEditor key={data.survey.updatedAt} initial={data.questions} error={field(errors.questions)} />
          <Button type="submit" disabled={busy} data-survey-save>
            {t('engagement.surveys.save')}
          </Button>
        </Form>
      </Card>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">{t('engagement.surveys.responses', { count: data.responses.length })}</h2>
        {data.responses.length === 0 ? (
          <p className="text-slate-600">{t('engagement.surveys.no_responses')}</p>
        ) : (
          <DataTable
            data-survey-responses
            rows={data.responses}
            rowKey={(r) => r.id}
            rowProps={(r) => ({ 'data-survey-response': r.email })}
            columns={[
              {
                key: 'respondent',
                header: t('engagement.surveys.respondent'),
                cell: (r) => (
                  <>
                    <span className="font-medium">{r.name}</span>
                    <span className="block text-xs text-slate-500">{r.email}</span>
                  </>
                ),
              },
              { key: 'responded-at', header: t('engagement.surveys.responded_at'), className: 'whitespace-nowrap', cell: (r) => formatDateTime(r.respondedAt) },
              ...columns.map((c) => ({ key: `q:${c.key}`, header: c.title, className: 'max-w-xs whitespace-pre-line break-words', cell: (r: (typeof data.responses)[number]) => answerCell(r.answers[c.key]) })),
            ]}
          />
        )}
      </Card>
      <Card className="space-y-3 border-red-200">
        <h2 className="text-lg font-semibold text-red-800">{t('engagement.surveys.delete')}</h2>
        <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="delete" />
          <Field label={t('engagement.surveys.delete_confirm')} name="confirm" autoComplete="off" error={errors.confirm} className="flex-1" />
          <Button type="submit" variant="danger" disabled={busy} data-survey-delete>
            {t('engagement.surveys.delete')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
