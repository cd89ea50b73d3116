/**
 * A failed API call: the HTTP status and the server's `{"error"}` message (shown to the user as is, since
 * the API's messages are written for people). Status 0 means the server could not be reached.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
