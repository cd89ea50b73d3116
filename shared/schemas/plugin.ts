import { define, type, type Infer } from 'superstruct'

/** The `plugins` endpoint's messages (reference §3.5 and §4.1). */
export const PLUGIN_MESSAGES = {
  required: 'id and enabled are required.',
  enabledType: 'enabled must be true or false.',
  unknown: (id: string) => `Unknown plugin: ${id}.`,
  planned: (name: string) => `The ${name} plugin is not available yet.`,
  disabled: 'This plugin is disabled for the selected application.',
} as const

const absent = (value: unknown) => value === undefined || value === null || value === ''

/** Body of `POST ?api=plugins`: `{id, enabled}`, both required, `enabled` a JSON boolean. */
export const PluginToggleSchema = type({
  id: define<string>('pluginId', (value) => (absent(value) ? PLUGIN_MESSAGES.required : typeof value === 'string' ? true : PLUGIN_MESSAGES.unknown(String(value)))),
  enabled: define<boolean>('pluginSwitch', (value) => (absent(value) ? PLUGIN_MESSAGES.required : typeof value === 'boolean' ? true : PLUGIN_MESSAGES.enabledType)),
})
export type PluginToggle = Infer<typeof PluginToggleSchema>

/** A hook's last failure, shown as the plugin's `last_error` until the hook next succeeds. */
export interface HookFailure {
  readonly hook: 'afterIngest' | 'resolveStack' | 'statusChanged' | 'maintain'
  /** At most 300 characters. */
  readonly message: string
  readonly at: string
}

/** One catalog entry as `GET ?api=plugins` lists it. */
export interface PluginView {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly category: 'Integration' | 'Notifications' | 'Ingestion' | 'Insights'
  readonly status: 'active' | 'planned'
  /** Always false for a `planned` plugin. */
  readonly enabled: boolean
  readonly last_error: HookFailure | null
}
