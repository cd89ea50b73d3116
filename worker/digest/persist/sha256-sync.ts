/**
 * Synchronous SHA-256 (FIPS 180-4) of `parts.join(separator)` as UTF-8, in lower-case hex, without building
 * the joined string. Web Crypto's `digest` is asynchronous and costs several microseconds per call in promise
 * and copy overhead, which dominates for the short strings hashed once per imported event (the hashes and
 * fingerprints of reference §2.5); this loop is several times faster there, and skipping the join copy of
 * the whole body matters at tens of thousands of events per second. test/worker/digest/persist/
 * sha256-sync.test.ts holds it equal to node's SHA-256.
 */
export function sha256Joined(parts: readonly string[], separator: string): string {
  // UTF-8 is at most 3 bytes per UTF-16 unit; grow the scratch buffers when needed.
  let units = separator.length * parts.length
  for (const part of parts) units += part.length
  if (bytes.length < units * 3 + 72) {
    bytes = new Uint8Array(units * 3 + 72)
    buffer = new Int32Array(bytes.length >>> 2)
  }
  let length = 0
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) length += encoder.encodeInto(separator, bytes.subarray(length)).written
    length += encoder.encodeInto(parts[i]!, bytes.subarray(length)).written
  }
  // Message + 0x80 + zero padding + 64-bit big-endian bit length, rounded up to 64-byte blocks.
  const words = (((length + 8) >>> 6) + 1) * 16
  bytes[length] = 0x80
  bytes.fill(0, length + 1, words * 4)
  for (let i = 0, j = 0; i < words; i++, j += 4) buffer[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!
  buffer[words - 2] = Math.floor(length / 0x2000_0000)
  buffer[words - 1] = length << 3
  let h0 = 0x6a09e667 | 0, h1 = 0xbb67ae85 | 0, h2 = 0x3c6ef372 | 0, h3 = 0xa54ff53a | 0
  let h4 = 0x510e527f | 0, h5 = 0x9b05688c | 0, h6 = 0x1f83d9ab | 0, h7 = 0x5be0cd19 | 0
  for (let block = 0; block < words; block += 16) {
    for (let t = 0; t < 16; t++) w[t] = buffer[block + t]!
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!
      const b = w[t - 2]!
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3)
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10)
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
      h = g
      g = f
      f = e
      e = (d + t1) | 0
      d = c
      c = b
      b = a
      a = (t1 + t2) | 0
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
    h5 = (h5 + f) | 0
    h6 = (h6 + g) | 0
    h7 = (h7 + h) | 0
  }
  return hex(h0) + hex(h1) + hex(h2) + hex(h3) + hex(h4) + hex(h5) + hex(h6) + hex(h7)
}

const encoder = new TextEncoder()
const w = new Int32Array(64)
let bytes = new Uint8Array(4096)
let buffer = new Int32Array(1024)
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

function hex(word: number): string {
  return HEX[(word >>> 24) & 0xff]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!
}
