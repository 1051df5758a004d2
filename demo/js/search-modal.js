// Ctrl/Cmd+K opens the search; a search box rendered into #docs-search opens it too.
// "Ask AI" sends the query to the help chat, which opens as a bubble.
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount((settings) => Assist.search('demo/search', { ...settings, target: '#docs-search', chat: 'demo/help' }).mount());
