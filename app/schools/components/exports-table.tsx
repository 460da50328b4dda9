// The list of a school's exports with their download links, shared by the operator's data page
// and the owner's (/home/settings/data). A link is present only for a ready export whose file is
// still kept; the loader signs it (app/schools/export-school.server.ts).
import { DataTable } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/utils/dates.ts'
import { useT } from '#app/utils/i18n-react.ts'

export type ExportView = {
  id: string
  createdAt: number
  requestedBy: string
  status: 'pending' | 'ready' | 'failed' | 'expired'
  sizeBytes: number | null
  error: string | null
  href: string | null
}

export function ExportsTable({ exports, showRequester }: { exports: ExportView[]; showRequester: boolean }) {
  const t = useT()
  if (exports.length === 0) return <p data-exports-empty>{t('school_data.export.none')}</p>
  return (
    <DataTable
      caption={t('school_data.export.caption')}
      rows={exports}
      rowKey={(e) => e.id}
      rowProps={(e) => ({ 'data-export': e.id, 'data-export-status': e.status })}
      columns={[
        { key: 'created', header: t('school_data.export.col.created'), cell: (e) => formatDateTime(e.createdAt) },
        showRequester && { key: 'by', header: t('school_data.export.col.by'), cell: (e) => e.requestedBy },
        { key: 'status', header: t('school_data.export.col.status'), cell: (e) => t(`school_data.export.status.${e.status}`) },
        { key: 'size', header: t('school_data.export.col.size'), cell: (e) => (e.sizeBytes === null ? '—' : t('school_data.export.kb', { size: Math.max(1, Math.ceil(e.sizeBytes / 1024)) })) },
        {
          key: 'download',
          header: t('school_data.export.col.download'),
          cell: (e) =>
            e.href ? (
              // A plain <a>, not <Link>: the answer is a file to save, not a page of the app.
              <a href={e.href} download className="text-brand-700 hover:underline" aria-label={t('school_data.export.download_label', { date: formatDateTime(e.createdAt) })} data-export-download>
                {t('school_data.export.download')}
              </a>
            ) : (
              '—'
            ),
        },
      ]}
    />
  )
}
