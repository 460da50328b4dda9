// /certificates/{certificateId} (issue 24 item 2): the public verification page the certificate's
// QR code points to, on the school's host, no sign-in: the student's name, the course, the date
// and whether it is valid or revoked (since when). Another school's id or an unknown one is 404.
// Not indexed, never cached: a revocation shows at once.
import { data, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { formatCertificateDate } from '#app/certificates/certificate-dates.ts'
import { Card } from '#app/components/ui.tsx'
import { getCertificate } from '#app/models/certificate.server.ts'
import { getSchoolTimeZoneSetting } from '#app/models/stats.server.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }, { name: 'robots', content: 'noindex' }]

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const certificate = await getCertificate(context.db, tenant.id, String(params.certificateId ?? ''))
  if (!certificate) notFound()
  const locale = getLocale(request, context)
  const zone = (await getSchoolTimeZoneSetting(context.db, tenant.id))?.timeZone ?? ''
  return data(
    {
      pageTitle: `${getT(request, context)('certificates.verify.title')} · ${tenant.name}`,
      schoolName: tenant.name,
      certificate: {
        id: certificate.id,
        studentName: certificate.studentName,
        courseTitle: certificate.courseTitle,
        issuedOn: formatCertificateDate(certificate.issuedAt, locale, zone),
        revokedOn: certificate.revokedAt === null ? null : formatCertificateDate(certificate.revokedAt, locale, zone),
      },
    },
    { headers: { 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'private, no-store' } },
  )
}

export default function CertificateVerificationPage() {
  const { schoolName, certificate } = useLoaderData<typeof loader>()
  const t = useT()
  const valid = certificate.revokedOn === null
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <h1 className="text-2xl font-bold text-slate-900">{t('certificates.verify.title')}</h1>
      <div
        role="status"
        data-certificate-verdict={valid ? 'valid' : 'revoked'}
        className={valid ? 'rounded-md border border-green-300 bg-green-50 px-4 py-3 font-semibold text-green-900' : 'rounded-md border border-red-300 bg-red-50 px-4 py-3 font-semibold text-red-900'}
      >
        {valid ? t('certificates.verify.valid') : t('certificates.verify.revoked', { date: certificate.revokedOn ?? '' })}
      </div>
      <Card>
        <dl className="grid gap-3 sm:grid-cols-[12rem_1fr]">
          <dt className="text-sm font-medium text-slate-600">{t('certificates.verify.student')}</dt>
          <dd className="text-lg font-semibold text-slate-900" data-certificate-student>
            {certificate.studentName}
          </dd>
          <dt className="text-sm font-medium text-slate-600">{t('certificates.verify.course')}</dt>
          <dd className="text-slate-900" data-certificate-course>
            {certificate.courseTitle}
          </dd>
          <dt className="text-sm font-medium text-slate-600">{t('certificates.verify.date')}</dt>
          <dd className="text-slate-900" data-certificate-date>
            {certificate.issuedOn}
          </dd>
          <dt className="text-sm font-medium text-slate-600">{t('certificates.verify.school')}</dt>
          <dd className="text-slate-900">{schoolName}</dd>
          <dt className="text-sm font-medium text-slate-600">{t('certificates.verify.id')}</dt>
          <dd className="break-all font-mono text-sm text-slate-900">{certificate.id}</dd>
        </dl>
      </Card>
    </div>
  )
}
