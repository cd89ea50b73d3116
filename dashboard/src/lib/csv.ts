import type { IssueListItem } from '../api/types.ts'

/**
 * CSV export of the issue table's current page (reference §7). Spreadsheet apps run a cell that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, so such values get a leading `'`
 * (OWASP "CSV injection"). Cells are quoted per RFC 4180 when they contain a quote, comma or line break.
 */
export const CSV_COLUMNS = ['severity', 'module', 'title', 'exception', 'source', 'status', 'count', 'first_seen', 'last_seen'] as const

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

export function issuesToCsv(items: readonly IssueListItem[]): string {
  return toCsv([
    CSV_COLUMNS,
    ...items.map((item) => [
      item.severity,
      item.module_name ?? '',
      item.title,
      item.exception_class ?? '',
      item.source_frame ?? '',
      item.status,
      item.count,
      item.first_seen,
      item.last_seen,
    ]),
  ])
}

/** Saves text as a file through a Blob URL (no server round trip, nothing leaves the browser). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  // Revoking at once can cancel the download in some browsers; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
