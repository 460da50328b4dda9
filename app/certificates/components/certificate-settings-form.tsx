// One course's certificate settings (the owner's /home/certificates/{courseId}): a plain multipart
// form, so it works without JavaScript.
import { Form, Link, useNavigation } from '@remix-run/react'
import { FlashMessage } from '#app/components/flash.tsx'
import { Button, Card, CheckField, Field, FieldError, PageTitle, SelectField } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors } from '#app/utils/validation.ts'

export type SettingsAnswer = { errors: FieldErrors; values: Record<string, string> }
type Settings = { enabled: boolean; language: string; signatureName: string; signatureImageUrl: string | null; updatedAt: number }

export function CertificateSettingsForm({
  course,
  schoolLanguage,
  issued,
  settings,
  answer,
}: {
  course: { id: string; title: string }
  schoolLanguage: 'en' | 'pl'
  issued: number
  settings: Settings
  answer: SettingsAnswer | null
}) {
  const t = useT()
  const busy = useNavigation().state !== 'idle'
  const errors = answer?.errors ?? {}
  const values = answer?.values
  const enabled = values ? values.enabled === 'on' : settings.enabled
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/home/certificates" className="font-semibold text-brand-700 hover:underline">
          ← {t('certificates.back')}
        </Link>
      </p>
      <PageTitle subtitle={t('certificates.settings.rule')}>{t('certificates.settings.title', { course: course.title })}</PageTitle>
      <FlashMessage hidden={Boolean(answer)} />
      <p className="text-sm text-slate-600" data-certificates-issued={issued}>
        {t('certificates.settings.issued', { count: issued })}
      </p>
      <Card>
        <Form method="post" encType="multipart/form-data" className="space-y-4" data-certificate-settings key={settings.updatedAt}>
          <input type="hidden" name="intent" value="save" />
          <CheckField label={t('certificates.settings.enabled')} name="enabled" defaultChecked={enabled} error={errors.enabled} />
          <SelectField
            label={t('certificates.settings.language')}
            name="language"
            defaultValue={values?.language ?? settings.language}
            error={errors.language}
            options={[
              { value: '', label: t('certificates.settings.language_school', { language: t(`certificates.settings.language_${schoolLanguage}`) }) },
              { value: 'en', label: t('certificates.settings.language_en') },
              { value: 'pl', label: t('certificates.settings.language_pl') },
            ]}
          />
          <Field
            label={t('certificates.settings.signature_name')}
            name="signatureName"
            defaultValue={values?.signatureName ?? settings.signatureName}
            maxLength={120}
            hint={t('certificates.settings.signature_name_hint')}
            error={errors.signatureName}
          />
          <div className="space-y-1">
            <label htmlFor="signature-image" className="block text-sm font-medium text-slate-700">
              {t('certificates.settings.signature_image')}
            </label>
            <input
              id="signature-image"
              type="file"
              name="signatureImage"
              accept="image/png,image/jpeg"
              aria-describedby="signature-image-hint"
              aria-invalid={errors.signatureImage ? true : undefined}
              className="block text-sm"
            />
            <p id="signature-image-hint" className="text-xs text-slate-600">
              {t('certificates.settings.signature_image_hint')}
            </p>
            <FieldError name="signatureImage" error={errors.signatureImage} />
          </div>
          {settings.signatureImageUrl ? (
            <div className="space-y-2">
              <img src={settings.signatureImageUrl} alt={t('certificates.settings.signature_current')} className="h-16 w-auto rounded border border-slate-200 bg-white p-1" data-signature-image />
              <CheckField label={t('certificates.settings.signature_remove')} name="removeSignature" />
            </div>
          ) : null}
          <Button type="submit" disabled={busy}>
            {t('certificates.settings.save')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
