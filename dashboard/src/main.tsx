import { render } from 'preact'
import { App } from './app.tsx'
import './styles/theme.css'
import './styles/base.css'
import './styles/layout.css'
import './styles/components.css'
import './styles/issues.css'
import './styles/inspector.css'
import './styles/issue-page.css'
import './styles/analytics.css'

render(<App />, document.getElementById('app')!)
