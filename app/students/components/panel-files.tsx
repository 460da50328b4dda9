// "My files" on the student panel: the file products the student has access to, each file opened
// through /files/{productId}/{fileId} (which checks access again and redirects to a signed URL).
import { useFileSize } from '#app/media/components/file-upload.tsx'
import { Card } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'

export type FileProductView = { id: string; title: string; description: string; files: Array<{ id: string; filename: string; size: number; kind: string }> }

export function MyFiles({ products }: { products: FileProductView[] }) {
  const t = useT()
  const size = useFileSize()
  return (
    <Card data-my-files aria-labelledby="panel-files">
      <h2 id="panel-files" className="text-lg font-semibold">
        {t('files.panel.title')}
      </h2>
      {products.length === 0 ? <p className="mt-2 text-slate-600">{t('files.panel.empty')}</p> : null}
      {products.map((p) => (
        <div key={p.id} className="mt-4" data-file-product={p.title}>
          <h3 className="font-semibold">{p.title}</h3>
          {p.description ? <p className="mt-1 whitespace-pre-line text-sm text-slate-600">{p.description}</p> : null}
          {p.files.length === 0 ? <p className="mt-1 text-sm text-slate-500">{t('files.panel.no_files')}</p> : null}
          <ul className="mt-2 divide-y divide-slate-100">
            {p.files.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center justify-between gap-3 py-2" data-file-name={f.filename}>
                <span className="min-w-0 truncate text-sm">
                  {f.filename} <span className="text-slate-500">· {size(f.size)}</span>
                </span>
                <span className="flex gap-4 text-sm font-semibold">
                  {/* Plain links: the answer is a redirect to a short-lived signed URL. */}
                  {f.kind !== 'zip' ? (
                    <a href={`/files/${p.id}/${f.id}?mode=open`} target="_blank" rel="noopener noreferrer" className="rounded text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
                      {t('files.file.open')}
                    </a>
                  ) : null}
                  <a href={`/files/${p.id}/${f.id}`} className="rounded text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600" data-download>
                    {t('files.file.download')}
                  </a>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Card>
  )
}
