// The page's server signs its visitor's id (HMAC-SHA256 with the widget's signing secret,
// never sent to the browser) and hands the page { id, hash }; the chat then keeps history.
// `settings` is the demo switcher's { theme, default_language }.
Demo.mount(async (settings) => {
  const { user } = await fetch('/demo/visitor.json').then((response) => response.json());
  document.querySelector('#visitor-status').textContent = `Signed in as ${user.id}.`;
  return Assist.chat('demo/help', { ...settings, variant: 'inline', target: '#signed-chat', user }).mount();
});
