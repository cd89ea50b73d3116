import { createApp, createDeps } from './app.ts'
import type { Env } from './env.ts'
import { consumeImportQueue } from './jobs/queue-consumer.ts'
import { runScheduledMaintenance } from './maintenance/scheduled.ts'

/** One app per isolate: its caches (schemas, applications) live as long as the isolate. */
const app = createApp()

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),
  scheduled: (controller, env, ctx) => {
    ctx.waitUntil(runScheduledMaintenance(createDeps(env, ctx, app.registry, app.plugins), controller.cron))
  },
  queue: (batch, env, ctx) => consumeImportQueue(batch.messages, createDeps(env, ctx, app.registry, app.plugins)),
} satisfies ExportedHandler<Env>
