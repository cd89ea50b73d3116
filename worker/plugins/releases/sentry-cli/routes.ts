import { openScopeByNamespace, openScopeIfRegistered } from '../../../apps/open-scope.ts'
import type { AppScope } from '../../../apps/app-scope.ts'
import type { Deps } from '../../../deps.ts'
import { InvalidInputError, MalformedRequestError, NotFoundError, UnauthorizedError } from '../../../errors.ts'
import { readBodyBytes, readJsonObject } from '../../../http/read-body.ts'
import { json } from '../../../http/respond.ts'
import type { ApiRequest } from '../../../http/router.ts'
import { requireLogs } from '../../../intake/log-storage.ts'
import { secretsEqual } from '../../../security/secrets-equal.ts'
import { toTimestamp } from '../../../time.ts'
import type { Plugin, PluginPath } from '../../plugin.ts'
import { requirePluginEnabled } from '../../routes.ts'
import { RELEASE_LIMITS } from '../../../../shared/schemas/releases.ts'
import { assembleBundle, toAssembleRequest } from './assemble-bundle.ts'
import { chunkUploadOptions, MAX_CHUNK_REQUEST_BYTES, storeChunks, type UploadedChunk } from './chunks.ts'
import { releaseKnown, releaseRecord, registerRelease } from './cli-releases.ts'


export const SENTRY_CLI_MESSAGES = {
  token: 'A valid API key is required. Send it as Authorization: Bearer.',
  project: 'Unknown project: the project names the application (its id or its numeric namespace).',
  release: 'Release not found.',
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
  return json(chunkUploadOptions(String(request.params.org ?? 'loupe')))
}

/** `POST …/chunk-upload/`: multipart parts `file` (raw) or `file_gzip`, each named by the SHA-1 of its bytes. */
async function uploadChunks(request: ApiRequest, deps: Deps): Promise<Response> {
  await authenticate(request, deps)
  const logs = requireLogs(deps)
  const bytes = await readBodyBytes(request, MAX_CHUNK_REQUEST_BYTES)
  let form: FormData
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData()
  } catch {
    throw new MalformedRequestError('The chunk upload must be multipart/form-data.')
  }
  const chunks: UploadedChunk[] = []
  for (const field of ['file', 'file_gzip'] as const) {
    for (const entry of form.getAll(field)) {
      // Runtimes type a form entry differently (string | File, or string | Blob with a name).
      const value = entry as unknown as string | File
      if (typeof value !== 'string') chunks.push({ name: value.name, gzip: field === 'file_gzip', bytes: new Uint8Array(await value.arrayBuffer()) })
    }
  }
  await storeChunks(logs, chunks)
  return json({})
}

/** `POST …/artifactbundle/assemble/` (assemble-bundle.ts). */
async function assemble(request: ApiRequest, deps: Deps, plugin: Plugin): Promise<Response> {
  await authenticate(request, deps)
  const logs = requireLogs(deps)
  const body = await readJsonObject(request, deps.config.maxBodyBytes)
  const version = typeof body.version === 'string' && body.version.trim() !== '' ? versionOf(body.version) : null
  const input = toAssembleRequest(body, version)
  const scope = await projectScope(body, deps, plugin)
  return json(await assembleBundle(scope, logs, input, toTimestamp(deps.now())))
}
