// "Choose a password" + "Confirm it": signup, registration, password reset and invitations.
// The rules (minimum length, confirmation) come with `withConfirmation` in app/utils/validation.ts.
import { useT } from '#app/utils/i18n-react.ts'
import { PASSWORD_MIN, type FieldErrors } from '#app/utils/validation.ts'
import { Field } from '#app/components/ui.tsx'

export function NewPasswordFields({ errors }: { errors?: FieldErrors }) {
  const t = useT()
  return (
    <>
      <Field
        label={t('auth.password')}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN}
        hint={t('auth.password_hint', { count: PASSWORD_MIN })}
        error={errors?.password}
      />
      <Field label={t('auth.password_confirmation')} name="password_confirmation" type="password" autoComplete="new-password" required error={errors?.password_confirmation} />
    </>
  )
}
