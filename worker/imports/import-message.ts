import type { Deps } from '../deps.ts'

/** A queue message asking the consumer to continue one background import job. */
export interface ImportMessage {
  readonly app: string
  readonly job: number
}

export function isImportMessage(value: unknown): value is ImportMessage {
  if (!value || typeof value !== 'object') return false
  const { app, job } = value as Record<string, unknown>
  return typeof app === 'string' && typeof job === 'number' && Number.isSafeInteger(job)
}

/** Sends a job message; false when no queue is bound (the cron trigger then continues the job). */
export async function enqueueImport(deps: Deps, message: ImportMessage, delaySeconds = 0): Promise<boolean> {
  const queue = deps.env.IMPORT_QUEUE
  if (!queue) return false
  await queue.send(message, { contentType: 'json', ...(delaySeconds > 0 ? { delaySeconds } : {}) })
  return true
}
