// The chat panel fills #help-panel (which has a height in the page's CSS).
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount((settings) => Assist.chat('demo/help', { ...settings, variant: 'inline', target: '#help-panel' }).mount());
