/**
 * Retries work that the engine aborted as a whole to break a lock conflict: an InnoDB deadlock (MySQL errno
 * 1213) rolls back the victim's entire transaction, and so does a PostgreSQL deadlock (SQLSTATE 40P01) or
 * serialization failure (40001). Nothing of the attempt remains, so running it again is safe — and it is what
 * both engines tell the client to do ("try restarting transaction"). Anything else is rethrown at once.
 */
export async function retryOnDeadlock<T>(work: () => Promise<T>, isDeadlock: (error: unknown) => boolean, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error
      // Short, growing, jittered pauses so the two contenders do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, attempt * 10 + Math.random() * 20))
    }
  }
}
