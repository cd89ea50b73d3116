import { getImportStatus } from '../api/endpoints.ts'
import type { ImportJob, ImportResult } from '../api/types.ts'

/**
 * An import answers at once when it fits the request's budget; a larger one returns 202 with a background
 * `job` (docs/api-ingestion.md). This waits for such a job, polling `GET ?api=import-incoming` every 2 s like
 * the reference's connector runs, and returns the job's final result.
 */
export async function followImport(result: ImportResult, onProgress?: (job: ImportJob) => void): Promise<ImportResult> {
  let job = result.job
  while (job && (job.status === 'queued' || job.status === 'running')) {
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const status = await getImportStatus()
    job = status.data.find((candidate) => candidate.id === job!.id) ?? null
    if (job) onProgress?.(job)
  }
  if (job?.status === 'failed') throw new Error(job.message ?? 'The background import failed.')
  // A finished job carries the accumulated result (with its retention run); it has no job of its own left.
  return job?.result ? { ...job.result, retention: job.result.retention ?? null, already_ingested: job.result.already_ingested ?? [], job: null } : result
}
