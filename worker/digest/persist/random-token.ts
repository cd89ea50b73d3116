/** 32 random hex characters (Web Crypto): import-batch and scratch-row tokens, unique per use. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  let hex = ''
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0')
  return hex
}
