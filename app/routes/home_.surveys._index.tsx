// Site surveys (seed 000 §3 "Survey", §4 "Site survey"): the school's surveys with their state and
// number of responses; a new survey starts inactive with its title and is edited on its own page.
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { SURVEY_TITLE_MAX } from '#app/domain/survey-fields.ts'
import { createSurvey, listSurveys } from '#app/models/survey.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'
import { text, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

const CreateSchema = z.object({ title: text({ max: SURVEY_TITLE_MAX }) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const surveys = await listSurveys(context.db, tenant.id)
  return { title: `${getT(request, context)('engagement.surveys.title')} · ${tenant.name}`, surveys }
}

export const action = staffAction({
  invalidStatus: 422,
  intents: (intent) => ({
    default: intent(CreateSchema, async (input, { tenant, context }) => {
      const survey = await createSurvey(context.db, tenant.id, { title: input.title })
      throw redirect(`/home/surveys/${survey.id}`, 303)
    }),
  }),
})

export default function SurveysPage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<{ errors: FieldErrors; values: FormValues }>()
  const t = useT()
  const locale = useLocale()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('engagement.surveys.intro')}>{t('engagement.surveys.title')}</PageTitle>
      <Card>
        <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <Field label={t('engagement.surveys.new_title')} name="title" maxLength={SURVEY_TITLE_MAX} required defaultValue={action?.values?.title} error={action?.errors?.title} className="flex-1" />
          <Button type="submit" data-survey-create>
            {t('engagement.surveys.create')}
          </Button>
        </Form>
      </Card>
      <Card>
        {data.surveys.length === 0 ? (
          <p className="text-slate-600">{t('engagement.surveys.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" data-surveys>
            {data.surveys.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-survey-row={s.id}>
                <div className="min-w-0">
                  <Link to={`/home/surveys/${s.id}`} className="font-semibold text-brand-700 hover:underline">
                    {s.title}
                  </Link>
                  <p className="text-sm text-slate-500">
                    {t('engagement.surveys.questions_count', { count: s.questionCount })} · {t('engagement.surveys.responses_count', { count: s.responses })} · {formatDate(s.createdAt, locale)}
                  </p>
                </div>
                {s.active ? (
                  <span className="rounded bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800" data-survey-active>
                    {t('engagement.surveys.active')}
                  </span>
                ) : (
                  <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600">{t('engagement.surveys.inactive')}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}
