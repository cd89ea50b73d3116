/**
 * Joins concurrent submissions into one commit (a database's "group commit"): while a commit runs, new items
 * queue, and when it ends the queue — up to `maxWeight` — goes in the next one. 32 senders then cost a few
 * batches in flight instead of one round trip each (issue 12: accept ≥ 1,000 events/s on two cores).
 *
 * Each commit runs in the request of one of the items it carries (the first queued one leads the next), never
 * in a request that has already answered: Workers end a request's I/O when it has responded and its
 * `waitUntil` work is done, so a commit left to the previous leader could be cut off. The leader holds its
 * commit with `waitUntil`, so a client that hangs up does not cancel the commit its followers wait for.
 * A follower keeps a timer pending while it waits: workerd cancels a request whose only pending work is a
 * promise another request will settle, taking it for hung ("would never generate a response"), and a
 * follower that waited `maxWaitMs` gives up with `timedOut` (its rows may still land with that commit, as
 * after a database deadline).
 */
export class GroupCommit<Item, Result> {
  private readonly queue: Entry<Item, Result>[] = []
  private running = false

  constructor(
    private readonly commit: (items: readonly Item[]) => Promise<readonly Result[]>,
    private readonly maxWeight: number,
    private readonly options: { maxWaitMs: number; timedOut: () => Error },
  ) {}

  async submit(item: Item, weight: number, waitUntil: (promise: Promise<unknown>) => void): Promise<Result> {
    const entry = new Entry<Item, Result>(item, weight)
    this.queue.push(entry)
    if (this.running) {
      const turn = await this.wait(entry)
      if (turn.kind === 'done') return turn.result
    }
    this.running = true
    const work = this.lead(entry)
    waitUntil(work.catch(() => {}))
    return work
  }

  private async wait(entry: Entry<Item, Result>): Promise<Turn<Result>> {
    const keepAlive = setInterval(() => {}, 1000)
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const queued = this.queue.indexOf(entry)
        if (queued >= 0) this.queue.splice(queued, 1)
        reject(this.options.timedOut())
      }, this.options.maxWaitMs)
    })
    try {
      return await Promise.race([entry.turn, timeout])
    } finally {
      clearInterval(keepAlive)
      clearTimeout(timer)
    }
  }

  /** Commits the queue's head (which holds `entry`), hands the lead on, and returns `entry`'s result. */
  private async lead(entry: Entry<Item, Result>): Promise<Result> {
    const taken = this.take()
    let outcome: { ok: true; results: readonly Result[] } | { ok: false; error: unknown }
    try {
      outcome = { ok: true, results: await this.commit(taken.map((e) => e.item)) }
    } catch (error) {
      outcome = { ok: false, error }
    }
    const next = this.queue[0]
    if (next) next.lead()
    else this.running = false
    taken.forEach((e, index) => {
      if (e === entry) return
      if (outcome.ok) e.done(outcome.results[index]!)
      else e.fail(outcome.error)
    })
    if (!outcome.ok) throw outcome.error
    return outcome.results[taken.indexOf(entry)]!
  }

  /** The queue's head up to `maxWeight` (always at least one item). */
  private take(): Entry<Item, Result>[] {
    let weight = 0
    let count = 0
    while (count < this.queue.length && (count === 0 || weight + this.queue[count]!.weight <= this.maxWeight)) weight += this.queue[count++]!.weight
    return this.queue.splice(0, count)
  }
}

type Turn<Result> = { kind: 'done'; result: Result } | { kind: 'lead' }

class Entry<Item, Result> {
  readonly turn: Promise<Turn<Result>>
  lead!: () => void
  done!: (result: Result) => void
  fail!: (error: unknown) => void

  constructor(
    readonly item: Item,
    readonly weight: number,
  ) {
    this.turn = new Promise<Turn<Result>>((resolve, reject) => {
      this.lead = () => resolve({ kind: 'lead' })
      this.done = (result) => resolve({ kind: 'done', result })
      this.fail = reject
    })
    // A submitter that leads never awaits `turn`; an unawaited rejection must not surface as unhandled.
    this.turn.catch(() => {})
  }
}
