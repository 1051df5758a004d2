// Results appear right after the page's own input as the visitor types.
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount((settings) => Assist.search('demo/search', { ...settings, variant: 'inline', trigger: '#site-search' }).mount());
