/**
 * Who is acting. A standalone install has no user table: whoever holds the token is the owner
 * (design.md §3), recorded as "Local" like the reference's local owner. History rows and tag
 * `created_by`/`updated_by` carry this label.
 */
export interface Actor {
  readonly id: string
  readonly label: string
}

export const LOCAL_ACTOR: Actor = { id: 'local', label: 'Local' }
