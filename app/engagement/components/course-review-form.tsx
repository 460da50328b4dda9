// The student's review of a course (issue 7 item 5): recommended 10 / neutral 5 / not recommended 0
// as a radio group, optional text up to 2000 characters, one per student. Posts to /{slug}/review
// (a fetcher with JavaScript, a plain form post without); afterwards it shows the review's state.
import { useFetcher, useLocation } from '@remix-run/react'
import { useEffect, useState } from 'react'
import type { MyReview } from '#app/storefront/review-types.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'
import { Alert, Button, cx } from '#app/components/ui.tsx'

export const REVIEW_TEXT_MAX = 2000
const RATINGS = [10, 5, 0] as const

type ReviewAnswer = { ok: boolean; errors: FieldErrors; review: MyReview | null }

/** The label of a rating (conversions from comments may carry 1: negative). */
export function ratingKey(rating: number) {
  return rating >= 10 ? 'widgets.reviews.rating.10' : rating >= 5 ? 'widgets.reviews.rating.5' : 'widgets.reviews.rating.0'
}

/** A student with access rates the course (10 recommended, 5 neutral, 0 not recommended) with optional text; posts to /{slug}/review. */
export function CourseReviewForm({ slug, review }: { slug: string; review: MyReview | null }) {
  const t = useT()
  const field = useFieldMessage()
  const location = useLocation()
  const fetcher = useFetcher<ReviewAnswer>()
  const [length, setLength] = useState(0)
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined
  const current = review ?? answer?.review ?? null
  const sent = new URLSearchParams(location.search).get('review')

  if (current) {
    const tone = current.status === 'approved' ? 'success' : current.status === 'disapproved' ? 'error' : 'info'
    return (
      <section id="course-review" aria-labelledby="course-review-title" className="space-y-3 rounded-xl border border-slate-200 bg-white p-5" data-course-review-form={slug} data-review-status={current.status}>
        <h2 id="course-review-title" className="text-lg font-semibold text-slate-900">
          {t('engagement.review.yours')}
        </h2>
        <div
          className={cx(
            'rounded-md border px-4 py-3 text-sm',
            tone === 'success' && 'border-emerald-200 bg-emerald-50 text-emerald-800',
            tone === 'error' && 'border-slate-200 bg-slate-50 text-slate-700',
            tone === 'info' && 'border-sky-200 bg-sky-50 text-sky-800',
          )}
          role="status"
        >
          {t(`engagement.review.state.${current.status}`)}
        </div>
        <p className="text-sm font-semibold text-slate-800">{t(ratingKey(current.rating))}</p>
        <p className="whitespace-pre-line text-sm text-slate-700">{current.body || t('widgets.reviews.no_text')}</p>
      </section>
    )
  }

  const errors = answer?.errors ?? {}
  const busy = fetcher.state !== 'idle'
  return (
    <section id="course-review" aria-labelledby="course-review-title" className="rounded-xl border border-slate-200 bg-white p-5" data-course-review-form={slug} data-review-status="none">
      <h2 id="course-review-title" className="text-lg font-semibold text-slate-900">
        {t('engagement.review.title')}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t('engagement.review.intro')}</p>
      <fetcher.Form method="post" action={`/${slug}/review`} className="mt-4 space-y-4">
        <input type="hidden" name="redirectTo" value={location.pathname} />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        {errors.form ? <Alert>{field(errors.form)}</Alert> : sent === 'error' ? <Alert>{t('engagement.review.error.generic')}</Alert> : null}
        <fieldset aria-describedby={errors.rating ? 'course-review-rating-error' : undefined}>
          <legend className="text-sm font-medium text-slate-700">{t('engagement.review.rating')}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {RATINGS.map((rating) => (
              <label
                key={rating}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
              >
                <input type="radio" name="rating" value={rating} required className="h-4 w-4 accent-brand-600" />
                {t(ratingKey(rating))}
              </label>
            ))}
          </div>
          {errors.rating ? (
            <p id="course-review-rating-error" className="mt-1 text-sm text-red-600" data-field-error="rating">
              {field(errors.rating)}
            </p>
          ) : null}
        </fieldset>
        <div className="space-y-1">
          <label htmlFor="course-review-body" className="block text-sm font-medium text-slate-700">
            {t('engagement.review.body')}
          </label>
          <textarea
            id="course-review-body"
            name="body"
            rows={4}
            maxLength={REVIEW_TEXT_MAX}
            onChange={(e) => setLength(e.target.value.length)}
            aria-invalid={errors.body ? true : undefined}
            aria-describedby="course-review-body-count"
            className={cx(
              'block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100',
              errors.body ? 'border-red-500' : 'border-slate-300',
            )}
          />
          <p id="course-review-body-count" className="text-xs text-slate-500">
            {t('engagement.review.count', { length, max: REVIEW_TEXT_MAX })}
          </p>
          {errors.body ? (
            <p className="text-sm text-red-600" data-field-error="body">
              {field(errors.body)}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={busy} data-review-submit>
          {busy ? t('engagement.review.sending') : t('engagement.review.submit')}
        </Button>
      </fetcher.Form>
    </section>
  )
}
