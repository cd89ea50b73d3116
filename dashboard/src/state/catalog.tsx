import { createContext, type ComponentChildren } from 'preact'
import { useContext } from 'preact/hooks'
import { listAssignableUsers, listModules, listPlugins, listTags } from '../api/endpoints.ts'
import type { PluginView } from '../../../shared/schemas/plugin.ts'
import type { AssignableUser, Module, Tag } from '../api/types.ts'
import { useApi, type ApiState } from './use-api.ts'

/**
 * The per-application lists many views pick from (filters, inspector, bulk bar, dialogs): loaded once per
 * application and data epoch instead of once per component.
 */
export interface Catalog {
  readonly tags: ApiState<{ data: Tag[] }>
  readonly modules: ApiState<{ data: Module[] }>
  readonly users: ApiState<{ data: AssignableUser[] }>
  /** The plugin switches: views of a plugin (release markers, the inspector's releases) ask only while it is on. */
  readonly plugins: ApiState<{ data: PluginView[] }>
}

const CatalogContext = createContext<Catalog | null>(null)

export function CatalogProvider({ app, children }: { app: string; children: ComponentChildren }) {
  const tags = useApi(`tags:${app}`, listTags)
  const modules = useApi(`modules:${app}`, listModules)
  const users = useApi(`users:${app}`, listAssignableUsers)
  const plugins = useApi(`plugins:${app}`, listPlugins)
  return <CatalogContext.Provider value={{ tags, modules, users, plugins }}>{children}</CatalogContext.Provider>
}

export function useCatalog(): Catalog {
  const catalog = useContext(CatalogContext)
  if (!catalog) throw new Error('useCatalog() outside <CatalogProvider>')
  return catalog
}

/** Whether the plugin is on for the application (false until the switches are known). */
export function usePluginEnabled(id: string): boolean {
  return useCatalog().plugins.data?.data.some((plugin) => plugin.id === id && plugin.enabled) ?? false
}
