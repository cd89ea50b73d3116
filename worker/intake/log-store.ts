/**
 * Where log files live: incoming drops, staged uploads, the processed archive (design.md §3). Domain code
 * sees this interface only; `worker/platform/r2-log-store.ts` implements it on R2, and another runtime (a
 * filesystem, S3) can implement it without the domain knowing.
 */
export interface StoredLog {
  readonly key: string
  readonly size: number
  /** Changes whenever the content does: an import copies a file only while it is still what it listed. */
  readonly etag: string
  readonly uploaded: Date
  /** The path an archived copy was made from (`null` for incoming drops and uploads; known from `head`, not listings). */
  readonly origin: string | null
}

export interface LogStore {
  /** Every object under `prefix`, in key order. */
  list(prefix: string): Promise<StoredLog[]>
  head(key: string): Promise<StoredLog | null>
  /** `length` bytes from `offset` (fewer at the end); null when the object does not exist. */
  read(key: string, offset: number, length: number): Promise<Uint8Array | null>
  /** Stores `length` bytes; a stream that ends early or runs past `length` fails and stores nothing. */
  write(key: string, body: Uint8Array | ReadableStream<Uint8Array>, length: number): Promise<void>
  /**
   * Copies `source` to `target` while it is still the object listed (same etag), recording `origin`, and
   * returns the SHA-256 (hex) of the content — or null when the source changed or disappeared meanwhile.
   */
  copy(source: StoredLog, target: string, origin: string): Promise<string | null>
  delete(keys: string | readonly string[]): Promise<void>
}
