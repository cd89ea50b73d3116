import type { JobMessage } from '../../jobs/job-message.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'

/** Import jobs on a Cloudflare Queue (the `IMPORT_QUEUE` binding); JSON bodies, optional delay. */
export function cloudflareJobQueue(queue: Queue<JobMessage>): JobQueue {
  return {
    async send(message, delaySeconds = 0) {
      await queue.send(message, { contentType: 'json', ...(delaySeconds > 0 ? { delaySeconds } : {}) })
    },
  }
}
