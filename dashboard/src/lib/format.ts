/** Display helpers. API timestamps are `YYYY-MM-DD HH:MM:SS` in UTC (docs/api.md "Conventions"). */

const numberFormat = new Intl.NumberFormat('en')

export function formatNumber(value: number | null | undefined): string {
  return numberFormat.format(value ?? 0)
}

export function parseUtc(timestamp: string | null | undefined): Date | null {
  if (!timestamp) return null
  const date = new Date(`${timestamp.replace(' ', 'T')}Z`)
  return Number.isNaN(date.getTime()) ? null : date
}

/** "3 min ago", "5 h ago", "12 d ago" — with the exact UTC time left for a title attribute. */
export function relativeTime(timestamp: string | null | undefined, now = Date.now()): string {
  const date = parseUtc(timestamp)
  if (!date) return '—'
  const seconds = Math.round((now - date.getTime()) / 1000)
  if (seconds < 0) return 'just now'
  if (seconds < 60) return `${seconds} s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`
  if (seconds < 86_400 * 60) return `${Math.floor(seconds / 86_400)} d ago`
  if (seconds < 86_400 * 365) return `${Math.floor(seconds / (86_400 * 30))} mo ago`
  return `${Math.floor(seconds / (86_400 * 365))} y ago`
}

export function utcTitle(timestamp: string | null | undefined): string {
  return timestamp ? `${timestamp} UTC` : ''
}

/** `in_progress` → "In progress", `feature_request` → "Feature request". */
export function humanize(value: string | null | undefined): string {
  if (!value) return ''
  // The status's label, with its apostrophe (issue 17 item 14: "Wont fix" read as a typo).
  if (value === 'wont_fix') return "Won't fix"
  const text = value.replace(/_/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export function formatBytes(bytes: number | null | undefined): string {
  const value = bytes ?? 0
  if (value < 1024) return `${value} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let size = value / 1024
  let unit = 0
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024
    unit += 1
  }
  return `${size.toFixed(size < 10 ? 1 : 0)} ${units[unit]}`
}

export function basename(path: string | null | undefined): string {
  if (!path) return ''
  return path.split('/').filter(Boolean).pop() ?? path
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`
}

/** Today as `YYYY-MM-DD` in UTC, the calendar the API's days use. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10)
}
