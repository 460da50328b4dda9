// POST /{slug}/review: a student with access to the course rates it (10 recommended, 5 neutral,
// 0 not recommended) with optional text, once. New reviews wait for the owner's approval (seed 001
// §4) and notify the school's staff. Script calls (the player's fetcher) get data back; a plain
// form post (no JavaScript) is redirected back to the page it came from.
// The hydrated form sends js=1 (Remix strips `.data` before the action sees the URL).
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { data } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getCourseAccess } from '#app/models/course-access.server.ts'
import { notifyStaff } from '#app/models/notification.server.ts'
import { createReview, firstNameOf, getMyReview, getReviewableCourse, REVIEW_BODY_MAX } from '#app/models/review.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'
import { isDataRequest } from '#app/utils/security.server.ts'
import { msg, parseForm, safeRedirect, type FieldErrors } from '#app/utils/validation.ts'

const ReviewSchema = z.object({
  rating: z.enum(['10', '5', '0'], { errorMap: () => ({ message: msg('engagement.review.error.rating') }) }).transform((v) => Number(v) as 10 | 5 | 0),
  body: z
    .string()
    .default('')
    .transform((s) => s.replace(/\r\n/g, '\n').trim())
    .pipe(z.string().max(REVIEW_BODY_MAX)),
  redirectTo: z.string().max(500).optional().catch(undefined),
  /** Set by the hydrated form: answer data to the fetcher instead of redirecting the page. */
  js: z.string().max(1).optional(),
})

/** GET has nothing to show: the form lives on the course's player page. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const course = await getReviewableCourse(context.db, tenant.id, String(params.slug ?? '').slice(0, 200))
  if (!course) notFound()
  throw redirect(`/${course.slug}/watch#course-review`)
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  // Another school's course: 404 for everyone, before sign-in is asked for.
  const course = await getReviewableCourse(context.db, tenant.id, String(params.slug ?? '').slice(0, 200))
  if (!course) notFound()
  const user = await requireUser(request, context)
  const access = await getCourseAccess(context.db, tenant.id, course.id, { id: user.id, role: user.role })
  // Reviews are the students' voice: staff have no review to give, strangers no access.
  if (!access.allowed || access.staff) notFound()
  const parsed = await parseForm(ReviewSchema, request)
  const script = isDataRequest(request) || (parsed.ok ? parsed.data.js : parsed.values.js) === '1'
  const back = (state: string) => {
    // A refused form echoes at most 500 characters of a field: a value that long may be cut short, so it is not followed.
    const asked = parsed.ok ? parsed.data.redirectTo : parsed.values.redirectTo
    const to = new URL(safeRedirect(asked && asked.length < 500 ? asked : undefined, `/${course.slug}/watch`, request), 'http://x')
    to.searchParams.set('review', state)
    return redirect(`${to.pathname}${to.search}#course-review`, 303)
  }
  const refuse = (errors: FieldErrors, status: number) => (script ? data({ ok: false as const, errors, review: null }, { status }) : back('error'))
  if (!parsed.ok) return refuse(parsed.errors, 422)
  const created = await createReview(context.db, tenant.id, { productId: course.id, userId: user.id, firstName: firstNameOf(user.name), rating: parsed.data.rating, body: parsed.data.body })
  if (!created) {
    const existing = await getMyReview(context.db, tenant.id, course.id, user.id)
    return script ? data({ ok: false as const, errors: { form: { key: 'engagement.review.error.already' } }, review: existing }, { status: 409 }) : back('exists')
  }
  await notifyStaff(context, tenant.id, {
    kind: 'review',
    subjectId: created.id,
    actorName: created.firstName,
    excerpt: created.body,
    link: `/home/reviews?status=pending&product=${course.id}`,
    origin: new URL(request.url).origin,
  })
  const review = { rating: created.rating, body: created.body, status: created.status }
  return script ? data({ ok: true as const, errors: {} as FieldErrors, review }) : back('sent')
}
