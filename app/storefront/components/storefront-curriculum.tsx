// A course's curriculum on its product page: sections with their published lectures; lectures
// free to watch carry a "Free preview" badge.
import { useT } from '#app/utils/i18n-react.ts'

export type CurriculumSection = { id: string; title: string; lectures: Array<{ id: string; title: string; kind: string; runTimeSeconds: number; freeToWatch: boolean }> }

export function formatRunTime(seconds: number) {
  if (seconds <= 0) return ''
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`
}

export function StorefrontCurriculum({ sections }: { sections: CurriculumSection[] }) {
  const t = useT()
  const total = sections.reduce((n, s) => n + s.lectures.length, 0)
  if (total === 0) return null
  return (
    <section aria-labelledby="curriculum-title" className="space-y-4" data-curriculum>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="curriculum-title" className="text-2xl font-bold text-slate-900">{t('storefront.product.curriculum')}</h2>
        <p className="text-sm text-slate-600">{t('storefront.product.lectures', { count: total })}</p>
      </div>
      <ol className="space-y-4">
        {sections.map((section, i) => (
          <li key={section.id} className="overflow-hidden rounded-xl border border-slate-200 bg-white">
            <h3 className="border-b border-slate-200 bg-slate-50 px-4 py-3 font-semibold text-slate-900">
              <span className="mr-2 text-slate-500">{i + 1}.</span>
              {section.title}
            </h3>
            <ul className="divide-y divide-slate-100">
              {section.lectures.map((lecture) => (
                <li key={lecture.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-3 text-sm" data-lecture={lecture.id}>
                  <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{t(`storefront.product.lecture_kind.${lecture.kind}`)}</span>
                  <span className="min-w-0 flex-1 break-words text-slate-800">{lecture.title}</span>
                  {lecture.freeToWatch ? (
                    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800" data-free-preview>
                      {t('storefront.product.free_preview')}
                    </span>
                  ) : null}
                  {lecture.runTimeSeconds > 0 ? <span className="font-mono text-xs tabular-nums text-slate-500">{formatRunTime(lecture.runTimeSeconds)}</span> : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  )
}
