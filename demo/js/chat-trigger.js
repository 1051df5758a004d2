// Your own button opens the chat; the default launcher is hidden.
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount((settings) => Assist.chat('demo/help', { ...settings, trigger: '#open-help' }).mount());
