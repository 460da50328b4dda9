// The audit log as a table (issue 27 §5): the operator console's (every school, with the school
// column) and a school owner's (their school's rows). Newest first; "Older" pages by cursor.
import { Link } from '@remix-run/react'
import { DataTable } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/utils/dates.ts'
import { useT } from '#app/utils/i18n-react.ts'

export type AuditRow = {
  id: string
  createdAt: number
  school: { id: string; name: string } | null
  actorKind: string
  actorLabel: string
  action: string
  target: string
  ip: string
  before: string | null
  after: string | null
}

/** A change as the reader sees it: `field: before → after`, one per changed field. */
function changes(before: string | null, after: string | null): Array<{ field: string; from: string; to: string }> {
  const parse = (value: string | null): Record<string, unknown> => {
    try {
      return value ? (JSON.parse(value) as Record<string, unknown>) : {}
    } catch {
      return {}
    }
  }
  const a = parse(before)
  const b = parse(after)
  const show = (v: unknown) => (v === undefined || v === null ? '—' : String(v))
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).map((field) => ({ field, from: show(a[field]), to: show(b[field]) }))
}

export function AuditTable({ rows, next, olderHref, withSchool }: { rows: AuditRow[]; next: string | null; olderHref: (cursor: string) => string; withSchool: boolean }) {
  const t = useT()
  if (rows.length === 0)
    return (
      <p className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600" data-audit-empty>
        {t('audit.empty')}
      </p>
    )
  return (
    <div className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white px-4 shadow-sm">
        <DataTable
          data-audit-log
          caption={t('audit.caption')}
          rows={rows}
          rowKey={(row) => row.id}
          rowProps={(row) => ({ 'data-audit-row': row.action })}
          columns={[
            { key: 'date', header: t('audit.col.date'), className: 'whitespace-nowrap', cell: (row) => formatDateTime(row.createdAt) },
            withSchool
              ? {
                  key: 'school',
                  header: t('audit.col.school'),
                  cell: (row) =>
                    row.school ? (
                      <Link to={`/operator/schools/${row.school.id}`} className="font-medium text-brand-700 hover:underline">
                        {row.school.name}
                      </Link>
                    ) : (
                      t('audit.platform')
                    ),
                }
              : null,
            {
              key: 'who',
              header: t('audit.col.who'),
              cell: (row) => (
                <>
                  <span className="text-xs uppercase tracking-wide text-slate-500">{t(`audit.actor.${row.actorKind}`)}</span>
                  <div>{row.actorLabel}</div>
                </>
              ),
            },
            { key: 'action', header: t('audit.col.action'), cell: (row) => t(`audit.action.${row.action}`) },
            { key: 'target', header: t('audit.col.target'), className: 'font-mono text-xs break-all', cell: (row) => row.target },
            {
              key: 'change',
              header: t('audit.col.change'),
              cell: (row) => (
                <ul className="space-y-0.5 text-xs">
                  {changes(row.before, row.after).map((c) => (
                    <li key={c.field}>
                      <span className="font-mono">{c.field}</span>: {c.from} → {c.to}
                    </li>
                  ))}
                </ul>
              ),
            },
            { key: 'ip', header: t('audit.col.ip'), className: 'font-mono text-xs whitespace-nowrap', cell: (row) => row.ip },
          ]}
        />
      </div>
      {next ? (
        <Link to={olderHref(next)} className="text-sm font-medium text-brand-700 hover:underline" data-audit-older>
          {t('audit.older')}
        </Link>
      ) : null}
    </div>
  )
}
