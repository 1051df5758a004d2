// Ctrl/Cmd+K opens the search; a search box rendered into #docs-search opens it too.
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount((settings) => Assist.search('demo/search', { ...settings, target: '#docs-search' }).mount());
