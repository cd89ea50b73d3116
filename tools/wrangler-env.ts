/** Keeps wrangler from calling home (metrics, Cloudflare's cf-object fetch, banner) — this machine is offline. */
export const QUIET_WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
} as const
