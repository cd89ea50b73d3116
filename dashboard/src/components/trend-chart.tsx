import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { useEffect, useRef, useState } from 'preact/hooks'
import { formatNumber } from '../lib/format.ts'
import type { TrendDays } from '../lib/trend-days.ts'
import { cssColor } from '../lib/css-color.ts'
import { useThemeTick } from '../state/use-theme-tick.ts'
import type { DeployMarker } from '../../../shared/schemas/releases.ts'

const CHART_HEIGHT = 150

/**
 * Daily events (bars, error events darker inside them) over the 30 days ending today, with a legend. Clicking a day — or picking one with
 * the arrow keys and Enter — filters the issue list by it (reference §7); clicking the selected day clears.
 * Deploys within the window are dashed vertical markers labelled with their version (reference §7 "deploy
 * markers"), also listed under the chart for screen readers.
 */
export function TrendChart({ trend, markers = [], selected, onSelect }: { trend: TrendDays; markers?: readonly DeployMarker[]; selected: string; onSelect: (day: string) => void }) {
  const host = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const [focusIndex, setFocusIndex] = useState<number | null>(null)
  // Colours come from CSS variables, so the chart is drawn again when the theme changes.
  const themeTick = useThemeTick()
  const latest = useRef({ trend, selected, onSelect, markers })
  latest.current = { trend, selected, onSelect, markers }

  useEffect(() => {
    const element = host.current!
    const x = trend.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000)
    const axis = { stroke: cssColor('--muted'), grid: { stroke: cssColor('--border'), width: 1 }, ticks: { show: false }, font: '11px system-ui, sans-serif' }
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height: CHART_HEIGHT,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: { x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.15)] } },
      axes: [{ ...axis, space: 60 }, { ...axis, size: 44, values: (_u, values) => values.map((value) => (Number.isInteger(value) ? formatNumber(value) : '')) }],
      series: [
        {},
        { label: 'Events', stroke: cssColor('--chart-events'), fill: cssColor('--chart-events'), width: 0, paths: uPlot.paths.bars!({ size: [0.7, 28] }), points: { show: false } },
        // Errors are a subset of events, so drawing their bar over the events bar reads as a stack.
        { label: 'Errors', stroke: cssColor('--sev-error'), fill: cssColor('--sev-error'), width: 0, paths: uPlot.paths.bars!({ size: [0.7, 28] }), points: { show: false } },
      ],
      hooks: {
        drawClear: [
          (u) => {
            const index = latest.current.trend.days.indexOf(latest.current.selected)
            if (index < 0) return
            const step = u.bbox.width / Math.max(1, latest.current.trend.days.length)
            const center = u.valToPos(u.data[0][index]!, 'x', true)
            u.ctx.save()
            u.ctx.fillStyle = cssColor('--selection')
            u.ctx.fillRect(center - step / 2, u.bbox.top, step, u.bbox.height)
            u.ctx.restore()
          },
        ],
        draw: [
          (u) => {
            const shown = latest.current.markers.filter((marker) => latest.current.trend.days.includes(marker.day))
            if (shown.length === 0) return
            const ctx = u.ctx
            ctx.save()
            ctx.strokeStyle = cssColor('--accent')
            ctx.fillStyle = cssColor('--accent')
            ctx.lineWidth = Math.max(1, devicePixelRatio)
            ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio])
            ctx.font = `${10 * devicePixelRatio}px system-ui, sans-serif`
            for (const marker of shown) {
              const x = Math.round(u.valToPos(Date.parse(`${marker.day}T00:00:00Z`) / 1000, 'x', true))
              ctx.beginPath()
              ctx.moveTo(x, u.bbox.top)
              ctx.lineTo(x, u.bbox.top + u.bbox.height)
              ctx.stroke()
              // The label goes left of a marker near the right edge, so it is never cut off.
              const width = ctx.measureText(marker.version).width
              const pad = 3 * devicePixelRatio
              const left = x + pad + width > u.bbox.left + u.bbox.width ? x - pad - width : x + pad
              ctx.fillText(marker.version, left, u.bbox.top + 10 * devicePixelRatio)
            }
            ctx.restore()
          },
        ],
      },
    }
    // Zero days draw nothing (a zero-height bar would show as a stray line on the axis).
    const orNull = (values: number[]) => values.map((value) => (value === 0 ? null : value))
    const chart = new uPlot(options, [x, orNull(trend.events), orNull(trend.errors)], element)
    plot.current = chart
    const click = () => {
      const index = chart.cursor.idx
      const day = index === null || index === undefined ? undefined : latest.current.trend.days[index]
      if (day) latest.current.onSelect(day === latest.current.selected ? '' : day)
    }
    chart.over.addEventListener('click', click)
    chart.over.style.cursor = 'pointer'
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 200), height: CHART_HEIGHT }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      chart.destroy()
      plot.current = null
    }
  }, [trend, themeTick])

  useEffect(() => plot.current?.redraw(false, false), [markers])

  useEffect(() => plot.current?.redraw(false, false), [selected])

  const move = (index: number) => {
    const chart = plot.current
    if (!chart || trend.days.length === 0) return
    const clamped = Math.min(trend.days.length - 1, Math.max(0, index))
    setFocusIndex(clamped)
    chart.setCursor({ left: chart.valToPos(chart.data[0][clamped]!, 'x'), top: chart.bbox.height / devicePixelRatio / 2 })
  }
  const focusedDay = focusIndex === null ? null : trend.days[focusIndex]

  return (
    <div class="trend">
      <div
        ref={host}
        class="trend-canvas"
        tabIndex={0}
        role="group"
        aria-label="Daily events, last 30 days. Arrow keys choose a day, Enter filters the issues by it."
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
            event.preventDefault()
            move((focusIndex ?? trend.days.length - 1) + (event.key === 'ArrowRight' ? 1 : -1))
          } else if ((event.key === 'Enter' || event.key === ' ') && focusedDay) {
            event.preventDefault()
            onSelect(focusedDay === selected ? '' : focusedDay)
          }
        }}
        onBlur={() => setFocusIndex(null)}
      />
      {/* Issue 17 item 10: the stacked colours need a key; the error bar is drawn over the events bar. */}
      <ul class="chart-legend" aria-label="Legend" data-testid="trend-legend">
        <li><span class="swatch swatch-events" aria-hidden="true" />All events</li>
        <li><span class="swatch swatch-errors" aria-hidden="true" />Error events (ERROR and worse)</li>
        {markers.length > 0 && <li><span class="swatch swatch-deploy" aria-hidden="true" />Deploy</li>}
      </ul>
      {markers.length > 0 && (
        <ul class="deploy-markers muted small" data-testid="deploy-markers" aria-label="Deploys in the last 30 days">
          {markers.map((marker) => (
            <li key={`${marker.version}-${marker.environment}-${marker.deployed_at}`}>
              <span aria-hidden="true">▍</span> {marker.version} ({marker.environment}) · {marker.day}
            </li>
          ))}
        </ul>
      )}
      <p class="trend-readout" aria-live="polite">
        {focusedDay
          ? `${focusedDay}: ${formatNumber(trend.events[focusIndex!])} events, ${formatNumber(trend.errors[focusIndex!])} errors`
          : selected
            ? `Showing issues seen on ${selected}. Click the day again to clear.`
            : 'Click a day to filter the issues by it.'}
      </p>
    </div>
  )
}
