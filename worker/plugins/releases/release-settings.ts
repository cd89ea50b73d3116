import type { Statement } from '../../../drivers/driver.ts'
import type { ReleaseSettings, ReleaseSettingsInput } from '../../../shared/schemas/releases.ts'
import type { AppScope } from '../../apps/app-scope.ts'
import { appSettings, settingValue } from '../../settings/app-settings.ts'

/** The app_settings key of the code-host link settings (reference §1.2 `releases.settings`). */
export const RELEASE_SETTINGS_KEY = 'releases.settings'

/** The statement reading the settings; `toReleaseSettings` decodes its rows (callers batch it with their reads). */
export function readReleaseSettingsStatement(scope: AppScope): Statement {
  return appSettings.read(scope, RELEASE_SETTINGS_KEY)
}

export function toReleaseSettings(rows: readonly Record<string, unknown>[]): ReleaseSettings {
  let stored: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(settingValue(rows) ?? '{}')
    if (parsed !== null && typeof parsed === 'object') stored = parsed as Record<string, unknown>
  } catch {
    // A damaged value reads as unset; the next save replaces it.
  }
  const template = typeof stored.repo_url_template === 'string' ? stored.repo_url_template : ''
  const defaultRef = typeof stored.default_ref === 'string' ? stored.default_ref : ''
  return { repo_url_template: template, default_ref: defaultRef, configured: template !== '' }
}

/** `GET ?api=release-settings`. */
export async function getReleaseSettings(scope: AppScope): Promise<ReleaseSettings> {
  return toReleaseSettings((await scope.db.execute(readReleaseSettingsStatement(scope))).rows)
}

/**
 * `PUT|POST|PATCH ?api=release-settings`: fields given replace the stored ones (an empty string clears),
 * absent ones keep theirs. One read and one write.
 */
export async function saveReleaseSettings(scope: AppScope, input: ReleaseSettingsInput, now: string): Promise<ReleaseSettings> {
  const current = await getReleaseSettings(scope)
  const next = { repo_url_template: input.repo_url_template ?? current.repo_url_template, default_ref: input.default_ref ?? current.default_ref }
  await scope.db.execute(appSettings.write(scope, RELEASE_SETTINGS_KEY, JSON.stringify(next), now))
  return { ...next, configured: next.repo_url_template !== '' }
}

/**
 * The code-host link of a frame (reference §4.4): `{ref}` is `default_ref` or `main`, `{path}` the frame's
 * path without its leading `/` (an absolute URL's path), each segment URL-encoded, `{line}` its line.
 * Null without a template or a frame.
 */
export function sourceLink(settings: ReleaseSettings, frame: string | null): string | null {
  if (!settings.configured || frame === null || frame.trim() === '') return null
  const match = /^(.*?)(?::(\d+))?(?::\d+)?$/.exec(frame.trim())!
  let path = match[1]!
  const line = match[2] ?? ''
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname
    } catch {
      // Not a URL after all: used as written.
    }
  }
  const encoded = path.replace(/^~?\/+/, '').split('/').map(encodeURIComponent).join('/')
  const ref = encodeURIComponent(settings.default_ref || 'main')
  return settings.repo_url_template.replaceAll('{ref}', ref).replaceAll('{path}', encoded).replaceAll('{line}', line)
}
