// One staff guard and one intent action for the school's admin pages (issue 20, convention 2).
// `requireStaff(args)` replaces the `requireSchool` + `requireUser(…, ['owner', 'admin'])` preamble;
// `staffAction({ load, intents })` replaces the guard, the try/catch form read, the intent switch
// and the zod parse of every admin action.
import type { ActionFunctionArgs, AppLoadContext } from '@remix-run/cloudflare'
import type { z } from 'zod'
import type { UserRole } from '#app/db/schema.server.ts'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseWith, readFormFields, type FormValues } from '#app/utils/validation.ts'
import { requireUser, type CurrentUser } from './auth.server.ts'

export const STAFF_ROLES: readonly UserRole[] = ['owner', 'admin']

export type Staff = { tenant: SchoolTenant; user: CurrentUser }

type GuardArgs = { request: Request; context: AppLoadContext }

/**
 * The school and its signed-in owner or admin (or only `roles`). Another host answers 404, a
 * visitor goes to /login (419 for script calls), a student or a role not listed gets 404.
 */
export async function requireStaff({ request, context }: GuardArgs, roles: readonly UserRole[] = STAFF_ROLES): Promise<Staff> {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context, [...roles])
  return { tenant, user }
}

/** The school's owner only (payments, payouts, refunds). */
export const requireOwner = (args: GuardArgs) => requireStaff(args, ['owner'])

export type IntentContext<L> = Staff & {
  args: ActionFunctionArgs
  request: Request
  context: AppLoadContext
  /** What `load` returned (the page's object, checked to belong to this school). */
  loaded: L
  /** The raw fields, for echoing input back beside a domain error. */
  fields: FormValues
}

export type IntentHandler<L, R> = { schema: z.ZodTypeAny; run: (input: never, ctx: IntentContext<L>) => R | Promise<R> }

/** Declares one intent: its zod schema and what it does with the parsed input. */
export type DeclareIntent<L> = <S extends z.ZodTypeAny, R>(schema: S, run: (input: z.output<S>, ctx: IntentContext<L>) => R | Promise<R>) => IntentHandler<L, R>

const declareIntent = <L,>(schema: z.ZodTypeAny, run: (input: never, ctx: IntentContext<L>) => unknown) => ({ schema, run })

type Options<L, I extends Record<string, IntentHandler<L, unknown>>> = {
  roles?: readonly UserRole[]
  /**
   * Loads (and 404s) the object the page is about, once, before sign-in is asked for: another
   * school's id answers 404 to everyone, as the pages' loaders do.
   */
  load?: (tenant: SchoolTenant, args: ActionFunctionArgs) => L | Promise<L>
  /** By the form's `intent` field (a form without one is `default`), declared with the given `intent`. */
  intents: (intent: DeclareIntent<L>) => I
  /** Status of a field-error answer (400 unless the page's contract says 422). */
  invalidStatus?: number
}

type Returned<I> = { [K in keyof I]: I[K] extends IntentHandler<never, infer R> ? Awaited<R> : never }[keyof I]

/**
 * A staff-only action: guard, read the form, pick the intent, parse it with the intent's schema
 * (field errors in the user's language, nothing written), run it. An unknown intent or a body that
 * is not a form answers 400 with a form error.
 */
export function staffAction<L = undefined, I extends Record<string, IntentHandler<L, unknown>> = Record<string, IntentHandler<L, unknown>>>(options: Options<L, I>) {
  const intents = options.intents(declareIntent as DeclareIntent<L>)
  return async (args: ActionFunctionArgs): Promise<Returned<I> | ReturnType<typeof formError>> => {
    const loaded = (options.load ? await options.load(requireSchool(args.context), args) : undefined) as L
    const staff = await requireStaff(args, options.roles)
    const fields = await readFormFields(args.request)
    if (!fields) return formError({ form: { key: 'validation.invalid' } }, {}, 400)
    const handler = intents[fields.intent ?? 'default']
    if (!handler) return formError({ form: { key: 'validation.invalid' } }, {}, 400)
    const parsed = parseWith(handler.schema, fields)
    if (!parsed.ok) return formError(parsed.errors, parsed.values, options.invalidStatus ?? 400)
    const run = handler.run as (input: unknown, ctx: IntentContext<L>) => unknown
    return (await run(parsed.data, { ...staff, args, request: args.request, context: args.context, loaded, fields })) as Returned<I>
  }
}
