import type { JobMessage } from './job-message.ts'

/**
 * Where background import jobs and connector synchronizations continue (a Cloudflare Queue in production: worker/platform/cloudflare-job-queue.ts;
 * in-process elsewhere). Delivery is at least once; the consumer is `consumeImportQueue`.
 */
export interface JobQueue {
  send(message: JobMessage, delaySeconds?: number): Promise<void>
}
