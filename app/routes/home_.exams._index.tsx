// /home/exams (issue 24 item 1): every exam of the school with its course, questions, attempts,
// pass rate and the answers awaiting grading. Exams are created in the course builder (a lecture
// of type "Exam"). Owners and admins only.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Card, PageTitle } from '#app/components/ui.tsx'
import { percentOf } from '#app/exams/grading.ts'
import { listSchoolExams } from '#app/models/exam.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const exams = await listSchoolExams(args.context.db, tenant.id)
  return {
    pageTitle: `${getT(args.request, args.context)('exams.title')} · ${tenant.name}`,
    exams: exams.map((e) => ({ ...e, passRate: e.submitted > 0 ? percentOf(e.passed, e.submitted) : null })),
  }
}

export default function ExamsPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('exams.intro')}>{t('exams.title')}</PageTitle>
      <FlashMessage />
      <Card>
        {data.exams.length === 0 ? (
          <p className="text-sm text-slate-600" data-exams-empty>
            {t('exams.empty')}
          </p>
        ) : (
          <DataTable
            data-exams
            caption={t('exams.title')}
            rows={data.exams}
            rowKey={(e) => e.id}
            rowProps={(e) => ({ 'data-exam-row': e.id })}
            columns={[
              {
                key: 'exam',
                header: t('exams.col.exam'),
                cell: (e) => (
                  <Link to={`/home/exams/${e.id}`} className="font-semibold text-brand-700 hover:underline">
                    {e.lectureTitle}
                  </Link>
                ),
              },
              { key: 'course', header: t('exams.col.course'), cell: (e) => e.courseTitle },
              { key: 'questions', header: t('exams.col.questions'), cell: (e) => e.questions, className: 'tabular-nums' },
              { key: 'attempts', header: t('exams.col.attempts'), cell: (e) => e.attempts, className: 'tabular-nums', cellProps: (e) => ({ 'data-attempts': e.attempts }) },
              { key: 'pass', header: t('exams.col.pass_rate'), cell: (e) => (e.passRate === null ? '—' : `${e.passRate}%`), className: 'tabular-nums' },
              {
                key: 'pending',
                header: t('exams.col.pending'),
                cell: (e) => (e.pending > 0 ? <strong className="text-amber-800">{e.pending}</strong> : 0),
                className: 'tabular-nums',
                cellProps: (e) => ({ 'data-pending': e.pending }),
              },
            ]}
          />
        )}
      </Card>
    </div>
  )
}
