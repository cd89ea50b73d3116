import { splitStack } from '../lib/stack.ts'

/** The sample stack with runs of vendor frames folded into <details> (open them to read). */
export function StackView({ stack }: { stack: string }) {
  const segments = splitStack(stack)
  return (
    <div class="stack" data-testid="stack">
      {segments.map((segment, index) =>
        segment.vendor ? (
          <details key={index} class="vendor-frames">
            <summary>{segment.lines.length} vendor frames</summary>
            <pre>{segment.lines.join('\n')}</pre>
          </details>
        ) : (
          <pre key={index}>{segment.lines.join('\n')}</pre>
        ),
      )}
    </div>
  )
}
