import type { ComponentChildren } from 'preact'

/** A collapsible inspector section; the heading stays in the outline for screen-reader navigation. */
export function InspectorSection({ title, children, open = true, count }: { title: string; children: ComponentChildren; open?: boolean; count?: number }) {
  return (
    <details class="inspector-section" open={open}>
      <summary>
        <h3>
          {title}
          {count !== undefined && <span class="count-pill">{count}</span>}
        </h3>
      </summary>
      <div class="inspector-section-body">{children}</div>
    </details>
  )
}
