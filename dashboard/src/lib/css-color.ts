/**
 * The current value of a colour token (`--sev-error`) as a concrete colour. The tokens are `light-dark()` pairs
 * (styles/theme.css), which `getPropertyValue` returns unresolved; a canvas (the trend chart) needs the colour
 * the page shows now, so it is read back from an element's computed `color`.
 */
export function cssColor(token: string): string {
  const probe = document.createElement('span')
  probe.style.color = `var(${token})`
  probe.style.display = 'none'
  document.body.appendChild(probe)
  const color = getComputedStyle(probe).color
  probe.remove()
  return color
}
