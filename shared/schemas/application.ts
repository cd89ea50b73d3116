import { define, optional, refine, string, type, type Infer } from 'superstruct'

/** Application ids are slugs of 1–64 characters (reference §3.4). */
export const APPLICATION_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/

/** Lower-case, runs of other characters become `-`, no leading or trailing `-`, at most 64 characters. */
export function slugify(text: string, maxLength = 64): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '')
}

const applicationName = refine(string(), 'name', (value) => {
  const length = value.trim().length
  return (length >= 1 && length <= 100) || 'Application name must contain 1–100 characters.'
})

const applicationId = define<string>('id', (value) =>
  typeof value === 'string' && (value.trim() === '' || APPLICATION_ID_PATTERN.test(value.trim()))
    ? true
    : 'Application id must be 1–64 lower-case letters, digits or dashes.',
)

/** Body of `POST ?api=applications`: `{name, id?}`; the id defaults to the slug of the name. */
export const ApplicationInputSchema = type({
  name: applicationName,
  id: optional(applicationId),
})
export type ApplicationInput = Infer<typeof ApplicationInputSchema>
