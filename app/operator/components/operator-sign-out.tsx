// "Sign out" under the two-factor pages: a half signed-in operator leaves without a code.
import { Form } from '@remix-run/react'
import { Button } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'

export function OperatorSignOut() {
  const t = useT()
  return (
    <Form method="post" action="/operator/logout" className="mt-4 text-center">
      <Button type="submit" variant="secondary">
        {t('operator.two_factor.sign_out')}
      </Button>
    </Form>
  )
}
