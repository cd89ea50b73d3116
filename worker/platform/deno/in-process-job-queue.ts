import type { Deps } from '../../deps.ts'
import type { JobMessage } from '../../jobs/job-message.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import { consumeImportQueue } from '../../jobs/queue-consumer.ts'
import { logFailure } from '../../log-failure.ts'

/** As wrangler.toml's `max_retries` for the Workers queue: a message that keeps throwing is dropped after this. */
const MAX_RETRIES = 5

/**
 * Background import jobs run in this process (Deno has no queue binding): a message runs after its delay
 * with fresh dependencies, through the same consumer as the Workers queue, and a message that throws is
 * retried after the delay it asks for, like a queue redelivery. A job lost when the process stops is
 * picked up again by the scheduled maintenance, which resumes interrupted imports (docs/ingestion.md).
 */
export function inProcessJobQueue(depsForJob: () => Deps): JobQueue {
  function schedule(message: JobMessage, delaySeconds: number, attempt: number): void {
    setTimeout(() => {
      let retryDelay: number | null = null
      const received = {
        body: message,
        ack() {},
        retry(options?: { delaySeconds?: number }) {
          retryDelay = options?.delaySeconds ?? 0
        },
      }
      consumeImportQueue([received], depsForJob())
        .then(() => {
          if (retryDelay !== null && attempt < MAX_RETRIES) schedule(message, retryDelay, attempt + 1)
        })
        .catch((error) => logFailure(`in-process job ${JSON.stringify(message)} failed`, error))
    }, delaySeconds * 1000)
  }

  return {
    async send(message, delaySeconds = 0) {
      schedule(message, delaySeconds, 0)
    },
  }
}
