import { createContext, type ComponentChildren } from 'preact'
import { useContext } from 'preact/hooks'
import { listAssignableUsers, listModules, listTags } from '../api/endpoints.ts'
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
}

const CatalogContext = createContext<Catalog | null>(null)

export function CatalogProvider({ app, children }: { app: string; children: ComponentChildren }) {
  const tags = useApi(`tags:${app}`, listTags)
  const modules = useApi(`modules:${app}`, listModules)
  const users = useApi(`users:${app}`, listAssignableUsers)
  return <CatalogContext.Provider value={{ tags, modules, users }}>{children}</CatalogContext.Provider>
}

export function useCatalog(): Catalog {
  const catalog = useContext(CatalogContext)
  if (!catalog) throw new Error('useCatalog() outside <CatalogProvider>')
  return catalog
}
