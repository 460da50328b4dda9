import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { PageTitle } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

// The catalogue arrives with the instructor-panel issue; until then a school lists nothing.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  return { title: `${getT(request, context)('school.courses.title')} · ${tenant.name}` }
}

export default function CoursesPage() {
  const t = useT()
  return (
    <div>
      <PageTitle>{t('school.courses.title')}</PageTitle>
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center text-slate-600">{t('school.courses.empty')}</p>
    </div>
  )
}
