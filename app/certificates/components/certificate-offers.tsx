// The student's certificates: a card per course on the panel (<PanelCertificates />) and one card
// in the course player (<CourseCertificateCard />). Data from certificateOffers /
// courseCertificateOffer (app/certificates/certificates.server.ts); downloads are plain links.
import { Card } from '#app/components/ui.tsx'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'

/** The serialisable shape of CertificateOffer (certificates.server.ts). */
export type CertificateOfferView = {
  productId: string
  courseTitle: string
  courseSlug: string
  state: 'issued' | 'in_progress'
  certificateId?: string
  issuedAt?: number
  revoked?: boolean
  revokedAt?: number | null
  lecturesLeft?: number
  examsLeft?: number
}

const LINK = 'rounded font-semibold text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600'

function OfferBody({ offer }: { offer: CertificateOfferView }) {
  const t = useT()
  const locale = useLocale()
  if (offer.state === 'issued' && offer.certificateId) {
    if (offer.revoked) {
      return (
        <p className="text-sm text-red-700" data-certificate-offer-state="revoked">
          {t('certificates.panel.revoked')}
        </p>
      )
    }
    return (
      <div className="space-y-1" data-certificate-offer-state="issued">
        {offer.issuedAt ? <p className="text-sm text-slate-600">{t('certificates.panel.issued_on', { date: formatDate(offer.issuedAt, locale) })}</p> : null}
        <p className="flex flex-wrap gap-4 text-sm">
          <a href={`/panel/certificates/${offer.certificateId}`} className={LINK} data-certificate-download>
            {t('certificates.panel.download')} <span className="sr-only">{t('certificates.panel.download_for', { course: offer.courseTitle })}</span>
          </a>
          <a href={`/certificates/${offer.certificateId}`} className={LINK}>
            {t('certificates.panel.verify')}
          </a>
        </p>
      </div>
    )
  }
  const left = [
    offer.lecturesLeft ? t('certificates.panel.lectures_left', { count: offer.lecturesLeft }) : null,
    offer.examsLeft ? t('certificates.panel.exams_left', { count: offer.examsLeft }) : null,
  ].filter(Boolean)
  return (
    <div className="space-y-1" data-certificate-offer-state="in_progress">
      <p className="text-sm text-slate-600">{t('certificates.panel.in_progress')}</p>
      {left.length ? <p className="text-sm text-slate-600">{left.join(' · ')}</p> : null}
    </div>
  )
}

/** The panel's "Certificates" section; nothing when no course of the student has certificates on. */
export function PanelCertificates({ offers }: { offers: CertificateOfferView[] }) {
  const t = useT()
  if (offers.length === 0) return null
  return (
    <Card data-panel-certificates aria-labelledby="panel-certificates">
      <h2 id="panel-certificates" className="text-lg font-semibold">
        {t('certificates.panel.title')}
      </h2>
      <ul className="mt-2 divide-y divide-slate-100">
        {offers.map((offer) => (
          <li key={offer.productId} className="space-y-1 py-3" data-certificate-offer={offer.productId}>
            <h3 className="font-semibold">{offer.courseTitle}</h3>
            <OfferBody offer={offer} />
          </li>
        ))}
      </ul>
    </Card>
  )
}

/** The player's card for the open course; nothing without an offer. */
export function CourseCertificateCard({ offer }: { offer: CertificateOfferView | null | undefined }) {
  const t = useT()
  if (!offer) return null
  return (
    <Card className="space-y-2" data-course-certificate={offer.productId} aria-labelledby="course-certificate">
      <h2 id="course-certificate" className="text-base font-semibold">
        {t('certificates.card.title')}
      </h2>
      <OfferBody offer={offer} />
    </Card>
  )
}
