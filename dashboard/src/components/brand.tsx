/** Loupe's mark and name, as the sidebar and the API-key screen show them. */
export function Brand() {
  return (
    <div class="brand">
      <svg width="22" height="22" viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="13" cy="13" r="9" fill="none" stroke="currentColor" stroke-width="4" />
        <path d="M20 20l8 8" stroke="currentColor" stroke-width="4" stroke-linecap="round" />
      </svg>
      <span>Loupe</span>
    </div>
  )
}
