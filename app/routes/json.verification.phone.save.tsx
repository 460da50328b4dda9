// POST /json/verification/phone/save {phone_number} (seed 000 §5, §7): the number codes go to,
// prefix plus number stripped to digits. While a login still owes a code, a number can only be
// added, not replaced — otherwise whoever knows the password could redirect the code to their
// own phone. Refusals are 422 'Failed to save phone number.' (seed 000 §8).
import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { z } from 'zod'
import { getUserPhone, maskPhone, saveUserPhone } from '#app/models/verification.server.ts'
import { readBody } from '#app/storefront/search.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { actionOnlyLoader, getT, requireSchool } from '#app/utils/request.server.ts'
import { noStoreJson } from '#app/utils/responses.server.ts'
import { parseWith } from '#app/utils/validation.ts'

/** Digits only after stripping; 8–15 digits is an international number with its prefix (E.164). */
export const PhoneSchema = z.object({
  phone_number: z
    .string()
    .max(40)
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(8).max(15)),
})

export const loader = actionOnlyLoader

export async function action({ request, context }: ActionFunctionArgs) {
  const tenant = requireSchool(context)
  if (request.method !== 'POST') return noStoreJson({ success: false }, 405)
  const user = await requireUser(request, context, undefined, { allowUnverified: true })
  const t = getT(request, context)
  const refuse = () => noStoreJson({ success: false, message: t('verification.error.phone') }, 422)
  const parsed = parseWith(PhoneSchema, (await readBody(request)) ?? {})
  if (!parsed.ok) return refuse()
  if (user.verificationPending && (await getUserPhone(context.db, tenant.id, user.id))) return refuse()
  const phone = await saveUserPhone(context.db, tenant.id, user.id, parsed.data.phone_number)
  if (!phone) return refuse()
  return noStoreJson({ success: true, phone: maskPhone(phone) })
}
