import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { getCourseBySlug } from '#app/player/player.server.ts'
import { notFound, requireSchool } from '#app/utils/request.server.ts'

// GET /{slug}/watch/login (seed 000 §2: the 'Log in now' link under a lecture) → the login page, then back to watching.
export async function loader({ context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const slug = params.slug ?? ''
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > 60) notFound()
  // Only a published course of this school (another school's slug: 404).
  const course = await getCourseBySlug(context.db, tenant.id, slug)
  if (!course || !course.published) notFound()
  return redirect(`/login?redirectTo=${encodeURIComponent(`/${slug}/watch`)}`)
}
