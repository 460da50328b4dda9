// The fields of a community topic (instructor panel: the "New topic" form and the topic's edit form).
import { CheckField, Field, FieldError, SelectField, TextAreaField } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export type ProductChoice = { id: string; title: string; kind: string }

/** What the server allows, from the loader (the limits and the access enum live in server modules). */
export type FormRules = { titleMax: number; descriptionMax: number; access: readonly string[] }

export function TopicFields({ values, errors, products, rules }: { values: FormValues; errors: FieldErrors; products: ProductChoice[]; rules: FormRules }) {
  const t = useT()
  const courses = products.filter((p) => p.kind === 'course')
  return (
    <>
      <Field label={t('community_admin.field.title')} name="title" required maxLength={rules.titleMax} defaultValue={values.title} error={errors.title} />
      <TextAreaField
        label={t('community_admin.field.description')}
        name="description"
        rows={3}
        maxLength={rules.descriptionMax}
        hint={t('community_admin.field.description_hint')}
        defaultValue={values.description}
        error={errors.description}
      />
      <CheckField label={t('community_admin.field.allow_posts')} name="allowStudentsToAddPosts" defaultChecked={values.allowStudentsToAddPosts === 'on'} error={errors.allowStudentsToAddPosts} />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">{t('community_admin.field.access')}</legend>
        {rules.access.map((access) => (
          <label key={access} className="flex items-start gap-2 text-sm">
            <input type="radio" name="access" value={access} defaultChecked={(values.access || 'public') === access} className="mt-1" />
            <span>
              <span className="font-medium">{t(`community_admin.access.${access}`)}</span>
              <span className="block text-slate-500">{t(`community_admin.access.${access}_hint`)}</span>
            </span>
          </label>
        ))}
        <FieldError name="access" error={errors.access} />
      </fieldset>
      <fieldset className="space-y-2" data-topic-products>
        <legend className="text-sm font-medium text-slate-700">{t('community_admin.field.products')}</legend>
        <p className="text-xs text-slate-500">{t('community_admin.field.products_hint')}</p>
        {products.length === 0 ? <p className="text-sm text-slate-600">{t('community_admin.field.no_products')}</p> : null}
        <div className="grid max-h-64 gap-1 overflow-y-auto sm:grid-cols-2">
          {products.map((p) => (
            <label key={p.id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name={`product_${p.id}`} defaultChecked={values[`product_${p.id}`] === 'on'} className="size-4" />
              <span>
                {p.title} <span className="text-slate-500">· {t(`products.kind.${p.kind}`)}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldError name="products" error={errors.products} />
      </fieldset>
      <SelectField
        label={t('community_admin.field.course')}
        name="courseId"
        hint={t('community_admin.field.course_hint')}
        defaultValue={values.courseId ?? ''}
        error={errors.courseId}
        options={[{ value: '', label: t('community_admin.field.course_none') }, ...courses.map((c) => ({ value: c.id, label: c.title }))]}
      />
    </>
  )
}
