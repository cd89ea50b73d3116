/** UTC `YYYY-MM-DD HH:MM:SS`, the one timestamp format stored and returned everywhere (seed §1). */
export function toTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

/** UTC `YYYY-MM-DD`. */
export function toDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** True for a real calendar date written `YYYY-MM-DD` (rejects 2024-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}
