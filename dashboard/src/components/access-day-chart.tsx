import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { useEffect, useRef } from 'preact/hooks'
import type { AccessAnalytics } from '../../../shared/schemas/access-analytics.ts'
import { cssColor } from '../lib/css-color.ts'
import { useThemeTick } from '../state/use-theme-tick.ts'
import { formatNumber } from '../lib/format.ts'

const CHART_HEIGHT = 170

/** Every UTC day of the window, oldest first (the API lists days with traffic only). */
export function windowDays(days: number, today = new Date()): string[] {
  return Array.from({ length: days }, (_, i) => new Date(today.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10))
}

/**
 * Requests per day (bars) with their errors (≥ 400, darker, drawn over them: a subset reads as a stack), as the
 * issues page's trend chart (trend-chart.tsx). Days without traffic are zero. A table with the same numbers
 * follows for screen readers and tests.
 */
export function AccessDayChart({ analytics }: { analytics: AccessAnalytics }) {
  const host = useRef<HTMLDivElement>(null)
  // Colours come from CSS variables, so the chart is drawn again when the theme changes.
  const themeTick = useThemeTick()
  const byDay = new Map(analytics.by_day.map((row) => [row.day, row]))
  const days = windowDays(analytics.window_days)
  // Lines stamped in the future (clock skew) still show: the window's days, plus any later day with traffic.
  for (const row of analytics.by_day) if (row.day > days[days.length - 1]!) days.push(row.day)

  useEffect(() => {
    const element = host.current!
    const axis = { stroke: cssColor('--muted'), grid: { stroke: cssColor('--border'), width: 1 }, ticks: { show: false }, font: '11px system-ui, sans-serif' }
    const bars = (token: string, label: string): uPlot.Series => ({
      label,
      stroke: cssColor(token),
      fill: cssColor(token),
      width: 0,
      paths: uPlot.paths.bars!({ size: [0.7, 28] }),
      points: { show: false },
    })
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height: CHART_HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.15)] } },
      // Whole days only: a tick per day (or per week at 90 days), labelled MM-DD.
      axes: [{ ...axis, space: 44, incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400], values: (_u, splits) => splits.map((ts) => new Date(ts * 1000).toISOString().slice(5, 10)) }, { ...axis, size: 52, values: (_u, values) => values.map((value) => (Number.isInteger(value) ? formatNumber(value) : '')) }],
      series: [{}, bars('--chart-events', 'Requests'), bars('--sev-error', 'Errors')],
    }
    // A zero-height bar would show as a stray line on the axis.
    const orNull = (values: number[]) => values.map((value) => (value === 0 ? null : value))
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000)
    const chart = new uPlot(options, [x, orNull(days.map((day) => byDay.get(day)?.count ?? 0)), orNull(days.map((day) => byDay.get(day)?.errors ?? 0))], element)
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 200), height: CHART_HEIGHT }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      chart.destroy()
    }
  }, [analytics, themeTick])

  return (
    <section class="panel chart-panel" aria-labelledby="access-days-heading">
      <h2 id="access-days-heading" class="panel-title">Requests and errors per day</h2>
      <div class="legend" aria-hidden="true">
        <span><span class="legend-swatch" style={{ background: 'var(--chart-events)' }} />Requests</span>
        <span><span class="legend-swatch" style={{ background: 'var(--sev-error)' }} />Errors (4xx, 5xx)</span>
      </div>
      <div ref={host} class="trend-canvas" data-testid="access-day-chart" role="img" aria-label={`Requests and errors per day over the last ${analytics.window_days} days`} />
      <table class="visually-hidden" data-testid="access-days">
        <caption>Requests and errors per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Requests</th>
            <th scope="col">Errors</th>
          </tr>
        </thead>
        <tbody>
          {analytics.by_day.map((row) => (
            <tr key={row.day}>
              <th scope="row">{row.day}</th>
              <td>{row.count}</td>
              <td>{row.errors}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
