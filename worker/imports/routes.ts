import { InvalidInputError, PayloadTooLargeError } from '../errors.ts'
import { queryString } from '../http/query.ts'
import { readBodyBytes } from '../http/read-body.ts'
import { json } from '../http/respond.ts'
import { route, type ApiRequest, type ApiRouter } from '../http/router.ts'
import { scopeOf, withApp } from '../http/with-app.ts'
import { importIncoming, importStatus, type Upload } from './import-incoming.ts'
import { parseUploadPath, UPLOAD_EMPTY_MESSAGE, UPLOAD_MAX_BYTES } from './log-file-name.ts'

/**
 * Chunked uploads (no Content-Length) are buffered before they go to R2, which needs the length up front;
 * they get a smaller limit than streamed ones to stay well inside the isolate's 128 MB.
 */
export const CHUNKED_UPLOAD_MAX_BYTES = 32 * 1024 * 1024

/** `?api=import-incoming` (reference §6, docs/api-ingestion.md). */
export function registerImportRoutes(router: ApiRouter): void {
  route(
    router,
    '/import-incoming',
    {
      GET: async (request, deps) => json(await importStatus(scopeOf(request), deps.now())),
      POST: async (request, deps) => {
        const result = await importIncoming(deps, scopeOf(request), await readUpload(request))
        return json(result, result.job ? 202 : 200)
      },
    },
    [withApp],
  )
}

/** The upload of `?file=<module>/<name>`: the raw body, streamed when its length is declared. */
async function readUpload(request: ApiRequest): Promise<Upload | null> {
  const file = queryString(request.query, 'file')
  if (file === undefined) return null
  const path = parseUploadPath(file)
  const declared = request.headers.get('content-length')
  if (declared !== null && /^\d+$/.test(declared.trim())) {
    const length = Number(declared)
    if (length > UPLOAD_MAX_BYTES) throw new PayloadTooLargeError(UPLOAD_MAX_BYTES)
    if (length === 0 || !request.body) throw new InvalidInputError(UPLOAD_EMPTY_MESSAGE)
    return { path, body: request.body, length }
  }
  const bytes = await readBodyBytes(request, CHUNKED_UPLOAD_MAX_BYTES)
  if (bytes.length === 0) throw new InvalidInputError(UPLOAD_EMPTY_MESSAGE)
  return { path, body: bytes, length: bytes.length }
}
