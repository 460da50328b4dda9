import type { BlockProps } from '#app/domain/blocks.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Choice, TextInput, type FormProps } from './parts.tsx'

export function VideoEmbedForm({ value, onChange, errors, options }: FormProps<BlockProps<'video_embed'>>) {
  const t = useT()
  return (
    <div className="space-y-4">
      <Choice
        label={t('subpages.f.provider')}
        path="provider"
        errors={errors}
        value={value.provider}
        onChange={(v) => onChange({ ...value, provider: v })}
        choices={[
          { value: 'youtube', label: 'YouTube' },
          { value: 'vimeo', label: 'Vimeo' },
          { value: 'bunny', label: t('subpages.f.provider_library') },
        ]}
      />
      {value.provider === 'bunny' ? (
        <Choice
          label={t('subpages.f.video')}
          path="videoId"
          errors={errors}
          value={value.videoId}
          onChange={(v) => onChange({ ...value, videoId: v })}
          choices={[{ value: '', label: t('subpages.f.choose') }, ...options.videos.map((v) => ({ value: v.id, label: v.title }))]}
          hint={options.videos.length ? undefined : t('subpages.f.no_videos')}
        />
      ) : (
        <TextInput
          label={t('subpages.f.video_url')}
          path="url"
          type="url"
          errors={errors}
          value={value.url}
          onChange={(v) => onChange({ ...value, url: v })}
          maxLength={300}
          placeholder="https://www.youtube.com/watch?v=…"
        />
      )}
      <TextInput
        label={t('subpages.f.video_title')}
        path="title"
        errors={errors}
        value={value.title}
        onChange={(v) => onChange({ ...value, title: v })}
        maxLength={200}
        hint={t('subpages.f.video_title_hint')}
      />
    </div>
  )
}
