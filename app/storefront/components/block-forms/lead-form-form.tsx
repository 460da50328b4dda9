import { LEAD_FIELD_TYPES, type BlockProps, type LeadField } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Check, Choice, ListEditor, TextArea, TextInput, type FormProps } from './parts.tsx'

type Props = BlockProps<'lead_form'>
type Option = LeadField['options'][number]

export function LeadFormForm({ value, onChange, errors }: FormProps<Props>) {
  const t = useT()
  const set = <K extends keyof Props>(key: K, v: Props[K]) => onChange({ ...value, [key]: v })
  return (
    <div className="space-y-5">
      <ListEditor<LeadField>
        label={t('subpages.f.fields')}
        path="fields"
        errors={errors}
        items={value.fields}
        max={12}
        onChange={(fields) => set('fields', fields)}
        make={() => ({
          label: '',
          placeholder: '',
          name: `field_${value.fields.length + 1}`,
          type: 'text',
          required: false,
          checked: false,
          options: [],
        })}
        itemLabel={(i) => value.fields[i]?.label || t('subpages.f.field_n', { n: i + 1 })}
        render={(field, i, update) => (
          <>
            <div className="grid gap-3 sm:grid-cols-3">
              <TextInput label={t('subpages.f.field_label')} path={`fields.${i}.label`} errors={errors} value={field.label} onChange={(v) => update({ ...field, label: v })} maxLength={80} />
              <TextInput label={t('subpages.f.field_name')} path={`fields.${i}.name`} errors={errors} value={field.name} onChange={(v) => update({ ...field, name: v })} maxLength={40} />
              <Choice
                label={t('subpages.f.field_type')}
                path={`fields.${i}.type`}
                errors={errors}
                value={field.type}
                onChange={(v) => update({ ...field, type: v })}
                choices={LEAD_FIELD_TYPES.map((type) => ({
                  value: type,
                  label: t(`subpages.field_type.${type}`),
                }))}
              />
            </div>
            <TextInput
              label={t('subpages.f.placeholder')}
              path={`fields.${i}.placeholder`}
              errors={errors}
              value={field.placeholder}
              onChange={(v) => update({ ...field, placeholder: v })}
              maxLength={120}
            />
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              <Check label={t('subpages.f.required')} path={`fields.${i}.required`} errors={errors} checked={field.required} onChange={(v) => update({ ...field, required: v })} />
              {field.type === 'checkbox' ? (
                <Check label={t('subpages.f.checked')} path={`fields.${i}.checked`} errors={errors} checked={field.checked} onChange={(v) => update({ ...field, checked: v })} />
              ) : null}
            </div>
            {field.type === 'select' || field.type === 'radio' ? (
              <ListEditor<Option>
                label={t('subpages.f.options')}
                path={`fields.${i}.options`}
                errors={errors}
                items={field.options}
                max={20}
                onChange={(options) => update({ ...field, options })}
                make={() => ({ value: '', text: '' })}
                itemLabel={(j) => t('subpages.f.option_n', { n: j + 1 })}
                render={(option, j, updateOption) => (
                  <div className="grid gap-3 sm:grid-cols-2">
                    <TextInput
                      label={t('subpages.f.option_value')}
                      path={`fields.${i}.options.${j}.value`}
                      errors={errors}
                      value={option.value}
                      onChange={(v) => updateOption({ ...option, value: v })}
                      maxLength={80}
                    />
                    <TextInput
                      label={t('subpages.f.option_text')}
                      path={`fields.${i}.options.${j}.text`}
                      errors={errors}
                      value={option.text}
                      onChange={(v) => updateOption({ ...option, text: v })}
                      maxLength={120}
                    />
                  </div>
                )}
              />
            ) : null}
          </>
        )}
      />
      <ListEditor<Props['hiddenFields'][number]>
        label={t('subpages.f.hidden_fields')}
        path="hiddenFields"
        errors={errors}
        items={value.hiddenFields}
        max={10}
        onChange={(hiddenFields) => set('hiddenFields', hiddenFields)}
        make={() => ({ name: '', value: '' })}
        itemLabel={(i) => t('subpages.f.hidden_n', { n: i + 1 })}
        render={(field, i, update) => (
          <div className="grid gap-3 sm:grid-cols-2">
            <TextInput label={t('subpages.f.field_name')} path={`hiddenFields.${i}.name`} errors={errors} value={field.name} onChange={(v) => update({ ...field, name: v })} maxLength={40} />
            <TextInput label={t('subpages.f.hidden_value')} path={`hiddenFields.${i}.value`} errors={errors} value={field.value} onChange={(v) => update({ ...field, value: v })} maxLength={200} />
          </div>
        )}
      />
      <Check label={t('subpages.f.show_labels')} path="labels" errors={errors} checked={value.labels} onChange={(v) => set('labels', v)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput
          label={t('subpages.f.success_header')}
          path="successHeader"
          errors={errors}
          value={value.successHeader}
          onChange={(v) => set('successHeader', v)}
          maxLength={120}
          hint={t('subpages.f.success_header_hint')}
        />
        <TextInput
          label={t('subpages.f.redirect')}
          path="redirectTo"
          errors={errors}
          value={value.redirectTo}
          onChange={(v) => set('redirectTo', v)}
          maxLength={500}
          hint={t('subpages.f.redirect_hint')}
        />
      </div>
      <TextArea
        label={t('subpages.f.success_text')}
        path="successText"
        errors={errors}
        value={value.successText}
        onChange={(v) => set('successText', v)}
        rows={3}
        maxLength={2000}
        hint={t('subpages.f.markdown_hint')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput
          label={t('subpages.f.button_text')}
          path="buttonText"
          errors={errors}
          value={value.buttonText}
          onChange={(v) => set('buttonText', v)}
          maxLength={40}
          hint={t('subpages.f.button_text_hint')}
        />
        <TextInput
          label={t('subpages.f.button_class')}
          path="buttonClass"
          errors={errors}
          value={value.buttonClass}
          onChange={(v) => set('buttonClass', v)}
          maxLength={200}
          hint={t('subpages.f.button_class_hint')}
        />
      </div>
    </div>
  )
}
