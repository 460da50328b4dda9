import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useLoaderData, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Card, PageTitle } from '#app/components/ui.tsx'
import { VideoUpload } from '#app/media/components/video-upload.tsx'
import { refreshStaleVideos } from '#app/media/video-view.server.ts'
import { formatLength, isSettled } from '#app/domain/video-view.ts'
import { VideoStateBadge } from '#app/media/components/video-state.tsx'
import { listVideos } from '#app/models/video.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getT } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  let videos = await listVideos(context.db, tenant.id)
  // Webhooks can be late or lost: a few unsettled videos are read from Bunny on each view.
  if (await refreshStaleVideos(context, tenant.id, videos)) videos = await listVideos(context.db, tenant.id)
  return {
    title: `${getT(request, context)('videos.title')} · ${tenant.name}`,
    videos: videos.map((v) => ({ id: v.id, title: v.title, state: v.state, size: v.size, lengthSeconds: v.lengthSeconds, createdAt: v.createdAt })),
  }
}

export default function VideosPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  const locale = useLocale()
  const revalidator = useRevalidator()
  const size = new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 })
  const unsettled = data.videos.some((v) => !isSettled(v.state))

  // While something is transcoding, the list follows it (the webhook updates D1; this reads it).
  useEffect(() => {
    if (!unsettled) return
    const timer = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate()
    }, 5000)
    return () => clearInterval(timer)
  }, [unsettled, revalidator])

  return (
    <div className="space-y-6">
      <Link to="/home" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('home.title')}
      </Link>
      <PageTitle subtitle={t('videos.intro')}>{t('videos.title')}</PageTitle>
      <FlashMessage only={['deleted']} />
      <noscript>
        <Alert tone="info">{t('videos.upload.no_js')}</Alert>
      </noscript>
      <Card>
        <VideoUpload withTitle onUploaded={() => revalidator.revalidate()} />
      </Card>
      <Card>
        {data.videos.length === 0 ? (
          <p className="text-sm text-slate-600">{t('videos.empty')}</p>
        ) : (
          <DataTable
            data-video-list
            rows={data.videos}
            rowKey={(v) => v.id}
            rowProps={(v) => ({ 'data-video-row': v.id })}
            columns={[
              {
                key: 'title',
                header: t('videos.col.title'),
                cell: (v) => (
                  <Link to={`/home/videos/${v.id}`} className="font-medium text-brand-700 hover:underline">
                    {v.title}
                  </Link>
                ),
              },
              { key: 'state', header: t('videos.col.state'), cell: (v) => <VideoStateBadge state={v.state} /> },
              { key: 'length', header: t('videos.col.length'), className: 'tabular-nums', cell: (v) => formatLength(v.lengthSeconds) },
              { key: 'size', header: t('videos.col.size'), className: 'tabular-nums', cell: (v) => size.format(v.size / (1024 * 1024)) },
              { key: 'added', header: t('videos.col.added'), cell: (v) => <span className="text-slate-600">{formatDate(v.createdAt, locale)}</span> },
            ]}
          />
        )}
      </Card>
    </div>
  )
}
