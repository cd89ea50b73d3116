import { openScopeByNamespace, openScopeIfRegistered } from '../../../apps/open-scope.ts'
import type { AppScope } from '../../../apps/app-scope.ts'
import type { Deps } from '../../../deps.ts'
import { InvalidInputError, MalformedRequestError, NotFoundError, UnauthorizedError } from '../../../errors.ts'
import { readBodyBytes, readJsonObject } from '../../../http/read-body.ts'
import { json } from '../../../http/respond.ts'
import type { ApiRequest } from '../../../http/router.ts'
import { requireLogs } from '../../../intake/log-storage.ts'
import { hexDigest } from '../../../intake/sha256-bytes.ts'
import { secretsEqual } from '../../../security/secrets-equal.ts'
import { toTimestamp } from '../../../time.ts'
import type { Plugin, PluginPath } from '../../plugin.ts'
import { requirePluginEnabled } from '../../routes.ts'
import { RELEASE_LIMITS } from '../../../../shared/schemas/releases.ts'
import { checkSourceMap, storeSourceMap } from '../source-maps.ts'
import { bundledMaps } from './artifact-bundle.ts'
import { releaseKnown, releaseRecord, registerRelease } from './cli-releases.ts'

/** Chunk sizes offered to sentry-cli (sentry-cli-protocol.md "chunk upload options"): 8 MiB requests at most. */
const CHUNK_SIZE = 2 * 1024 * 1024
const CHUNKS_PER_REQUEST = 4
const MAX_REQUEST_BYTES = CHUNK_SIZE * CHUNKS_PER_REQUEST + 256 * 1024
/** A bundle of many maps (each at most 16 MiB) stays within this. */
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024
const CHUNK_PREFIX = 'sentry-chunks/'
const SHA1 = /^[0-9a-f]{40}$/

export const SENTRY_CLI_MESSAGES = {
  token: 'A valid API key is required. Send it as Authorization: Bearer.',
  project: 'Unknown project: the project names the application (its id or its numeric namespace).',
  release: 'Release not found.',
  chunk: 'A chunk does not match its SHA-1 name.',
} as const

/**
 * The Sentry web API calls `sentry-cli releases new/finalize` and `sentry-cli sourcemaps upload --release`
 * make (sentry-cli-protocol.md), at the origin's root as the CLI requires: `SENTRY_URL` is Loupe's origin,
 * `SENTRY_AUTH_TOKEN` the service token, and the project names the application. The maps an artifact bundle
 * carries are stored as `source-maps` uploads of the release.
 */
export function sentryCliPaths(plugin: () => Plugin): PluginPath[] {
  const org = '/api/0/organizations/:org'
  return [
    { path: `${org}/releases/`, handlers: { POST: (request, deps) => newRelease(request, deps, plugin()) } },
    { path: `${org}/releases/:version/`, handlers: { PUT: (request, deps) => finalizeRelease(request, deps, plugin()) } },
    { path: `${org}/chunk-upload/`, handlers: { GET: chunkOptions, POST: uploadChunks } },
    { path: `${org}/artifactbundle/assemble/`, handlers: { POST: (request, deps) => assemble(request, deps, plugin()) } },
  ]
}

async function authenticate(request: ApiRequest, deps: Deps): Promise<void> {
  const expected = deps.config.token
  if (expected === null) return
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization')?.trim() ?? '')
  if (!match || !(await secretsEqual(match[1]!.trim(), expected))) throw new UnauthorizedError(SENTRY_CLI_MESSAGES.token)
}

/** The application the body's first project names (a slug as a string, an all-digit project as a number). */
async function projectScope(body: Record<string, unknown>, deps: Deps, plugin: Plugin): Promise<AppScope> {
  const projects = Array.isArray(body.projects) ? body.projects : []
  const project = projects.length > 0 ? String(projects[0]) : ''
  const scope = /^\d{1,9}$/.test(project) ? await openScopeByNamespace(deps, Number(project)) : project !== '' ? await openScopeIfRegistered(deps, project) : null
  if (!scope) throw new NotFoundError(SENTRY_CLI_MESSAGES.project)
  await requirePluginEnabled(scope, plugin)
  return scope
}

function versionOf(value: unknown): string {
  const version = typeof value === 'string' ? value.trim() : ''
  if (version.length < 1 || version.length > RELEASE_LIMITS.version) throw new InvalidInputError(`version must be 1–${RELEASE_LIMITS.version} characters.`)
  return version
}

async function newRelease(request: ApiRequest, deps: Deps, plugin: Plugin): Promise<Response> {
  await authenticate(request, deps)
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const version = versionOf(body.version)
  const scope = await projectScope(body, deps, plugin)
  const now = deps.now()
  await registerRelease(scope, version, toTimestamp(now))
  return json(releaseRecord(scope, version, now, typeof body.dateReleased === 'string' ? body.dateReleased : null), 201)
}

async function finalizeRelease(request: ApiRequest, deps: Deps, plugin: Plugin): Promise<Response> {
  await authenticate(request, deps)
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const version = versionOf(decodeURIComponent(String(request.params.version ?? '')))
  const scope = await projectScope(body, deps, plugin)
  if (!(await releaseKnown(scope, version))) throw new NotFoundError(SENTRY_CLI_MESSAGES.release)
  const now = deps.now()
  return json(releaseRecord(scope, version, now, typeof body.dateReleased === 'string' ? body.dateReleased : now.toISOString()), 200)
}

async function chunkOptions(request: ApiRequest, deps: Deps): Promise<Response> {
  await authenticate(request, deps)
  requireLogs(deps)
  return json({
    url: `/api/0/organizations/${encodeURIComponent(String(request.params.org ?? 'loupe'))}/chunk-upload/`,
    chunkSize: CHUNK_SIZE,
    chunksPerRequest: CHUNKS_PER_REQUEST,
    maxRequestSize: MAX_REQUEST_BYTES,
    maxFileSize: RELEASE_LIMITS.mapBytes,
    concurrency: 1,
    hashAlgorithm: 'sha1',
    compression: ['gzip'],
    maxWait: 60,
  })
}

/** `POST …/chunk-upload/`: multipart parts `file` (raw) or `file_gzip`, each named by the SHA-1 of its bytes. */
async function uploadChunks(request: ApiRequest, deps: Deps): Promise<Response> {
  await authenticate(request, deps)
  const logs = requireLogs(deps)
  const bytes = await readBodyBytes(request, MAX_REQUEST_BYTES)
  let form: FormData
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData()
  } catch {
    throw new MalformedRequestError('The chunk upload must be multipart/form-data.')
  }
  const parts = [...form.getAll('file').map((entry) => ['file', entry] as const), ...form.getAll('file_gzip').map((entry) => ['file_gzip', entry] as const)]
  for (const [field, entry] of parts) {
    // Runtimes type a form entry differently (string | File, or string | Blob with a name).
    const value = entry as unknown as string | File
    if (typeof value === 'string') continue
    const raw = new Uint8Array(await value.arrayBuffer())
    const chunk = field === 'file_gzip' ? await gunzip(raw) : raw
    const name = value.name.toLowerCase()
    if (!SHA1.test(name) || (await sha1(chunk)) !== name) throw new InvalidInputError(SENTRY_CLI_MESSAGES.chunk)
    await logs.write(`${CHUNK_PREFIX}${name}`, chunk, chunk.length)
  }
  return json({})
}

/**
 * `POST …/artifactbundle/assemble/`: lists the chunks not stored yet (`not_found`), else joins them, checks the
 * bundle's SHA-1, stores its maps under the release and answers `ok` — synchronously, so `--wait` is not needed.
 */
async function assemble(request: ApiRequest, deps: Deps, plugin: Plugin): Promise<Response> {
  await authenticate(request, deps)
  const logs = requireLogs(deps)
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const checksum = typeof body.checksum === 'string' ? body.checksum.toLowerCase() : ''
  const chunks = Array.isArray(body.chunks) ? body.chunks.map((chunk) => String(chunk).toLowerCase()) : []
  if (!SHA1.test(checksum) || chunks.length === 0 || !chunks.every((chunk) => SHA1.test(chunk))) {
    throw new InvalidInputError('checksum and chunks must be SHA-1 hex digests.')
  }
  const scope = await projectScope(body, deps, plugin)
  if (typeof body.version !== 'string' || body.version.trim() === '') {
    return json({ state: 'error', missingChunks: [], detail: 'Loupe resolves source maps by release: upload with --release.' })
  }
  const version = versionOf(body.version)
  const missing: string[] = []
  for (const chunk of new Set(chunks)) if ((await logs.head(`${CHUNK_PREFIX}${chunk}`)) === null) missing.push(chunk)
  if (missing.length > 0) return json({ state: 'not_found', missingChunks: missing })
  const parts: Uint8Array[] = []
  let size = 0
  for (const chunk of chunks) {
    const stored = await logs.head(`${CHUNK_PREFIX}${chunk}`)
    const part = stored ? await logs.read(stored.key, 0, stored.size) : null
    if (part === null) return json({ state: 'not_found', missingChunks: [chunk] })
    size += part.length
    if (size > MAX_BUNDLE_BYTES) return json({ state: 'error', missingChunks: [], detail: 'The artifact bundle is larger than 64 MiB.' })
    parts.push(part)
  }
  const zip = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    zip.set(part, offset)
    offset += part.length
  }
  if ((await sha1(zip)) !== checksum) return json({ state: 'error', missingChunks: [], detail: 'The assembled bundle does not match its checksum.' })
  let maps
  try {
    maps = bundledMaps(zip)
    for (const map of maps) checkSourceMap(map.bytes)
  } catch (error) {
    if (error instanceof InvalidInputError) return json({ state: 'error', missingChunks: [], detail: error.message })
    throw error
  }
  const now = toTimestamp(deps.now())
  for (const map of maps) await storeSourceMap(scope, logs, { release: version, file: map.file, bytes: map.bytes }, now)
  await registerRelease(scope, version, now)
  await logs.delete([...new Set(chunks)].map((chunk) => `${CHUNK_PREFIX}${chunk}`))
  return json({ state: 'ok', missingChunks: [] })
}

async function sha1(bytes: Uint8Array): Promise<string> {
  return hexDigest(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>))
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'))
    return new Uint8Array(await new Response(stream).arrayBuffer())
  } catch {
    throw new MalformedRequestError('A file_gzip chunk is not gzip data.')
  }
}
