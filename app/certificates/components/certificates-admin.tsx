// The owner's /home/certificates page: courses with their switch, then the issued certificates with
// "Revoke" (reason) and "Restore". Plain forms: it works without JavaScript.
import { Form, Link, useNavigation } from '@remix-run/react'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, FieldError, PageTitle } from '#app/components/ui.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

export type AdminCourse = { id: string; title: string; enabled: boolean; issued: number }
export type AdminCertificate = { id: string; studentName: string; courseTitle: string; issuedAt: number; revokedAt: number | null; revokedReason: string | null }
export type RevokeAnswer = { errors: FieldErrors; values: Record<string, string> }

export function CertificateStateBadge({ revokedAt }: { revokedAt: number | null }) {
  const t = useT()
  const locale = useLocale()
  return revokedAt === null ? (
    <span className="inline-flex rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800" data-certificate-state="valid">
      {t('certificates.state.valid')}
    </span>
  ) : (
    <span className="inline-flex rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800" data-certificate-state="revoked">
      {t('certificates.state.revoked_on', { date: formatDate(revokedAt, locale) })}
    </span>
  )
}

function RevokeForm({ certificate, answer, busy }: { certificate: AdminCertificate; answer: RevokeAnswer | null; busy: boolean }) {
  const t = useT()
  const mine = answer?.values.certificateId === certificate.id
  const error = mine ? answer?.errors.reason : undefined
  const inputId = `revoke-reason-${certificate.id}`
  const errorId = `${inputId}-error`
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2" data-certificate-revoke={certificate.id}>
      <input type="hidden" name="intent" value="revoke" />
      <input type="hidden" name="certificateId" value={certificate.id} />
      <div className="space-y-1">
        <label htmlFor={inputId} className="block text-xs font-medium text-slate-700">
          {t('certificates.revoke.reason')}
        </label>
        <input
          id={inputId}
          name="reason"
          required
          maxLength={500}
          defaultValue={mine ? answer?.values.reason : ''}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="block w-48 rounded-md border border-slate-300 px-2 py-1 text-sm"
        />
        <FieldError id={errorId} name="reason" error={error} />
      </div>
      <Button type="submit" variant="danger" disabled={busy}>
        {t('certificates.revoke')} <span className="sr-only">{t('certificates.of_student', { student: certificate.studentName })}</span>
      </Button>
    </Form>
  )
}

export function CertificatesAdmin({ courses, certificates, answer }: { courses: AdminCourse[]; certificates: AdminCertificate[]; answer: RevokeAnswer | null }) {
  const t = useT()
  const locale = useLocale()
  const busy = useNavigation().state !== 'idle'
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('certificates.intro')}>{t('certificates.title')}</PageTitle>
      <FlashMessage hidden={Boolean(answer)} />
      {answer?.errors.form ? (
        <Alert>
          <span data-field-error="form">{t(answer.errors.form.key, answer.errors.form.values)}</span>
        </Alert>
      ) : null}
      <Card>
        <h2 className="mb-3 text-lg font-semibold">{t('certificates.courses.title')}</h2>
        {courses.length === 0 ? (
          <p className="text-sm text-slate-600">{t('certificates.courses.empty')}</p>
        ) : (
          <DataTable
            data-certificate-courses
            rows={courses}
            rowKey={(c) => c.id}
            rowProps={(c) => ({ 'data-certificate-course': c.id })}
            columns={[
              { key: 'course', header: t('certificates.col.course'), className: 'font-medium', cell: (c) => c.title },
              {
                key: 'state',
                header: t('certificates.col.certificates'),
                cellProps: (c) => ({ 'data-certificates-enabled': c.enabled ? 'on' : 'off' }),
                cell: (c) => (
                  <Form method="post" className="flex items-center gap-3">
                    <input type="hidden" name="intent" value="toggle" />
                    <input type="hidden" name="productId" value={c.id} />
                    <input type="hidden" name="enabled" value={c.enabled ? 'off' : 'on'} />
                    <span className={c.enabled ? 'font-semibold text-green-800' : 'text-slate-600'}>{c.enabled ? t('certificates.switch.on') : t('certificates.switch.off')}</span>
                    <Button type="submit" variant="secondary" disabled={busy}>
                      {c.enabled ? t('certificates.switch.disable') : t('certificates.switch.enable')} <span className="sr-only">{t('certificates.switch.for_course', { course: c.title })}</span>
                    </Button>
                  </Form>
                ),
              },
              { key: 'issued', header: t('certificates.col.issued'), cell: (c) => c.issued },
              {
                key: 'settings',
                header: t('certificates.col.settings'),
                srOnlyHeader: true,
                cell: (c) => (
                  <Link to={`/home/certificates/${c.id}`} className="font-medium text-brand-700 hover:underline">
                    {t('certificates.settings_link')} <span className="sr-only">{t('certificates.settings_link_for', { course: c.title })}</span>
                  </Link>
                ),
              },
            ]}
          />
        )}
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-semibold">{t('certificates.issued.title')}</h2>
        {certificates.length === 0 ? (
          <p className="text-sm text-slate-600">{t('certificates.issued.empty')}</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-600">{t('certificates.issued.count', { count: certificates.length })}</p>
            <DataTable
              data-certificates
              rows={certificates}
              rowKey={(c) => c.id}
              rowProps={(c) => ({ 'data-certificate-row': c.id })}
              columns={[
                { key: 'student', header: t('certificates.col.student'), className: 'font-medium', cell: (c) => c.studentName },
                { key: 'course', header: t('certificates.col.course'), cell: (c) => c.courseTitle },
                { key: 'date', header: t('certificates.col.date'), className: 'whitespace-nowrap', cell: (c) => formatDate(c.issuedAt, locale) },
                {
                  key: 'id',
                  header: t('certificates.col.id'),
                  cell: (c) => (
                    <a href={`/certificates/${c.id}`} className="font-mono text-xs text-brand-700 hover:underline">
                      <span className="sr-only">{t('certificates.verify_link')}: </span>
                      {c.id}
                    </a>
                  ),
                },
                {
                  key: 'state',
                  header: t('certificates.col.state'),
                  cell: (c) => (
                    <div className="space-y-1">
                      <CertificateStateBadge revokedAt={c.revokedAt} />
                      {c.revokedReason ? <p className="text-xs text-slate-600">{c.revokedReason}</p> : null}
                    </div>
                  ),
                },
                {
                  key: 'actions',
                  header: t('certificates.col.actions'),
                  srOnlyHeader: true,
                  cell: (c) =>
                    c.revokedAt === null ? (
                      <RevokeForm certificate={c} answer={answer} busy={busy} />
                    ) : (
                      <Form method="post" data-certificate-restore={c.id}>
                        <input type="hidden" name="intent" value="restore" />
                        <input type="hidden" name="certificateId" value={c.id} />
                        <Button type="submit" variant="secondary" disabled={busy}>
                          {t('certificates.restore')} <span className="sr-only">{t('certificates.of_student', { student: c.studentName })}</span>
                        </Button>
                      </Form>
                    ),
                },
              ]}
            />
          </>
        )}
      </Card>
    </div>
  )
}
