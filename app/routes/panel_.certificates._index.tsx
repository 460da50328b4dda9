// /panel/certificates (issue 24 item 2): the signed-in student's certificates on their own page:
// each course with certificates on that they have (issued now when the rule holds), with the PDF
// download and the verification link, or what is left to do. The panel and the player show the
// same offers (PanelCertificates / CourseCertificateCard).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { requireUser } from '#app/auth/auth.server.ts'
import { certificateOffers } from '#app/certificates/certificates.server.ts'
import { PanelCertificates } from '#app/certificates/components/certificate-offers.tsx'
import { PageTitle } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context)
  const offers = await certificateOffers(context.db, context.cloudflare.env, tenant.id, user.id)
  return { pageTitle: `${getT(request, context)('certificates.panel.title')} · ${tenant.name}`, offers }
}

export default function StudentCertificatesPage() {
  const { offers } = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-6">
      <PageTitle>{t('certificates.panel.title')}</PageTitle>
      {offers.length === 0 ? <p className="text-slate-600">{t('certificates.panel.none')}</p> : <PanelCertificates offers={offers} />}
    </div>
  )
}
