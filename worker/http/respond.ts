/** Every API response is JSON, success or error (seed §1 "Content conventions"). */
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers: JSON_HEADERS })
  if (headers) new Headers(headers).forEach((value, name) => response.headers.set(name, value))
  return response
}

/** 201 with the created resource. */
export function created(body: unknown): Response {
  return json(body, 201)
}
