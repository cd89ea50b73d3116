import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { S3_TEST_BUCKET, S3_TEST_KEYS } from './s3-keys.ts'

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: the signature-checking front. */
  readonly url: string
  close(): Promise<void>
}

/**
 * An S3-compatible server for the connector tests (issue 15): `s3rver` (npm, pinned) stores the objects and
 * answers the S3 API, behind a front that verifies every request's AWS Signature Version 4 as S3 does (AWS
 * "Authenticating Requests: Using the Authorization Header", canonical request → string to sign → HMAC chain).
 * s3rver itself checks only that the access key exists (its SigV4 check is unimplemented), so without this front
 * a wrong secret would pass. Wrong keys get S3's own 403 XML (`InvalidAccessKeyId`, `SignatureDoesNotMatch`).
 * The bucket `S3_TEST_BUCKET` exists from the start; the keys are s3rver's built-in pair (`S3_TEST_KEYS`).
 */
export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'loupe-s3rver-'))
  const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> }
  const backend = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: S3_TEST_BUCKET }], vhostBuckets: false })
  const inner = await backend.run()
  const front: Server = createServer((req, res) => {
    const problem = verifySignature(req)
    if (problem) return deny(res, problem.code, problem.message)
    const upstream = httpRequest({ host: '127.0.0.1', port: inner.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => deny(res, 'InternalError', 'The S3 backend failed.', 500))
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  const { port } = front.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      front.closeAllConnections()
      await new Promise((resolve) => front.close(resolve))
      await backend.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}

function deny(res: ServerResponse, code: string, message: string, status = 403): void {
  res.writeHead(status, { 'content-type': 'application/xml' })
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`)
}

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest()

function verifySignature(req: IncomingMessage): { code: string; message: string } | null {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(req.headers.authorization ?? '')
  if (!auth) return { code: 'AccessDenied', message: 'Anonymous access is forbidden for this operation.' }
  const [, accessKey, day, region, service, signedHeaders, signature] = auth as unknown as string[]
  if (accessKey !== S3_TEST_KEYS.accessKeyId) return { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' }
  const amzDate = String(req.headers['x-amz-date'] ?? '')
  const [rawPath, rawQuery = ''] = (req.url ?? '/').split('?')
  const query = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((part) => encode(decodeURIComponent(part.replace(/\+/g, ' ')))) as [string, string?])
    .map(([key, value = '']) => [key, value] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&')
  const headers = signedHeaders!.split(';').map((name) => `${name}:${String(req.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('')
  const canonical = [req.method, rawPath, query, headers, signedHeaders, String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD')].join('\n')
  const scope = `${day}/${region}/${service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${S3_TEST_KEYS.secretAccessKey}`, day!), region!), service!), 'aws4_request')
  const expected = createHmac('sha256', key).update(toSign).digest()
  const given = Buffer.from(signature!, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' }
  }
  return null
}
