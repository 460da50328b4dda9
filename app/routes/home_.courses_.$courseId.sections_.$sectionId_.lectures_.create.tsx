// /home/courses/:courseId/sections/:sectionId/lectures/create — the new-lecture form (it posts to .../lectures).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { NewLecturePage } from '#app/courses/components/course-new-lecture.tsx'
import { newLectureData } from '#app/courses/lecture-form.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return newLectureData(request, context, params)
}

export default function NewLectureForm() {
  return <NewLecturePage data={useLoaderData<typeof loader>()} />
}
