import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { z } from 'zod'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { VideoStateBadge } from '#app/media/components/video-state.tsx'
import { refreshStaleVideos } from '#app/media/video-view.server.ts'
import { formatLength, isPlayable, isSettled } from '#app/domain/video-view.ts'
import { videosService } from '#app/media/videos-service.server.ts'
import { getVideo, renameVideo } from '#app/models/video.server.ts'
import { requireStaff, staffAction, type DeclareIntent } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, type FieldErrors } from '#app/utils/validation.ts'

const RenameSchema = z.object({
  intent: z.literal('rename'),
  title: z.string().trim().min(1, msg('videos.error.title_required')).max(200),
})
const DeleteSchema = z.object({
  intent: z.literal('delete'),
  confirm: z.literal('on', { errorMap: () => ({ message: msg('videos.error.confirm_delete') }) }),
})

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

/** Another school's id: 404 for everyone, before sign-in is asked for. */
async function loadVideo(tenant: { id: string }, { context, params }: LoaderFunctionArgs) {
  return (await getVideo(context.db, tenant.id, params.videoId ?? '')) ?? notFound()
}

export async function loader(args: LoaderFunctionArgs) {
  let video = await loadVideo(requireSchool(args.context), args)
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  if (await refreshStaleVideos(context, tenant.id, [video])) video = (await getVideo(context.db, tenant.id, video.id)) ?? video
  // The signed player URL only for a playable video (staff here; students get theirs with lectures).
  let embedUrl: string | null = null
  if (isPlayable(video.state)) {
    const embed = await videosService(context.cloudflare.env, tenant.id).embed(video.id)
    if (embed.ok) embedUrl = embed.body.url
  }
  return {
    pageTitle: `${video.title} · ${getT(request, context)('videos.title')} · ${tenant.name}`,
    video: { id: video.id, title: video.title, state: video.state, size: video.size, lengthSeconds: video.lengthSeconds, originalFilename: video.originalFilename, createdAt: video.createdAt },
    embedUrl,
  }
}

const rename = (intent: DeclareIntent<Awaited<ReturnType<typeof loadVideo>>>) =>
  intent(RenameSchema, async (input, { tenant, request, context, loaded: video }) => {
    await renameVideo(context.db, tenant.id, video.id, input.title)
    throw redirectWithFlash(request, `/home/videos/${video.id}`, { done: 'saved', message: 'videos.saved' })
  })

export const action = staffAction({
  load: loadVideo,
  intents: (intent) => ({
    delete: intent(DeleteSchema, async (_input, { tenant, request, context, loaded: video }) => {
      const removed = await videosService(context.cloudflare.env, tenant.id).remove(video.id)
      if (!removed.ok) return formError({ form: { key: 'error.generic.title' } }, {}, 502)
      throw redirectWithFlash(request, '/home/videos', { done: 'deleted', message: 'videos.deleted' })
    }),
    rename: rename(intent),
    // A form without an intent meets the rename schema's intent check, as before.
    default: rename(intent),
  }),
})

export default function VideoPage() {
  const { video, embedUrl } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const revalidator = useRevalidator()
  const busy = useNavigation().state === 'submitting'
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const size = new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 })

  // Until the video plays, follow its state (the notice says "reload in a few minutes"; we do it for them).
  useEffect(() => {
    // A playing video is not polled: each load signs a new URL, which would restart the player.
    if (isSettled(video.state) || isPlayable(video.state)) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate()
    }, 5000)
    return () => clearInterval(timer)
  }, [video.state, revalidator])

  return (
    <div className="space-y-6">
      <Link to="/home/videos" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('videos.back')}
      </Link>
      <PageTitle subtitle={<VideoStateBadge state={video.state} />}>{video.title}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      <Card>
        {embedUrl ? (
          <div className="relative aspect-video w-full overflow-hidden rounded-md bg-black">
            {/* Seed 000 §4: 16:9, autoplay and preload off (set in the signed URL). */}
            <iframe
              src={embedUrl}
              title={t('videos.player_title', { title: video.title })}
              className="absolute inset-0 size-full border-0"
              loading="lazy"
              allow="accelerometer; gyroscope; encrypted-media; picture-in-picture; fullscreen"
              allowFullScreen
              data-video-player
            />
          </div>
        ) : video.state === 'failed' ? (
          <Alert>{t('videos.failed')}</Alert>
        ) : video.state === 'awaiting_upload' || video.state === 'uploading' ? (
          <Alert tone="info">{t('videos.awaiting')}</Alert>
        ) : (
          <div className="flex items-center gap-3 rounded-md bg-slate-50 p-4 text-sm text-slate-700" data-video-transcoding>
            <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" />
            <p>{t('videos.transcoding')}</p>
          </div>
        )}
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('videos.details')}</h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="text-slate-500">{t('videos.col.length')}</dt>
          <dd className="tabular-nums">{formatLength(video.lengthSeconds)}</dd>
          <dt className="text-slate-500">{t('videos.col.size')}</dt>
          <dd className="tabular-nums">{size.format(video.size / (1024 * 1024))}</dd>
          <dt className="text-slate-500">{t('videos.col.added')}</dt>
          <dd>{formatDate(video.createdAt, locale)}</dd>
        </dl>
        <p className="mt-2 truncate text-xs text-slate-500">{t('videos.file', { name: video.originalFilename })}</p>
        <Form method="post" className="mt-6 flex flex-wrap items-end gap-3" noValidate>
          <input type="hidden" name="intent" value="rename" />
          <div className="min-w-64 flex-1">
            <Field label={t('videos.field.title')} name="title" defaultValue={video.title} maxLength={200} error={errors.title} />
          </div>
          <Button type="submit" disabled={busy}>
            {t('videos.save')}
          </Button>
        </Form>
      </Card>
      <Card>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="delete" />
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input type="checkbox" name="confirm" className="mt-0.5" aria-invalid={errors.confirm ? true : undefined} />
            <span>{t('videos.delete_confirm')}</span>
          </label>
          {errors.confirm ? (
            <p className="mt-1 text-sm text-red-600" data-field-error="confirm">
              {message(errors.confirm)}
            </p>
          ) : null}
          <Button type="submit" variant="danger" disabled={busy} className="mt-3">
            {t('videos.delete')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
