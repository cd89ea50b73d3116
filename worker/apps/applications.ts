import { DriverError } from '../../drivers/driver-error.ts'
import type { ApplicationView } from '../../shared/api.ts'
import { slugify, type ApplicationInput } from '../../shared/schemas/application.ts'
import { InvalidInputError } from '../errors.ts'
import { toTimestamp } from '../time.ts'
import type { Deps } from '../deps.ts'
import { DEFAULT_APPLICATION_ID, type Application } from './application.ts'
import { tablePrefix } from './tables.ts'


/** `GET ?api=applications`: every application, in registration order (always fresh from the database). */
export async function listApplications(deps: Deps): Promise<ApplicationView[]> {
  const apps = await deps.registry.reload(deps.databases.main(), deps.now())
  return apps.map((app) => present(deps, app))
}

const INSERT_APPLICATION = `INSERT INTO loupe_applications (id, name, namespace, created_at)
  SELECT ?, ?, COALESCE(MAX(namespace), 0) + 1, ? FROM loupe_applications`

/**
 * `POST ?api=applications`: registers an application and creates its tables before answering, so the
 * caller can use it at once. The namespace is the next free number; a concurrent registration that took
 * the same number makes the insert fail on the unique key, and it is retried.
 */
export async function createApplication(deps: Deps, input: ApplicationInput): Promise<ApplicationView> {
  const name = input.name.trim()
  const id = input.id?.trim() || slugify(name)
  if (id === '') throw new InvalidInputError('Application id must be 1–64 lower-case letters, digits or dashes.')
  if (id === DEFAULT_APPLICATION_ID) throw new InvalidInputError(`The application id '${DEFAULT_APPLICATION_ID}' is reserved.`)
  const main = deps.databases.main()
  const duplicate = () => new InvalidInputError(`An application with id '${id}' already exists.`)
  if ((await deps.registry.reload(main, deps.now())).some((app) => app.id === id)) throw duplicate()
  for (let attempt = 1; ; attempt++) {
    try {
      await main.db.execute({ sql: INSERT_APPLICATION, args: [id, name, toTimestamp(deps.now())] })
      break
    } catch (error) {
      if (!(error instanceof DriverError && error.code === 'constraint')) throw error
      if ((await deps.registry.reload(main, deps.now())).some((app) => app.id === id)) throw duplicate()
      if (attempt === 3) throw error
    }
  }
  const app = (await deps.registry.reload(main, deps.now())).find((candidate) => candidate.id === id)!
  await deps.registry.ensureSchema(deps.databases.forApplication(app.id), app, deps.now())
  return present(deps, app)
}

function present(deps: Deps, app: Application): ApplicationView {
  const database = deps.databases.describeApplication(app.id)
  return {
    id: app.id,
    name: app.name,
    database: database.driver,
    table_prefix: tablePrefix(app.namespace, database.dedicated),
    logs: `incoming/${app.id}/`,
    processed: `processed/${app.id}/`,
    sources: `sources/${app.id}/`,
    created_at: app.created_at,
  }
}
