import { AwsV4Signer } from 'aws4fetch'
import { CONNECTOR_LIMITS, CONNECTOR_MESSAGES } from '../../shared/schemas/connectors.ts'
import { InvalidInputError, OperationalError } from '../errors.ts'
import { isLogFileName } from '../intake/log-file-name.ts'
import { outboundFetch, outboundRefusal } from '../security/outbound.ts'
import { toTimestamp } from '../time.ts'
import type { ConnectorTypeDefinition, RemoteFile, RemoteSource, SourcePolicy } from './connector-type.ts'
import { readRange } from './http-connector.ts'

/** At most this many log files per listing (reference §6: 10 000 discovered files). */
export const MAX_S3_FILES = 10_000

/**
 * The `s3` connector (design.md §3): log files in any S3-compatible bucket — AWS S3, R2, MinIO … — under a
 * prefix. ListObjectsV2 lists them (log file names only: `.log`, `.log.N`, `.jsonl`, `.ndjson`), ranged GETs
 * read their new tails; every request is signed with SigV4 by `aws4fetch` (issue 15: no hand-written crypto).
 * An object's ETag is its identity; objects are replaced whole, so an "append" is a longer object with the same
 * first bytes. The access key pair is sealed at rest.
 */
export const S3_CONNECTOR: ConnectorTypeDefinition = {
  type: 's3',
  parseConfig: (value, allowLocalTargets) => ({ ...parseS3Config(value, allowLocalTargets) }),
  parseCredentials(value) {
    if (!isObject(value)) throw new InvalidInputError(CONNECTOR_MESSAGES.s3Credentials)
    const { access_key_id: id, secret_access_key: secret, ...rest } = value
    const ok = (text: unknown, max: number) => typeof text === 'string' && text.length >= 1 && text.length <= max && /^[\x21-\x7e]+$/.test(text)
    if (Object.keys(rest).length > 0 || !ok(id, 128) || !ok(secret, 256)) throw new InvalidInputError(CONNECTOR_MESSAGES.s3Credentials)
    return { access_key_id: id, secret_access_key: secret }
  },
  requiresCredentials: true,
  credentialsHint(credentials) {
    const id = String(credentials.access_key_id ?? '')
    return `access key ${id.slice(0, 4)}…`
  },
  open(config, credentials, policy) {
    if (typeof credentials?.access_key_id !== 'string' || typeof credentials.secret_access_key !== 'string') throw new OperationalError(CONNECTOR_MESSAGES.s3Credentials)
    // The stored config was normalised by parseS3Config when saved; decoding it again types it (the outbound
    // policy is enforced on every request by outboundFetch, so the local-target check is not repeated here).
    return new S3Source(parseS3Config(config, true), { access_key_id: credentials.access_key_id, secret_access_key: credentials.secret_access_key }, policy)
  },
  testMessage(files) {
    return `Connection succeeded; discovered ${files.length} log file(s) in the bucket.`
  },
}

/** Validates and normalises an `s3` connector's config (issue 15). */
function parseS3Config(value: unknown, allowLocalTargets: boolean): S3Config {
  if (!isObject(value)) throw new InvalidInputError(CONNECTOR_MESSAGES.config)
  const { endpoint, region, bucket, prefix, path_style: pathStyle } = value
  let url: URL
  try {
    url = new URL(String(endpoint ?? '').trim())
  } catch {
    throw new InvalidInputError(CONNECTOR_MESSAGES.s3Config)
  }
  const regionText = region === undefined || region === null || region === '' ? 'auto' : region
  const valid =
    ['http:', 'https:'].includes(url.protocol) && !url.username && !url.password && (url.pathname === '/' || url.pathname === '') && !url.search &&
    typeof regionText === 'string' && /^[a-z0-9-]{1,40}$/.test(regionText) &&
    typeof bucket === 'string' && /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) &&
    (prefix === undefined || prefix === null || (typeof prefix === 'string' && prefix.length <= CONNECTOR_LIMITS.pathMax - 100 && !/[\0\r\n]/.test(prefix))) &&
    (pathStyle === undefined || typeof pathStyle === 'boolean')
  if (!valid) throw new InvalidInputError(CONNECTOR_MESSAGES.s3Config)
  const refusal = outboundRefusal(url, { allowLocalTargets })
  if (refusal) throw new InvalidInputError(`Connector URL rejected: ${refusal}.`)
  return { endpoint: url.origin, region: regionText, bucket, prefix: typeof prefix === 'string' ? prefix : '', path_style: pathStyle !== false }
}

interface S3Config {
  readonly endpoint: string
  readonly region: string
  readonly bucket: string
  readonly prefix: string
  readonly path_style: boolean
}

class S3Source implements RemoteSource {
  constructor(
    private readonly config: S3Config,
    private readonly credentials: { access_key_id: string; secret_access_key: string },
    private readonly policy: SourcePolicy,
  ) {}

  /** `s3://<bucket>/<key>`: the stream's remote path (its file name is the key's last segment). */
  private pathOf(key: string): string {
    return `s3://${this.config.bucket}/${key}`
  }

  private objectUrl(key: string | null): URL {
    const { endpoint, bucket, path_style: pathStyle } = this.config
    const encoded = key === null ? '' : key.split('/').map(encodeURIComponent).join('/')
    if (pathStyle) return new URL(`${endpoint}/${bucket}/${encoded}`)
    const base = new URL(endpoint)
    return new URL(`${base.protocol}//${bucket}.${base.host}/${encoded}`)
  }

  async list(): Promise<RemoteFile[]> {
    const files: RemoteFile[] = []
    let token: string | null = null
    do {
      const url = this.objectUrl(null)
      url.searchParams.set('list-type', '2')
      if (this.config.prefix) url.searchParams.set('prefix', this.config.prefix)
      if (token) url.searchParams.set('continuation-token', token)
      const response = await this.request(url, 'GET')
      const text = await response.text()
      if (!response.ok) throw new OperationalError(`S3 bucket ${this.config.bucket}: ${s3Problem(response.status, text)}`)
      for (const block of text.match(/<Contents>[\s\S]*?<\/Contents>/g) ?? []) {
        const key = xmlValue(block, 'Key')
        if (key === null || key.endsWith('/') || !isLogFileName(key.slice(key.lastIndexOf('/') + 1))) continue
        if (this.pathOf(key).length > CONNECTOR_LIMITS.pathMax) continue
        const modified = new Date(xmlValue(block, 'LastModified') ?? '')
        files.push({
          path: this.pathOf(key),
          identity: `etag:${xmlValue(block, 'ETag') ?? ''}`,
          size: Number(xmlValue(block, 'Size') ?? 0),
          modifiedAt: Number.isNaN(modified.getTime()) ? null : toTimestamp(modified),
        })
        if (files.length >= MAX_S3_FILES) return files
      }
      token = xmlValue(text, 'IsTruncated') === 'true' ? xmlValue(text, 'NextContinuationToken') : null
    } while (token)
    return files
  }

  async read(file: RemoteFile, offset: number, length: number): Promise<Uint8Array> {
    const key = file.path.slice(`s3://${this.config.bucket}/`.length)
    const response = await this.request(this.objectUrl(key), 'GET', { range: `bytes=${offset}-${offset + length - 1}` })
    if (response.status !== 206 && !(response.status === 200 && offset === 0)) {
      const text = await response.text().catch(() => '')
      throw new OperationalError(`${file.path}: ${s3Problem(response.status, text)}`)
    }
    return readRange(file.path, response, offset, length)
  }

  private async request(url: URL, method: 'GET', extra: Record<string, string> = {}) {
    const signed = await new AwsV4Signer({
      method,
      url: url.toString(),
      headers: extra,
      accessKeyId: this.credentials.access_key_id,
      secretAccessKey: this.credentials.secret_access_key,
      service: 's3',
      region: this.config.region,
    }).sign()
    try {
      return await outboundFetch(signed.url, { method, headers: signed.headers }, this.policy)
    } catch (error) {
      throw new OperationalError(`S3 endpoint ${this.config.endpoint}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

/** An S3 error answer in words: its `<Code>` and `<Message>` (wrong keys: InvalidAccessKeyId, SignatureDoesNotMatch). */
function s3Problem(status: number, body: string): string {
  const code = xmlValue(body, 'Code')
  const message = xmlValue(body, 'Message')
  if (status === 403 || status === 401) return `access denied (${status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}); check the connector's access key and secret.`
  if (status >= 300 && status < 400) return `the endpoint answered with a redirect (${status}); redirects are not followed, check the endpoint, region and path style.`
  return `the endpoint answered ${status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}.`
}

function xmlValue(xml: string, tag: string): string | null {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml)
  if (!match) return null
  return match[1]!.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g, (_, entity: string) => {
    if (entity === 'lt') return '<'
    if (entity === 'gt') return '>'
    if (entity === 'quot') return '"'
    if (entity === 'apos') return "'"
    if (entity === 'amp') return '&'
    return String.fromCodePoint(entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)))
  })
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
