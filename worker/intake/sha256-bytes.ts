const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Lower-case hex SHA-256 of raw bytes (Web Crypto): file prefix hashes and name suffixes. */
export async function sha256Bytes(bytes: Uint8Array): Promise<string> {
  return hexDigest(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))
}

/** Lower-case hex of a digest (e.g. the log store's streaming copy hash). */
export function hexDigest(digest: ArrayBuffer): string {
  let hex = ''
  for (const byte of new Uint8Array(digest)) hex += HEX[byte]!
  return hex
}
