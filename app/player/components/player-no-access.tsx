// The no-access page (seed 001 §2 "No-access page for lectures (with offer to buy)"): the course
// title, cover and price with a Buy / Get for free button to checkout, a login link for visitors,
// and the curriculum so the student sees what the course holds.
import { Link } from '@remix-run/react'
import type { ProductOffer } from '#app/domain/block-context.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { ProductPrice } from '#app/storefront/components/product-price.tsx'
import type { PlayerNavSection } from './player-nav.tsx'

export function PlayerNoAccess({ slug, offer, courseTitle, lectureTitle, loginHref, sections }: { slug: string; offer: ProductOffer | null; courseTitle: string; lectureTitle: string; loginHref: string | null; sections: PlayerNavSection[] }) {
  const t = useT()
  return (
    <article className="mx-auto max-w-3xl space-y-8" data-no-access>
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <div className="aspect-[16/10] w-full bg-gradient-to-br from-brand-100 to-brand-300">
          {offer?.cover ? <img src={offer.cover.url} width={offer.cover.width} height={offer.cover.height} alt="" className="size-full object-cover" data-no-access-cover /> : null}
        </div>
        <div className="space-y-4 p-6">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{lectureTitle}</p>
          <h1 className="break-words text-2xl font-extrabold tracking-tight text-slate-900 sm:text-3xl">{t('player.no_access.title')}</h1>
          <p className="text-slate-700">{t('player.no_access.body', { course: courseTitle })}</p>
          {offer ? <ProductPrice offer={offer} size="lg" countdown /> : null}
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <a
              href={`/${slug}/checkout`}
              className="flex min-h-12 items-center justify-center rounded-lg bg-brand-600 px-6 py-3 text-lg font-semibold text-white shadow hover:bg-brand-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              data-no-access-buy
            >
              {offer?.isFree ? t('player.no_access.get_free') : t('player.no_access.buy')}
            </a>
            {loginHref ? (
              <p className="text-sm text-slate-700">
                {t('player.no_access.login_prompt')}{' '}
                <Link to={loginHref} className="font-semibold text-brand-700 underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500" data-no-access-login>
                  {t('player.no_access.login')}
                </Link>
              </p>
            ) : null}
          </div>
        </div>
      </div>
      {sections.length ? (
        <section aria-labelledby="no-access-curriculum" className="space-y-3">
          <h2 id="no-access-curriculum" className="text-lg font-semibold text-slate-900">
            {t('player.no_access.curriculum')}
          </h2>
          <ol className="space-y-3">
            {sections.map((s) => (
              <li key={s.id} className="rounded-xl border border-slate-200 bg-white p-4">
                <h3 className="font-medium text-slate-900">{s.title}</h3>
                <ul className="mt-2 space-y-1 text-sm text-slate-700">
                  {s.lectures.map((l) => (
                    <li key={l.id} className="flex flex-wrap items-center gap-2">
                      <span className="break-words">{l.title}</span>
                      {l.freeToWatch ? (
                        <Link to={`/${slug}/watch/${l.id}`} className="rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-500">
                          {t('player.badge.free')}
                        </Link>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </article>
  )
}
