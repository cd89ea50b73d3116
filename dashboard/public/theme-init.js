// Applies the theme stored by the dashboard ("light" | "dark"; absent = follow the system) before the
// first paint, so a dark-mode user never sees a white flash. Kept outside the bundle on purpose.
try {
  var theme = localStorage.getItem('loupe.theme')
  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme)
} catch (error) {}
