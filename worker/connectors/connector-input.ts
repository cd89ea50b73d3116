import { CONNECTOR_LIMITS, CONNECTOR_MESSAGES } from '../../shared/schemas/connectors.ts'
import { InvalidInputError } from '../errors.ts'
import { connectorType } from './connector-types.ts'
import type { ConnectorTypeDefinition } from './connector-type.ts'

/** A validated create or update body: absent fields are undefined (an update keeps them). */
export interface ConnectorInput {
  readonly name?: string
  readonly definition?: ConnectorTypeDefinition
  readonly config?: Record<string, unknown>
  /** null: remove the stored credentials; undefined: keep them. */
  readonly credentials?: Record<string, unknown> | null
  readonly enabled?: boolean
  readonly module_id?: number | null
  readonly sync_interval_minutes?: number | null
}

/**
 * Reads a `connectors` body (reference §6 "CRUD" messages). `existingType` is the stored type of the connector
 * an update addresses (its config is checked against that type unless the body changes the type); a create
 * needs name, type and config.
 */
export function parseConnectorInput(body: Record<string, unknown>, options: { readonly existingType?: string; readonly allowLocalTargets: boolean }): ConnectorInput {
  const creating = options.existingType === undefined
  const input: { -readonly [K in keyof ConnectorInput]: ConnectorInput[K] } = {}
  if (body.name !== undefined || creating) {
    const name = typeof body.name === 'string' ? body.name.trim() : ''
    if (name.length < 1 || name.length > CONNECTOR_LIMITS.nameMax) throw new InvalidInputError(CONNECTOR_MESSAGES.name)
    input.name = name
  }
  if (body.type !== undefined || creating) input.definition = connectorType(typeof body.type === 'string' ? body.type.trim().toLowerCase() : body.type)
  const definition = input.definition ?? connectorType(options.existingType)
  if (body.config !== undefined || creating || (input.definition && input.definition.type !== options.existingType)) {
    input.config = definition.parseConfig(body.config, options.allowLocalTargets)
  }
  if (body.credentials !== undefined) input.credentials = definition.parseCredentials(body.credentials)
  const typeChanged = !creating && input.definition !== undefined && input.definition.type !== options.existingType
  // Another type's credentials mean nothing to this one: a type change brings its own or drops the old.
  if (typeChanged && input.credentials === undefined) input.credentials = null
  if (definition.requiresCredentials && (input.credentials === null || (creating && input.credentials === undefined))) {
    input.credentials = definition.parseCredentials(null) // throws the type's message
  }
  if (body.enabled !== undefined) {
    if (typeof body.enabled !== 'boolean') throw new InvalidInputError(CONNECTOR_MESSAGES.enabled)
    input.enabled = body.enabled
  }
  if (body.module_id !== undefined) {
    const id = body.module_id
    if (id !== null && !(typeof id === 'number' && Number.isSafeInteger(id) && id >= 1)) throw new InvalidInputError(CONNECTOR_MESSAGES.moduleId)
    input.module_id = id
  }
  if (body.sync_interval_minutes !== undefined) {
    const minutes = body.sync_interval_minutes
    const valid = minutes === null || (typeof minutes === 'number' && Number.isInteger(minutes) && minutes >= CONNECTOR_LIMITS.intervalMin && minutes <= CONNECTOR_LIMITS.intervalMax)
    if (!valid) throw new InvalidInputError(CONNECTOR_MESSAGES.interval)
    input.sync_interval_minutes = minutes
  }
  return input
}
