// The admin lists' table (issue 20, convention 3): one markup for the 19 hand-written tables —
// scoped column headers, an optional caption for screen readers, horizontal scroll on narrow
// screens. Rows and cells take data-* attributes so tests and scripts keep their hooks.
import type { HTMLAttributes, ReactNode, TdHTMLAttributes } from 'react'
import { cx } from './ui.tsx'

type DataAttributes = { [key: `data-${string}`]: string | number | boolean | undefined }

export type Column<Row> = {
  /** Stable key of the column. */
  key: string
  header: ReactNode
  /** The header is read by screen readers only (e.g. an actions column). */
  srOnlyHeader?: boolean
  cell: (row: Row, index: number) => ReactNode
  /** Extra classes for the column's cells (header and body). */
  className?: string
  cellProps?: (row: Row) => TdHTMLAttributes<HTMLTableCellElement> & DataAttributes
}

type DataTableProps<Row> = {
  rows: readonly Row[]
  columns: ReadonlyArray<Column<Row> | false | null | undefined>
  rowKey: (row: Row) => string
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & DataAttributes
  /** Names the table for screen readers; visually hidden unless `showCaption`. */
  caption?: ReactNode
  showCaption?: boolean
  className?: string
} & DataAttributes &
  Pick<HTMLAttributes<HTMLTableElement>, 'id' | 'aria-label' | 'aria-labelledby'>

export function DataTable<Row>({ rows, columns, rowKey, rowProps, caption, showCaption = false, className, ...tableProps }: DataTableProps<Row>) {
  const shown = columns.filter((c): c is Column<Row> => Boolean(c))
  const last = shown.length - 1
  return (
    <div className="relative overflow-x-auto">
      <table className={cx('min-w-full text-left text-sm', className)} {...tableProps}>
        {caption ? <caption className={showCaption ? 'mb-2 text-left text-sm text-slate-600' : 'sr-only'}>{caption}</caption> : null}
        <thead className="text-slate-500">
          <tr>
            {shown.map((column, i) => (
              <th key={column.key} scope="col" className={cx('py-2', i < last && 'pr-4', column.className)}>
                {column.srOnlyHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, index) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {shown.map((column, i) => (
                <td key={column.key} className={cx('py-2', i < last && 'pr-4', column.className)} {...column.cellProps?.(row)}>
                  {column.cell(row, index)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
