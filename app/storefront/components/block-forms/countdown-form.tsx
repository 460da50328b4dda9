import type { BlockProps } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Check, Choice, NumberInput, TextArea, TextInput, type FormProps } from './parts.tsx'

/** ISO instant ↔ the value of a datetime-local input (the creator's own time zone). */
function toLocalInput(iso: string) {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return ''
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}
function fromLocalInput(value: string) {
  const ms = Date.parse(value)
  return value && !Number.isNaN(ms) ? new Date(ms).toISOString() : ''
}

export function CountdownForm({ value, onChange, errors }: FormProps<BlockProps<'countdown'>>) {
  const t = useT()
  const set = <K extends keyof BlockProps<'countdown'>>(key: K, v: BlockProps<'countdown'>[K]) => onChange({ ...value, [key]: v })
  return (
    <div className="space-y-4">
      <TextInput label={t('subpages.f.heading')} path="heading" errors={errors} value={value.heading} onChange={(v) => set('heading', v)} maxLength={120} />
      <Choice
        label={t('subpages.f.mode')}
        path="mode"
        errors={errors}
        value={value.mode}
        onChange={(v) => set('mode', v)}
        choices={[
          { value: 'date', label: t('subpages.f.mode_date') },
          { value: 'seconds', label: t('subpages.f.mode_seconds') },
        ]}
      />
      {value.mode === 'date' ? (
        <TextInput label={t('subpages.f.end_date')} path="date" type="datetime-local" errors={errors} value={toLocalInput(value.date)} onChange={(v) => set('date', fromLocalInput(v))} />
      ) : (
        <NumberInput
          label={t('subpages.f.seconds')}
          path="seconds"
          errors={errors}
          value={value.seconds}
          onChange={(v) => set('seconds', v)}
          min={1}
          max={31_536_000}
          hint={t('subpages.f.seconds_hint')}
        />
      )}
      <Check label={t('subpages.f.test_mode')} path="testMode" errors={errors} checked={value.testMode} onChange={(v) => set('testMode', v)} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextInput label={t('subpages.f.bg_color')} path="bgColorHex" errors={errors} value={value.bgColorHex} onChange={(v) => set('bgColorHex', v)} maxLength={7} placeholder="#0f172a" />
        <TextInput label={t('subpages.f.text_color')} path="textColorHex" errors={errors} value={value.textColorHex} onChange={(v) => set('textColorHex', v)} maxLength={7} placeholder="#ffffff" />
        <TextInput label={t('subpages.f.classes')} path="customClasses" errors={errors} value={value.customClasses} onChange={(v) => set('customClasses', v)} maxLength={200} />
      </div>
      <TextArea
        label={t('subpages.f.after_content')}
        path="afterContent"
        errors={errors}
        value={value.afterContent}
        onChange={(v) => set('afterContent', v)}
        rows={3}
        maxLength={2000}
        hint={t('subpages.f.markdown_hint')}
      />
    </div>
  )
}
