import type { Deps } from '../deps.ts'
import { runImportJob } from './run-job-step.ts'
import { enqueueImport, isConnectorRunMessage, isImportMessage } from './job-message.ts'
import { CONNECTOR_LOCK_RETRY_SECONDS, runConnectorJob } from '../connectors/connector-run.ts'
import { logFailure } from '../log-failure.ts'

/** While another run holds the application's lock, a job message comes back after this many seconds. */
export const LOCK_RETRY_SECONDS = 10

/** One delivered queue message, as the consumer sees it (a Cloudflare `Message` fits). */
export interface ReceivedMessage {
  readonly body: unknown
  ack(): void
  retry(options?: { delaySeconds?: number }): void
}

/**
 * The Queue consumer (`queue` handler): runs each job message for one budget. A message whose job cannot
 * take the lock yet is re-sent with a delay rather than retried, so waiting never uses up the queue's
 * retry allowance; a message that throws (the database is down) is retried by the queue.
 */
export async function consumeImportQueue(messages: readonly ReceivedMessage[], deps: Deps): Promise<void> {
  for (const message of messages) {
    if (isConnectorRunMessage(message.body)) {
      await consumeConnectorRun(message, message.body, deps)
      continue
    }
    if (!isImportMessage(message.body)) {
      message.ack()
      continue
    }
    try {
      const outcome = await runImportJob(deps, message.body)
      if (outcome === 'locked') await enqueueImport(deps, message.body, LOCK_RETRY_SECONDS)
      message.ack()
    } catch (error) {
      logFailure(`import job ${message.body.app}#${message.body.job} failed and will be retried`, error)
      message.retry({ delaySeconds: LOCK_RETRY_SECONDS })
    }
  }
}

/** A connector synchronization (worker/connectors/connector-run.ts): same lock, same retry rules as an import job. */
async function consumeConnectorRun(message: ReceivedMessage, body: { app: string; connector_run: number }, deps: Deps): Promise<void> {
  try {
    const outcome = await runConnectorJob(deps, body)
    if (outcome === 'locked') await enqueueImport(deps, body, CONNECTOR_LOCK_RETRY_SECONDS)
    message.ack()
  } catch (error) {
    logFailure(`connector run ${body.app}#${body.connector_run} failed and will be retried`, error)
    message.retry({ delaySeconds: LOCK_RETRY_SECONDS })
  }
}
