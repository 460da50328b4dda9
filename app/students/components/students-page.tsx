// The school's students (/home/students): search, the paged list, the CSV export, adding one
// student and importing up to 50 addresses with a report. The route keeps the loader and the
// add / import intents.
import { Form, Link, useNavigation, useSearchParams } from '@remix-run/react'
import { useId } from 'react'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { Pager } from '#app/components/pager.tsx'
import type { ImportLineError as LineError } from '#app/models/student.server.ts'

export const SEARCH_MAX = 100
// 50 addresses of at most 254 characters, with line ends and some slack for blank lines.
export const IMPORT_TEXT_MAX = 20_000

/** Errors the export (/home/students/export) sends back in `?error=`. */
const ERRORS = ['export_limit'] as const

export type ImportReport = { created: string[]; existing: string[]; duplicates: string[] }
export type ActionData = { errors?: FieldErrors; values?: Record<string, string>; invalid?: LineError[]; report?: ImportReport }

export type StudentsPageData = {
  search: string
  students: Array<{ id: string; name: string; email: string; activeProducts: number; createdAt: number }>
  total: number
  page: number
  pageCount: number
  limits: { name: number; import: number }
}

function ImportResult({ report }: { report: ImportReport }) {
  const t = useT()
  return (
    <div className="space-y-2" data-import-report>
      <Alert tone="success">{t('students.import.created', { count: report.created.length })}</Alert>
      {report.existing.length ? (
        <Alert tone="info">
          {t('students.import.existing', { count: report.existing.length })}
          <ul className="mt-1 list-inside list-disc" data-import-existing>
            {report.existing.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {report.duplicates.length ? (
        <Alert tone="info">
          {t('students.import.duplicates', { count: report.duplicates.length })}
          <ul className="mt-1 list-inside list-disc" data-import-duplicates>
            {report.duplicates.map((e, i) => (
              <li key={`${e}-${i}`}>{e}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </div>
  )
}

export function StudentsPage({ data, actionData }: { data: StudentsPageData; actionData: ActionData | undefined }) {
  const [params] = useSearchParams()
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const importId = useId()
  const errors = actionData?.errors ?? {}
  const values = actionData?.values ?? {}
  const errorsOf = (intent: string) => (values.intent === intent ? errors : {})
  const problem = ERRORS.find((e) => e === params.get('error'))
  const importError = errorsOf('import').emails

  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('students.intro')}>{t('students.title')}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {problem && !actionData ? <Alert>{t(`students.error.${problem}`)}</Alert> : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card className="space-y-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
            <Field className="min-w-64" label={t('students.search.label')} name="q" type="search" defaultValue={data.search} maxLength={SEARCH_MAX} />
            <Button type="submit" variant="secondary">
              {t('common.search')}
            </Button>
          </Form>
          {/* A real form post: the answer is a file download (or a redirect back with the limit message). */}
          <Form method="post" action="/home/students/export" reloadDocument>
            <Button type="submit" variant="secondary" data-export>
              {t('students.export')}
            </Button>
          </Form>
        </div>
        <p className="text-sm text-slate-600" data-student-total>
          {data.search ? t('students.found', { count: data.total }) : t('students.count', { count: data.total })}
        </p>
        {data.students.length === 0 ? (
          <p className="text-slate-600">{data.search ? t('students.list.no_match') : t('students.list.empty')}</p>
        ) : (
          <DataTable
            data-students
            rows={data.students}
            rowKey={(s) => s.id}
            rowProps={(s) => ({ 'data-student-email': s.email })}
            columns={[
              {
                key: 'name',
                header: t('students.list.name'),
                cell: (s) => (
                  <Link to={`/home/students/${s.id}`} className="font-semibold text-brand-700 hover:underline">
                    {s.name || s.email}
                  </Link>
                ),
              },
              { key: 'email', header: t('students.list.email'), cell: (s) => s.email },
              { key: 'products', header: t('students.list.products'), cell: (s) => t('students.products_count', { count: s.activeProducts }) },
              { key: 'joined', header: t('students.list.joined'), cell: (s) => formatDate(s.createdAt, locale) },
            ]}
          />
        )}
        <Pager page={data.page} pageCount={data.pageCount} href={(p) => `?${new URLSearchParams({ ...(data.search ? { q: data.search } : {}), page: String(p) })}`} className="mt-4" />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="text-lg font-semibold">{t('students.add.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('students.add.intro')}</p>
          <Form method="post" className="mt-3 space-y-3" noValidate data-add-student>
            <input type="hidden" name="intent" value="add" />
            <Field label={t('students.field.name')} name="name" maxLength={data.limits.name} required autoComplete="off" defaultValue={values.intent === 'add' ? values.name : undefined} error={errorsOf('add').name} />
            <Field label={t('students.field.email')} name="email" type="email" maxLength={254} required autoComplete="off" defaultValue={values.intent === 'add' ? values.email : undefined} error={errorsOf('add').email} />
            <Button type="submit" disabled={busy}>
              {t('students.add.submit')}
            </Button>
          </Form>
        </Card>

        <Card>
          <h2 className="text-lg font-semibold">{t('students.import.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('students.import.intro', { max: data.limits.import })}</p>
          {actionData?.report ? <div className="mt-3"><ImportResult report={actionData.report} /></div> : null}
          <Form method="post" className="mt-3 space-y-3" noValidate data-import-students>
            <input type="hidden" name="intent" value="import" />
            <div className="space-y-1">
              <label htmlFor={importId} className="block text-sm font-medium text-slate-700">
                {t('students.import.label')}
              </label>
              <textarea
                id={importId}
                name="emails"
                rows={8}
                maxLength={IMPORT_TEXT_MAX}
                defaultValue={values.intent === 'import' ? values.emails : undefined}
                aria-invalid={importError ? true : undefined}
                aria-describedby={importError ? `${importId}-error` : undefined}
                placeholder={'anna@example.com\npiotr@example.com'}
                className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
              />
              {importError ? (
                <div id={`${importId}-error`} className="text-sm text-red-600" data-field-error="emails">
                  <p>{message(importError)}</p>
                  {actionData?.invalid?.length ? (
                    <ul className="mt-1 list-inside list-disc" data-invalid-lines>
                      {actionData.invalid.map((l) => (
                        <li key={l.line} data-invalid-line={l.line}>
                          {t('students.import.bad_line', { line: l.line, value: l.value })}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              ) : null}
            </div>
            <Button type="submit" disabled={busy}>
              {t('students.import.submit')}
            </Button>
          </Form>
        </Card>
      </div>
    </div>
  )
}
