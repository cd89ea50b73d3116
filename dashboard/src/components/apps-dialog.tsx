import { listApplications } from '../api/endpoints.ts'
import { formatNumber } from '../lib/format.ts'
import { useCatalog } from '../state/catalog.tsx'
import { invalidateData } from '../state/data-epoch.ts'
import { useApi } from '../state/use-api.ts'
import { navigate } from '../state/url-state.ts'
import { ModuleChip } from './badges.tsx'
import { Dialog } from './dialog.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { ApplicationForm } from './application-form.tsx'
import { ModuleForm } from './module-form.tsx'
import { Spinner } from './spinner.tsx'

/** "Applications & modules": list and create both (reference §7 dialogs). */
export function AppsDialog({ app, onClose }: { app: string; onClose: () => void }) {
  const apps = useApi('applications', listApplications)
  const { modules } = useCatalog()
  const list = apps.data?.data ?? []
  const current = app || list[0]?.id
  const currentName = list.find((item) => item.id === current)?.name ?? current

  return (
    <Dialog title="Applications & modules" onClose={onClose} wide>
      <section aria-labelledby="apps-heading" class="dialog-section">
        <h3 id="apps-heading">Applications</h3>
        {apps.error && <ErrorBanner error={apps.error} onRetry={apps.reload} />}
        {!apps.data && !apps.error && <Spinner />}
        <ul class="plain-list">
          {list.map((item, index) => (
            <li key={item.id}>
              <button type="button" class={item.id === current ? 'list-button active' : 'list-button'} aria-current={item.id === current ? 'true' : undefined} onClick={() => navigate({ app: index === 0 ? '' : item.id })}>
                <strong>{item.name}</strong> <code class="muted">{item.id}</code>
              </button>
            </li>
          ))}
        </ul>
        <ApplicationForm onCreated={(id) => { invalidateData(); navigate({ app: id }) }} />
      </section>
      <section aria-labelledby="modules-heading" class="dialog-section">
        <h3 id="modules-heading">Modules of {currentName}</h3>
        {modules.error && <ErrorBanner error={modules.error} onRetry={modules.reload} />}
        {modules.data && modules.data.data.length === 0 && <p class="muted small">No modules yet. Uploads into a module folder create them too.</p>}
        <ul class="plain-list module-list">
          {(modules.data?.data ?? []).map((module) => (
            <li key={module.id}>
              <ModuleChip name={module.name} color={module.color} /> <code class="muted">{module.slug}</code>
              <span class="muted small"> · {formatNumber(module.issue_count)} issues</span>
            </li>
          ))}
        </ul>
        <ModuleForm />
      </section>
    </Dialog>
  )
}
