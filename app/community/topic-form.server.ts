// The community topic form of the instructor panel (issue 22 item 1), shared by /home/community
// (new topic) and /home/community/:topicId (edit): its zod schema and the checks that need the
// school's products. Products are one checkbox each (`product_<id>`), so the form works without JS.
import { z } from 'zod'
import { COMMUNITY_TOPIC_ACCESS } from '#app/db/schema.server.ts'
import { TOPIC_DESCRIPTION_MAX, TOPIC_TITLE_MAX, type TopicInput } from '#app/models/community.server.ts'
import { text, type FieldErrors } from '#app/utils/validation.ts'

/** One checkbox per product (`product_<id>`): a form field holds one value, and this works without JavaScript. */
const PRODUCT_FIELD = /^product_([a-z0-9]{1,64})$/
const MAX_TOPIC_PRODUCTS = 200

export const TopicSchema = z
  .object({
    title: text({ max: TOPIC_TITLE_MAX }),
    description: z
      .string()
      .default('')
      .transform((s) => s.trim())
      .pipe(z.string().max(TOPIC_DESCRIPTION_MAX)),
    // An unticked checkbox is not sent at all.
    allowStudentsToAddPosts: z
      .string()
      .optional()
      .transform((v) => v === 'on'),
    access: z.enum(COMMUNITY_TOPIC_ACCESS).default('public'),
    courseId: z.string().trim().max(64).default(''),
  })
  .passthrough()
  .transform(
    ({ title, description, allowStudentsToAddPosts, access, courseId, ...rest }): TopicInput => ({
      title,
      description,
      allowStudentsToAddPosts,
      access,
      courseId: courseId || null,
      productIds: Object.keys(rest)
        .flatMap((name) => PRODUCT_FIELD.exec(name)?.[1] ?? [])
        .slice(0, MAX_TOPIC_PRODUCTS),
    }),
  )

type Choice = { id: string; kind: string }

/** The course must be one of the school's courses; a restricted topic needs one of the school's products. */
export function choiceErrors(input: TopicInput, products: Choice[]): FieldErrors | null {
  if (input.courseId && !products.some((p) => p.id === input.courseId && p.kind === 'course')) return { courseId: { key: 'community_admin.error.course' } }
  const own = new Set(products.map((p) => p.id))
  if (input.access === 'restricted' && !input.productIds.some((id) => own.has(id))) return { products: { key: 'community_admin.error.products' } }
  return null
}

/** What the form shows of the server's rules (limits, the access enum). */
export const TOPIC_FORM_RULES = { titleMax: TOPIC_TITLE_MAX, descriptionMax: TOPIC_DESCRIPTION_MAX, access: COMMUNITY_TOPIC_ACCESS }
