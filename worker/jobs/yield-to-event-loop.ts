/**
 * Lets the runtime take other work (new connections, other requests' I/O) before a long run goes on.
 *
 * An import chains range reads, parsing and database calls whose promises are always already settled or
 * settle in-process, so without a timer turn the event loop never polls its sockets: under `wrangler dev`
 * (one workerd thread for the worker, D1 and R2) every other request waited for a whole import run, and a
 * request that arrived while a queue job was running sometimes was not served until a later request woke
 * the loop (docs/ingestion.md "Local development: requests during an import"). A zero-delay timer goes through the event loop's poll,
 * so waiting requests are accepted between chunks. It costs well under a millisecond per 1 MiB chunk.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
