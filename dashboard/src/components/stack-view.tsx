import { useState } from 'preact/hooks'
import { getReleaseSettings } from '../api/endpoints.ts'
import { frameLink, splitStack, type StackLine } from '../lib/stack.ts'
import { usePluginEnabled } from '../state/catalog.tsx'
import { showToast } from '../state/toasts.ts'
import { useApi } from '../state/use-api.ts'

/** Source lines Sentry sent for the culprit frame (`culprit_source` in the sample context, docs/ingest.md). */
export interface CulpritSource {
  readonly pre: readonly string[]
  readonly line: string
  readonly post: readonly string[]
}

/**
 * The sample stack as structured frames (issue 17 item 6): application frames emphasised, runs of vendor
 * frames folded into <details>, the culprit highlighted with its source lines where known (Python prints
 * them; Sentry sends them), a copy button, and — when the releases plugin has a `repo_url_template` — a
 * link from each application frame to the code host.
 */
export function StackView({ stack, culprit = null, culpritSource = null }: { stack: string; culprit?: string | null; culpritSource?: CulpritSource | null }) {
  const releases = usePluginEnabled('releases')
  const settings = useApi(releases ? 'release-settings' : null, (signal) => getReleaseSettings(signal))
  const template = settings.data?.configured ? settings.data.repo_url_template : ''
  const ref = settings.data?.default_ref ?? ''
  const segments = splitStack(stack, culprit)
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(stack)
      setCopied(true)
      showToast('Stack copied')
      setTimeout(() => setCopied(false), 2000)
    } catch {
      showToast('Copying was refused by the browser', 'error')
    }
  }
  return (
    <div class="stack" data-testid="stack">
      <div class="stack-toolbar">
        <button type="button" class="button button-small button-ghost" onClick={() => void copy()} data-testid="copy-stack">
          {copied ? 'Copied' : 'Copy stack'}
        </button>
      </div>
      <ol class="stack-frames">
        {segments.map((segment, index) =>
          segment.vendor ? (
            <li key={index} class="stack-fold">
              <details class="vendor-frames">
                <summary>{segment.lines.length} vendor frames</summary>
                <ol class="stack-frames">{segment.lines.map((line, i) => <FrameRow key={i} line={line} template="" refName={ref} source={null} />)}</ol>
              </details>
            </li>
          ) : (
            segment.lines.map((line, i) => <FrameRow key={`${index}-${i}`} line={line} template={template} refName={ref} source={culpritSource} />)
          ),
        )}
      </ol>
    </div>
  )
}

function FrameRow({ line, template, refName, source }: { line: StackLine; template: string; refName: string; source: CulpritSource | null }) {
  if (line.kind === 'text') return <li class="stack-text">{line.text}</li>
  const link = !line.vendor && line.file ? frameLink(template, refName, line.file, line.line) : null
  const context = line.culprit && source ? source : line.context.length > 0 ? { pre: [], line: line.context[0]!, post: line.context.slice(1) } : null
  const className = ['stack-frame', line.vendor ? 'vendor' : 'app', line.culprit ? 'culprit' : ''].filter(Boolean).join(' ')
  return (
    <li class={className} data-culprit={line.culprit ? 'true' : undefined}>
      <div class="frame-line">
        {line.culprit && <span class="culprit-badge">Culprit</span>}
        <code class="frame-text">{line.text}</code>
        {link && (
          <a class="frame-link" href={link} target="_blank" rel="noopener noreferrer" aria-label={`Open ${line.file}${line.line === null ? '' : ` line ${line.line}`} on the code host`}>
            source
          </a>
        )}
      </div>
      {context && (
        <pre class="frame-context" aria-label="Source lines">
          {context.pre.map((text, i) => <span key={`p${i}`} class="context-line">{text}{'\n'}</span>)}
          <span class="context-line current">{context.line}{'\n'}</span>
          {context.post.map((text, i) => <span key={`n${i}`} class="context-line">{text}{'\n'}</span>)}
        </pre>
      )}
    </li>
  )
}
