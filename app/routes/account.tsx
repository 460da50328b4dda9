// The signed-in user's own account (issue 23 item 12), for students, owners and admins alike on the
// school's host: name, e-mail (confirmed by a link sent to the new address), password (the other
// sessions end), "download my data" (/account/data) and, for students, deleting the account.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { requireUser, homePathFor } from '#app/auth/auth.server.ts'
import { updateUserName } from '#app/models/user.server.ts'
import { changePassword, deleteOwnAccount, requestEmailChange } from '#app/students/account.server.ts'
import { AccountPage, NAME_MAX } from '#app/students/components/account-page.tsx'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { clearSessionCookie } from '#app/utils/session-cookie.server.ts'
import { getT, requireSchool } from '#app/utils/request.server.ts'
import { email, msg, parseForm, password, text } from '#app/utils/validation.ts'

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('name'), name: text({ max: NAME_MAX }) }),
  z.object({ intent: z.literal('email'), email: email() }),
  z.object({ intent: z.literal('password'), currentPassword: z.string().min(1, { message: msg('validation.required') }).max(200), newPassword: password() }),
  z.object({ intent: z.literal('delete'), password: z.string().min(1, { message: msg('validation.required') }).max(200) }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context)
  return {
    title: `${getT(request, context)('account.title')} · ${tenant.name}`,
    user: { name: user.name, email: user.email, role: user.role },
    home: homePathFor(user.role),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context)
  const parsed = await parseForm(ActionSchema, request)
  // Passwords are never sent back into the form.
  if (!parsed.ok) return formError(parsed.errors, { ...parsed.values, currentPassword: '', newPassword: '', password: '' })
  const input = parsed.data
  const ctx = { context, tenant }
  const me = { id: user.id, sessionId: user.sessionId }

  if (input.intent === 'name') {
    await updateUserName(context.db, tenant.id, user.id, input.name)
    return redirectWithFlash(request, '/account', { done: 'account_name', message: 'account.name.saved' })
  }
  if (input.intent === 'email') {
    const outcome = await requestEmailChange(ctx, me, input.email)
    if (outcome !== 'sent') return formError({ email: { key: `account.email.error.${outcome}` } }, { intent: 'email', email: input.email }, outcome === 'too_soon' ? 429 : 409)
    return redirectWithFlash(request, '/account', { done: 'account_email', message: 'account.email.sent', values: { email: input.email.toLowerCase() }, tone: 'info' })
  }
  if (input.intent === 'password') {
    const outcome = await changePassword(ctx, me, input.currentPassword, input.newPassword)
    if (outcome === 'wrong_password') return formError({ currentPassword: { key: 'account.password.error.wrong' } }, { intent: 'password' }, 403)
    return redirectWithFlash(request, '/account', { done: 'account_password', message: 'account.password.saved' })
  }
  const outcome = await deleteOwnAccount(ctx, me, input.password)
  if (outcome === 'staff') return formError({ form: { key: 'account.delete.staff' } }, { intent: 'delete' }, 403)
  if (outcome === 'wrong_password') return formError({ password: { key: 'account.password.error.wrong' } }, { intent: 'delete' }, 403)
  // The account is gone and so is this session: the cookie goes too.
  const headers = new Headers({ 'Set-Cookie': clearSessionCookie(request) })
  return redirectWithFlash(request, '/', { done: 'account_deleted', message: 'account.delete.done' }, { headers })
}

export default function AccountRoute() {
  return <AccountPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />
}

