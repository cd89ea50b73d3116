const encoder = new TextEncoder()

/**
 * Constant-time comparison of a presented secret with the expected one (design.md §6: the API token, ingest
 * keys, webhook signatures): both sides are hashed first, so neither the length nor the position of the first
 * difference shows in the timing.
 */
export async function secretsEqual(presented: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(presented)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ])
  const left = new Uint8Array(a)
  const right = new Uint8Array(b)
  let difference = 0
  for (let i = 0; i < left.length; i++) difference |= left[i]! ^ right[i]!
  return difference === 0
}
