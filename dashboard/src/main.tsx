import { render } from 'preact'
import { App } from './app.tsx'
import './styles/theme.css'
import './styles/base.css'
import './styles/layout.css'
import './styles/components.css'
import './styles/issues.css'
import './styles/issue-list.css'
import './styles/inspector.css'
import './styles/analytics.css'
import './styles/merge.css'
import './styles/shell.css'

render(<App />, document.getElementById('app')!)
