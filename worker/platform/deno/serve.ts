/**
 * The Deno entry: `deno task start` (deno.json) serves the same API and dashboard as the Workers entry
 * (worker/index.ts), configured by the same environment variables plus LOGS_DIR, ASSETS_DIR and
 * MAINTENANCE_INTERVAL_MINUTES (README "Run on Deno").
 */
import { createDenoService } from './deno-service.ts'

const service = createDenoService(Deno.env.toObject())

export default {
  fetch: (request) => service.fetch(request),
} satisfies Deno.ServeDefaultExport
