// PLACEHOLDER (lead): the engagement helper replaces this with the student's review form.
import type { MyReview } from '#app/storefront/review-types.ts'

/** A student with access rates the course (10 recommended, 5 neutral, 0 not recommended) with optional text; posts to /{slug}/review. */
export function CourseReviewForm({ slug, review }: { slug: string; review: MyReview | null }) {
  return <div data-course-review-form={slug} data-reviewed={review ? 'yes' : 'no'} />
}
