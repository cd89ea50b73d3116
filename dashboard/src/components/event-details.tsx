import { InspectorSection } from './inspector-section.tsx'

type Json = Record<string, unknown>

/**
 * What an event reported over HTTP or Sentry ingest carried, read from the latest sample context
 * (docs/ingest.md): release, user, request, Sentry tags and contexts, breadcrumbs. Log-file issues have none
 * of these keys, so nothing is shown for them; the raw JSON stays in the Context section below.
 */
export function EventDetails({ context }: { context: string | null }) {
  const data = parse(context)
  if (!data) return null
  const user = record(data.user)
  const request = record(data.request)
  const tags = record(data.tags)
  const contexts = record(data.contexts)
  const breadcrumbs = Array.isArray(data.breadcrumbs) ? data.breadcrumbs.filter(isRecord) : []
  const release = typeof data.release === 'string' ? data.release : null
  if (!user && !request && !tags && !contexts && breadcrumbs.length === 0 && !release) return null
  return (
    <>
      <InspectorSection title="Event">
        <dl class="facts" data-testid="event-details">
          {release && <Fact label="Release" value={release} />}
          {typeof data.server_name === 'string' && <Fact label="Server" value={data.server_name} />}
          {typeof data.platform === 'string' && <Fact label="Platform" value={data.platform} />}
          {user && <Fact label="User" value={Object.entries(user).map(([key, value]) => `${key}: ${show(value)}`).join(', ')} />}
          {request && <Fact label="Request" value={[request.method, request.url].filter((part) => typeof part === 'string').join(' ') || show(request)} />}
          {contexts && Object.entries(contexts).filter(([, value]) => isRecord(value)).map(([name, value]) => <Fact key={name} label={name} value={summary(value as Json)} />)}
        </dl>
        {tags && (
          <div class="kv-chips" aria-label="Event tags">
            {Object.entries(tags).map(([key, value]) => (
              <span key={key} class="kv-chip">
                <b>{key}</b> {show(value)}
              </span>
            ))}
          </div>
        )}
      </InspectorSection>
      {breadcrumbs.length > 0 && (
        <InspectorSection title="Breadcrumbs" count={breadcrumbs.length} open={false}>
          <ol class="event-list" data-testid="breadcrumbs">
            {breadcrumbs.map((crumb, index) => (
              <li key={index}>
                <span class="muted small">{[time(crumb.timestamp), crumb.category].filter(Boolean).join(' · ')}</span>
                <span>{show(crumb.message ?? crumb.data ?? crumb.type ?? '')}</span>
              </li>
            ))}
          </ol>
        </InspectorSection>
      )}
    </>
  )
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div class="fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}

/** `name version` of a Sentry context (runtime, os, browser), else its first few fields. */
function summary(value: Json): string {
  if (typeof value.name === 'string') return [value.name, value.version].filter((part) => typeof part === 'string').join(' ')
  return Object.entries(value).slice(0, 4).map(([key, item]) => `${key}: ${show(item)}`).join(', ')
}

function time(value: unknown): string {
  if (typeof value === 'number') return new Date(value * 1000).toISOString().slice(11, 19)
  return typeof value === 'string' ? value.slice(11, 19) : ''
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function parse(text: string | null): Json | null {
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : null
  } catch {
    return null
  }
}

function record(value: unknown): Json | null {
  return isRecord(value) && Object.keys(value).length > 0 ? value : null
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
