// The chat bubble: a launcher in the corner opens the panel.
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount((settings) => Assist.chat('demo/help', { ...settings }).mount());
