/** Seeding and checking through the real API, the way a script would (no Origin header). */
export function apiClient(base: string, token?: string) {
  const headers = (extra: Record<string, string> = {}) => ({ ...(token ? { 'x-service-token': token } : {}), ...extra })
  async function call<T = any>(endpoint: string, init: { method?: string; query?: Record<string, string | number>; body?: unknown; raw?: string } = {}): Promise<T> {
    const params = new URLSearchParams({ api: endpoint, ...Object.fromEntries(Object.entries(init.query ?? {}).map(([key, value]) => [key, String(value)])) })
    const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body))
    const response = await fetch(`${base}/?${params}`, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers: headers(), body })
    const data = await response.json()
    if (!response.ok) throw new Error(`${endpoint}: HTTP ${response.status} ${JSON.stringify(data)}`)
    return data as T
  }
  return { call }
}
