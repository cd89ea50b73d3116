import type { AlertEvent } from '../../../shared/schemas/alerts.ts'

const TRIGGER_ICONS: Record<AlertEvent['trigger_type'], string> = { new_error: '🚨', reoccurrence: '🔁', spike: '📈' }

/** The delivery log, newest first: what each rule sent, and whether it arrived. */
export function AlertEventsSection({ events }: { events: readonly AlertEvent[] }) {
  return (
    <section class="panel settings-panel" aria-labelledby="alert-events-heading" data-testid="alert-events">
      <h2 id="alert-events-heading" class="panel-title">Delivery log</h2>
      {events.length === 0 ? (
        <p class="muted">Nothing sent yet. Alerts appear here as rules fire after imports and ingest.</p>
      ) : (
        <div class="table-wrap">
          <table class="alert-events">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Rule</th>
                <th scope="col">Alert</th>
                <th scope="col">Delivery</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <td class="muted small">{event.sent_at ?? event.created_at}</td>
                  <td>{event.rule_name ?? <span class="muted">deleted rule</span>}</td>
                  <td>
                    <span aria-hidden="true">{TRIGGER_ICONS[event.trigger_type]}</span> {event.summary}
                  </td>
                  <td>
                    <span class={`badge alert-status-${event.status}`}>{event.status}</span>{' '}
                    <span class="muted small">
                      {event.detail ?? ''}
                      {event.attempts > 1 ? ` · ${event.attempts} attempts` : ''}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
