import { CONNECTOR_MESSAGES, type ConnectorType } from '../../shared/schemas/connectors.ts'
import { InvalidInputError } from '../errors.ts'
import type { ConnectorTypeDefinition } from './connector-type.ts'
import { HTTP_CONNECTOR } from './http-connector.ts'
import { S3_CONNECTOR } from './s3-connector.ts'

/** Every connector type by name: a further type is one file and one entry here. */
const TYPES: Readonly<Record<ConnectorType, ConnectorTypeDefinition>> = { http: HTTP_CONNECTOR, s3: S3_CONNECTOR }

export function connectorType(name: unknown): ConnectorTypeDefinition {
  const definition = typeof name === 'string' && Object.hasOwn(TYPES, name) ? TYPES[name as ConnectorType] : undefined
  if (!definition) throw new InvalidInputError(CONNECTOR_MESSAGES.type)
  return definition
}
