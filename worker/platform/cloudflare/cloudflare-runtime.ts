import type { Runtime } from '../../runtime.ts'
import type { CloudflareEnv } from './cloudflare-env.ts'
import { cloudflareJobQueue } from './cloudflare-job-queue.ts'
import { r2LogStore } from './r2-log-store.ts'

/** Workers: logs on the `LOGS` R2 bucket, background imports on the `IMPORT_QUEUE` Queue. */
export const cloudflareRuntime: Runtime<CloudflareEnv> = {
  logStore: (env) => (env.LOGS ? r2LogStore(env.LOGS) : null),
  jobQueue: (env) => (env.IMPORT_QUEUE ? cloudflareJobQueue(env.IMPORT_QUEUE) : null),
}
