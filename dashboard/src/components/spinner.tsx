/** Loading indicators: a spinner with an accessible label, and grey skeleton rows for tables and cards. */
export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <span class="spinner-wrap" role="status">
      <span class="spinner" aria-hidden="true" />
      <span class="visually-hidden">{label}</span>
    </span>
  )
}

export function Skeleton({ lines = 3, height = 16 }: { lines?: number; height?: number }) {
  return (
    <div class="skeleton-group" aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <div key={index} class="skeleton" style={{ height: `${height}px`, width: `${90 - ((index * 17) % 35)}%` }} />
      ))}
    </div>
  )
}
