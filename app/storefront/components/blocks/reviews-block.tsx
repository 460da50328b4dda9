// Reviews list (seed 000 §2 widget 17, §3 "Review", §7 POST /json/reviews): loaded lazily when the
// block comes within 250 px of the viewport, paged with "Show more". Rating labels for 10/5/0,
// 'No descriptive opinion' when a review has no text, every review links to the course page, and
// an empty list invites a first review through /login. Without JavaScript: a link to the course.
import { useCallback, useEffect, useRef, useState } from 'react'
import type { BlockContext } from '#app/domain/block-context.ts'
import type { BlockProps } from '#app/domain/blocks.ts'
import { formatDateTime, fromNow } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { UserAvatar } from '#app/components/user-avatar.tsx'
import { cx } from '#app/components/ui.tsx'
import { goToLogin } from '#app/utils/go-to-login.ts'

/** Seed 000 §7: loaded when the block is within 250 px of view. */
export const REVIEWS_ROOT_MARGIN = '250px'

export type ReviewItem = { id: string; rating: number; review: string; first_name: string; created_at: string; title: string; slug: string }

const RATING_STYLE: Record<number, string> = {
  10: 'bg-green-50 text-green-800 ring-green-600/20',
  5: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  0: 'bg-red-50 text-red-800 ring-red-600/20',
}

function ReviewCard({ review }: { review: ReviewItem }) {
  const t = useT()
  const locale = useLocale()
  const created = Date.parse(review.created_at)
  const rating = review.rating === 10 || review.rating === 5 ? review.rating : 0
  return (
    <li className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4" data-review>
      <UserAvatar id={review.id} name={review.first_name} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="font-semibold text-slate-900">{review.first_name || '—'}</span>
          <span className={cx('rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', RATING_STYLE[rating])} data-review-rating={rating}>
            {t(`widgets.reviews.rating.${rating}`)}
          </span>
          <time dateTime={review.created_at} title={formatDateTime(created)} className="text-sm text-slate-500" suppressHydrationWarning>
            {fromNow(created, locale)}
          </time>
        </div>
        <p className={cx('mt-2 whitespace-pre-line break-words', review.review ? 'text-slate-700' : 'italic text-slate-500')} data-review-text>
          {review.review || t('widgets.reviews.no_text')}
        </p>
        <a href={`/${review.slug}`} className="mt-2 inline-block text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
          {t('widgets.reviews.of', { title: review.title })}
        </a>
      </div>
    </li>
  )
}

export function ReviewsBlock({ id, props, context }: { id: string; props: BlockProps<'reviews'>; context: BlockContext }) {
  const t = useT()
  const sectionRef = useRef<HTMLElement>(null)
  const [hydrated, setHydrated] = useState(false)
  const [reviews, setReviews] = useState<ReviewItem[]>([])
  const [next, setNext] = useState<string | null>(null)
  const [state, setState] = useState<'idle' | 'loading' | 'loaded' | 'error'>('idle')
  const started = useRef(false)
  const product = context.products[props.productId]
  const headingId = `block-${id}-heading`

  const load = useCallback(
    async (url: string) => {
      setState('loading')
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
          body: JSON.stringify({ course_id: props.productId, length: props.pageSize }),
        })
        if (res.status === 419) {
          goToLogin()
          return
        }
        if (!res.ok) throw new Error(`reviews ${res.status}`)
        const body = (await res.json()) as { data: ReviewItem[]; next_page_url: string | null }
        setReviews((list) => [...list, ...body.data.filter((r) => !list.some((x) => x.id === r.id))])
        setNext(body.next_page_url)
        setState('loaded')
      } catch {
        setState('error')
      }
    },
    [props.productId, props.pageSize],
  )

  useEffect(() => {
    setHydrated(true)
    // Read-only, so the editor's live preview loads it too.
    const el = sectionRef.current
    if (!el) return
    const start = () => {
      if (started.current) return
      started.current = true
      void load('/json/reviews')
    }
    if (typeof IntersectionObserver === 'undefined') {
      start()
      return
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect()
          start()
        }
      },
      { rootMargin: REVIEWS_ROOT_MARGIN },
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [load])

  return (
    <section ref={sectionRef} data-block-type="reviews" id={`block-${id}`} aria-labelledby={headingId} aria-busy={state === 'loading' || undefined} className="mx-auto max-w-3xl" data-reviews-state={state}>
      <h2 id={headingId} className="mb-4 text-2xl font-bold text-slate-900">
        {props.heading || t('widgets.reviews.heading')}
      </h2>
      {!hydrated ? (
        product ? (
          <a href={`/${product.slug}`} className="font-medium text-brand-700 underline">
            {t('widgets.reviews.see')}
          </a>
        ) : null
      ) : null}
      {reviews.length ? (
        <ul className="space-y-3" data-reviews-list>
          {reviews.map((review) => (
            <ReviewCard key={review.id} review={review} />
          ))}
        </ul>
      ) : null}
      {state === 'loading' ? (
        <p role="status" className="mt-3 text-sm text-slate-500" data-reviews-loading>
          {t('widgets.reviews.loading')}
        </p>
      ) : null}
      {state === 'loaded' && reviews.length === 0 ? (
        <p className="text-slate-600" data-reviews-empty>
          {t('widgets.reviews.empty')}{' '}
          <a href="/login" className="font-medium text-brand-700 underline">
            {t('widgets.reviews.first')}
          </a>
        </p>
      ) : null}
      {next ? (
        <button
          type="button"
          // Stays in place (and focused) while the next page loads: aria-disabled, not disabled.
          aria-disabled={state === 'loading' || undefined}
          onClick={() => {
            if (state !== 'loading') void load(next)
          }}
          data-reviews-more
          className="mt-4 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        >
          {t('widgets.reviews.more')}
        </button>
      ) : null}
    </section>
  )
}
