import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { IMPORT_TEXT_MAX, SEARCH_MAX, StudentsPage, type ActionData } from '#app/students/components/students-page.tsx'
import { addStudent, importStudents, IMPORT_MAX, listStudents, NAME_MAX, parseImport } from '#app/models/student.server.ts'
import { sendInvitations } from '#app/students/invitations.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { email, text } from '#app/utils/validation.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'

const ListQuery = z.object({
  q: z.string().max(SEARCH_MAX).catch('').default(''),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
})

const AddSchema = z.object({ name: text({ max: NAME_MAX }), email: email() })
const ImportSchema = z.object({ emails: z.string().max(IMPORT_TEXT_MAX) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const url = new URL(request.url)
  const query = ListQuery.parse({ q: url.searchParams.get('q') ?? undefined, page: url.searchParams.get('page') ?? undefined })
  const list = await listStudents(context.db, tenant.id, { search: query.q, page: query.page })
  // Limits travel as data: the component must not import the server model.
  return { title: `${getT(request, context)('students.title')} · ${tenant.name}`, search: query.q.trim(), ...list, limits: { name: NAME_MAX, import: IMPORT_MAX } }
}

export const action = staffAction({
  intents: (intent) => ({
    add: intent(AddSchema, async (input, { tenant, request, context }) => {
      const student = await addStudent(context.db, tenant.id, { name: input.name, email: input.email })
      if (!student) return formError({ email: { key: 'students.add.exists' } }, { intent: 'add', name: input.name, email: input.email }, 409)
      // E-mailed links use the school's configured address, never this request's Host (issue 19 §6).
      await sendInvitations(context.db, context.cloudflare.env.MAIL_QUEUE, tenant, await schoolEmailOrigin(context), [student])
      throw redirectWithFlash(request, `/home/students/${student.id}`, { done: 'added', message: 'students.done.added' })
    }),
    import: intent(ImportSchema, async (input, { tenant, context }) => {
      const values = { intent: 'import', emails: input.emails }
      const lines = parseImport(input.emails)
      if (!lines.ok) {
        if (lines.reason === 'empty') return formError({ emails: { key: 'validation.required' } }, values)
        if (lines.reason === 'too_many') return formError({ emails: { key: 'students.import.over_limit', values: { max: IMPORT_MAX, count: lines.count } } }, values)
        return data<ActionData>({ errors: { emails: { key: 'students.import.invalid' } }, values, invalid: lines.invalid }, { status: 400 })
      }
      const result = await importStudents(context.db, tenant.id, lines.emails)
      await sendInvitations(context.db, context.cloudflare.env.MAIL_QUEUE, tenant, await schoolEmailOrigin(context), result.created)
      return data<ActionData>({ report: { created: result.created.map((s) => s.email), existing: result.existing, duplicates: result.duplicates } })
    }),
  }),
})

export default function StudentsRoute() {
  return <StudentsPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>() as ActionData | undefined} />
}
