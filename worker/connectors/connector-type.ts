import type { ConnectorType as ConnectorTypeName } from '../../shared/schemas/connectors.ts'
import type { OutboundPolicy } from '../security/outbound.ts'

/** One remote log file as a listing sees it. */
export interface RemoteFile {
  /** Where it lives (an URL, an object key): the stream's `remote_path`. */
  readonly path: string
  /**
   * What changes when the file is replaced (an ETag or Last-Modified, …), empty when the source says nothing.
   * A changed identity alone is no rotation: appends change it too (reference §6; the prefix decides).
   */
  readonly identity: string
  readonly size: number
  /** `YYYY-MM-DD HH:MM:SS` UTC, or null when unknown. */
  readonly modifiedAt: string | null
}

/** A connector opened with its credentials: lists files and reads byte ranges of them. */
export interface RemoteSource {
  list(): Promise<RemoteFile[]>
  /**
   * Exactly `length` bytes of `file` from `offset` (the caller never asks past `file.size`); a short answer, a
   * dropped connection or a refused request throws an OperationalError naming the file.
   */
  read(file: RemoteFile, offset: number, length: number): Promise<Uint8Array>
}

/** Outbound rules for one source (design.md §6) and the size of one ranged read. */
export interface SourcePolicy extends OutboundPolicy {
  readonly chunkBytes: number
}

/**
 * One connector type (one file each: `http-connector.ts`, …). `config` is the public part (returned by the API),
 * `credentials` the secret part (sealed at rest, never returned); both are validated here and stored as JSON.
 */
export interface ConnectorTypeDefinition {
  readonly type: ConnectorTypeName
  /** Validates and normalises `config`; throws InvalidInputError with the type's message. */
  parseConfig(value: unknown, allowLocalTargets: boolean): Record<string, unknown>
  /** True when the type cannot work without credentials (a create must bring them; they cannot be removed). */
  readonly requiresCredentials?: boolean
  /** Validates credentials (`null`: none). */
  parseCredentials(value: unknown): Record<string, unknown> | null
  /** A description of stored credentials that reveals none of them. */
  credentialsHint(credentials: Record<string, unknown>): string
  open(config: Record<string, unknown>, credentials: Record<string, unknown> | null, policy: SourcePolicy): RemoteSource
  /** `connectors-test`'s message on success. */
  testMessage(files: readonly RemoteFile[], config: Record<string, unknown>): string
}
