import { createApp, createDeps } from './app.ts'
import { consumeImportQueue } from './jobs/queue-consumer.ts'
import { runScheduledMaintenance } from './maintenance/scheduled.ts'
import type { CloudflareEnv } from './platform/cloudflare/cloudflare-env.ts'
import { cloudflareRuntime } from './platform/cloudflare/cloudflare-runtime.ts'

/**
 * The Workers entry (wrangler.toml `main`). One app per isolate: its caches (schemas, applications) live as
 * long as the isolate. The Deno entry is worker/platform/deno/serve.ts.
 */
const app = createApp({ runtime: cloudflareRuntime })

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(runScheduledMaintenance(createDeps(env, ctx, app), controller.cron))
  },
  queue: (batch, env, ctx) => consumeImportQueue(batch.messages, createDeps(env, ctx, app)),
} satisfies ExportedHandler<CloudflareEnv>
