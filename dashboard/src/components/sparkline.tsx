import { formatNumber } from '../lib/format.ts'

const WIDTH = 84
const HEIGHT = 22

/**
 * A row's 14-day trend (the list API's `trend`, oldest first, ending today UTC) as tiny bars: inline SVG, no
 * chart library — a 50-row page draws 700 rects, which is cheaper than 50 canvases. Exposed as one image
 * with its numbers spelled out; colour comes from CSS (`currentColor`) so both themes stay legible.
 */
export function Sparkline({ counts }: { counts: readonly number[] }) {
  const max = Math.max(1, ...counts)
  const total = counts.reduce((sum, count) => sum + count, 0)
  const slot = WIDTH / Math.max(1, counts.length)
  const today = counts[counts.length - 1] ?? 0
  return (
    <svg
      class="sparkline"
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`${formatNumber(total)} ${total === 1 ? 'event' : 'events'} in 14 days, ${formatNumber(today)} today`}
      data-trend={counts.join(',')}
    >
      <line class="sparkline-base" x1="0" x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
      {counts.map((count, index) => {
        if (count === 0) return null
        const height = Math.max(2, Math.round((count / max) * (HEIGHT - 2)))
        return <rect key={index} class={index === counts.length - 1 ? 'sparkline-today' : undefined} x={index * slot + 0.5} y={HEIGHT - height} width={slot - 1.5} height={height} rx="1" />
      })}
    </svg>
  )
}
