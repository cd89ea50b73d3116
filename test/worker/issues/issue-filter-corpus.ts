import type { IssueFilters, IssueSort } from '../../../worker/issues/issue-search.ts'

/**
 * The corpus of issue-filter-plans.test.ts: issue `i` (1…40) and what each filter should make of it, and the
 * list orders — so the test compares every filter's page and total with a plain filter over this list.
 */
export const ISSUES = Array.from({ length: 40 }, (_, index) => {
  const i = index + 1
  return {
    i,
    fingerprint: `fp-${i}`,
    severity: i % 4 === 0 ? 'WARNING' : i === 7 ? 'CRITICAL' : 'ERROR',
    status: i % 5 === 0 ? 'fixed' : 'open',
    logType: i % 2 ? 'laravel' : 'php',
    // Module "billing": slug of A, name of B — the slug wins (docs/deviations.md).
    module: i % 3 === 0 ? 'A' : i % 3 === 1 ? 'B' : null,
    count: (i * 7) % 11,
    lastSeen: `2026-10-${String(1 + (i % 28)).padStart(2, '0')} 10:00:00`,
    // Manual issues: 38 created on the filtered day with an occurrence that day, 40 created that day without.
    origin: i >= 38 ? 'manual' : 'ingested',
    createdAt: i === 40 || i === 38 ? '2026-10-15 08:00:00' : '2026-09-01 00:00:00',
    onDay: i % 2 === 0 && i < 39,
    tagged: i % 3 === 0,
    // Tagged with the tag whose name is Checkout's id (12, 24, 36 carry both), and with the tag named its own id.
    numbered: i % 4 === 0,
    self: i % 7 === 0,
    file: i % 2 ? 'laravel' : 'other',
    // Also in a second file whose path holds `laravel.log` (channel `worker`): 5, 15, 25, 35 are in both.
    worker: i % 5 === 0,
  }
})
export type Issue = (typeof ISSUES)[number]

/** `date=2026-10-15`: an occurrence that day, or a non-ingested issue created that day (reference §3.1). */
export const onDate = (x: Issue) => x.onDay || (x.origin !== 'ingested' && x.createdAt.startsWith('2026-10-15'))

// The orders with a (filter, sort key) index of 0012; `priority` has its own index (migration 0013).
export const ORDERS: Record<Exclude<IssueSort, 'priority'>, (a: Issue, b: Issue) => number> = {
  newest: (a, b) => cmp(b.lastSeen, a.lastSeen) || b.count - a.count || b.i - a.i,
  occurrences: (a, b) => b.count - a.count || cmp(b.lastSeen, a.lastSeen) || b.i - a.i,
  oldest: (a, b) => cmp('2026-09-01', '2026-09-01') || b.count - a.count || a.i - b.i,
}

export const FILTERS: readonly { name: string; filters: IssueFilters; keep: (issue: Issue) => boolean }[] = [
  { name: 'severity', filters: { severity: 'WARNING' }, keep: (x) => x.severity === 'WARNING' },
  { name: 'status', filters: { status: 'fixed' }, keep: (x) => x.status === 'fixed' },
  { name: 'min_severity', filters: { minSeverity: 'ERROR' }, keep: (x) => x.severity !== 'WARNING' },
  { name: 'log_type', filters: { logType: 'php' }, keep: (x) => x.logType === 'php' },
  { name: 'module', filters: { module: 'billing' }, keep: (x) => x.module === 'A' },
  { name: 'module by name', filters: { module: 'Payments' }, keep: (x) => x.module === 'A' },
  { name: 'tag', filters: { tag: 'Checkout' }, keep: (x) => x.tagged },
  { name: 'source', filters: { source: 'laravel.log' }, keep: (x) => x.file === 'laravel' || x.worker },
  { name: 'source, one file', filters: { source: 'worker' }, keep: (x) => x.worker },
  // `other.log` names both files of that channel: the total counts group_channels (migration 0018).
  { name: 'source, one channel', filters: { source: 'other.log' }, keep: (x) => x.file === 'other' || x.self },
  { name: 'date', filters: { date: '2026-10-15' }, keep: onDate },
  { name: 'severity and date', filters: { severity: 'ERROR', date: '2026-10-15' }, keep: (x) => x.severity === 'ERROR' && onDate(x) },
  { name: 'min_severity and date', filters: { minSeverity: 'ERROR', date: '2026-10-15' }, keep: (x) => x.severity !== 'WARNING' && onDate(x) },
  { name: 'min_severity and date, manual', filters: { minSeverity: 'WARNING', date: '2026-10-15' }, keep: onDate },
  { name: 'severity + date + tag', filters: { severity: 'ERROR', date: '2026-10-15', tag: 'checkout' }, keep: (x) => x.severity === 'ERROR' && onDate(x) && x.tagged },
  { name: 'min_severity + status', filters: { minSeverity: 'ERROR', status: 'open' }, keep: (x) => x.severity !== 'WARNING' && x.status === 'open' },
  // Totals from issue_rollup (issue-total.ts): a module with a log type and a severity with a status; no filter.
  { name: 'module + log_type', filters: { module: 'billing', logType: 'php' }, keep: (x) => x.module === 'A' && x.logType === 'php' },
  { name: 'severity + status', filters: { severity: 'ERROR', status: 'fixed' }, keep: (x) => x.severity === 'ERROR' && x.status === 'fixed' },
  { name: 'module naming no module', filters: { module: 'nothing' }, keep: () => false },
  { name: 'no filter', filters: {}, keep: () => true },
  { name: 'tag + source', filters: { tag: 'checkout', source: 'laravel.log' }, keep: (x) => x.tagged && (x.file === 'laravel' || x.worker) },
  { name: 'date + source', filters: { date: '2026-10-15', source: 'worker' }, keep: (x) => onDate(x) && x.worker },
  // `q`: page and total from one statement (a window count: list-issues.ts). Titles are `Issue <i>`.
  { name: 'q', filters: { q: 'ISSUE 1' }, keep: (x) => String(x.i).startsWith('1') },
  { name: 'q + status', filters: { q: 'issue 1', status: 'open' }, keep: (x) => String(x.i).startsWith('1') && x.status === 'open' },
  { name: 'q + module', filters: { q: 'sue 2', module: 'billing' }, keep: (x) => String(x.i).startsWith('2') && x.module === 'A' },
]

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
