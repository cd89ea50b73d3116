import type { ProcessedPolicy, ProcessedPruneResult, ProcessedStatus } from '../../shared/api.ts'

export type { ProcessedPolicy, ProcessedPruneResult, ProcessedStatus }
import type { Deps } from '../deps.ts'
import { isLogFileName } from '../intake/log-file-name.ts'
import { processedPrefix } from '../intake/log-storage.ts'
import type { LogStore, StoredLog } from '../intake/log-store.ts'




export function processedPolicy(deps: Pick<Deps, 'config'>): ProcessedPolicy {
  const { retention } = deps.config
  return { processed_max_age_days: retention.processed_max_age_days, processed_max_files: retention.processed_max_files }
}

/** `GET ?api=processed-retention`: the policy and the archive's size, from an R2 listing. */
export async function processedStatus(logs: LogStore, appId: string, policy: ProcessedPolicy): Promise<ProcessedStatus> {
  const files = await archivedFiles(logs, appId)
  return { policy, archived_files: files.length, archived_bytes: files.reduce((sum, file) => sum + file.size, 0) }
}

/**
 * Prunes the archive newest-first: files older than the age limit go, and beyond the newest N every file
 * goes. Deleting an archived file only makes `source` unavailable for its occurrences; issues are untouched.
 */
export async function pruneProcessed(logs: LogStore, appId: string, policy: ProcessedPolicy, now: Date): Promise<ProcessedPruneResult> {
  const files = await archivedFiles(logs, appId)
  const enabled = policy.processed_max_age_days > 0 || policy.processed_max_files > 0
  if (!enabled || files.length === 0) return { enabled, deleted: 0, freed_bytes: 0, remaining: files.length, scanned: files.length }
  const cutoff = policy.processed_max_age_days > 0 ? now.getTime() - policy.processed_max_age_days * 86_400_000 : null
  files.sort((a, b) => b.uploaded.getTime() - a.uploaded.getTime() || (a.key < b.key ? -1 : 1))
  const doomed: StoredLog[] = []
  let kept = 0
  for (const file of files) {
    const tooOld = cutoff !== null && file.uploaded.getTime() < cutoff
    const overLimit = policy.processed_max_files > 0 && kept >= policy.processed_max_files
    if (tooOld || overLimit) doomed.push(file)
    else kept++
  }
  // R2 deletes up to 1000 keys per call.
  for (let i = 0; i < doomed.length; i += 1000) await logs.delete(doomed.slice(i, i + 1000).map((file) => file.key))
  return {
    enabled,
    deleted: doomed.length,
    freed_bytes: doomed.reduce((sum, file) => sum + file.size, 0),
    remaining: kept,
    scanned: files.length,
  }
}

async function archivedFiles(logs: LogStore, appId: string): Promise<StoredLog[]> {
  const objects = await logs.list(processedPrefix(appId))
  return objects.filter((object) => isLogFileName(object.key.slice(object.key.lastIndexOf('/') + 1)))
}
