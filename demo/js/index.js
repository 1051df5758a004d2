// The overview page carries both widgets: Ctrl/Cmd+K searches, the bubble asks.
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount((settings) => [
  Assist.search('demo/search', { ...settings }).mount(),
  Assist.chat('demo/help', { ...settings }).mount(),
]);
