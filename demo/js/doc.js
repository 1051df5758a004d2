// The docs reader of the demo: the documentation the demo's assistant answers from. Headings
// get the anchors search results and cited sources link to.
(async () => {
  const article = document.querySelector('#doc');
  const name = article.dataset.document;
  const response = await fetch(`/demo/docs/${name}.json`);
  if (!response.ok) {
    article.querySelector('.note').textContent = 'This document could not be loaded.';
    return;
  }
  const { markdown, headings } = await response.json();
  article.innerHTML = Assist.markdown(markdown);
  // Each heading takes the next anchor whose heading text is its own; one without (the title)
  // takes none and shifts nothing.
  const plain = (text) => text.replace(/\s+/g, ' ').trim();
  let next = 0;
  article.querySelectorAll('h1, h2, h3, h4, h5, h6').forEach((heading) => {
    const found = headings.findIndex((entry, index) => index >= next && plain(entry.text) === plain(heading.textContent));
    if (found < 0) return;
    heading.id = headings[found].anchor;
    next = found + 1;
  });
  // Relative links between docs (`other.md#part`) open in this reader too.
  article.querySelectorAll('a[href]').forEach((anchor) => {
    const href = anchor.getAttribute('href');
    if (/^[\w./-]+\.md(#.*)?$/.test(href)) anchor.setAttribute('href', href.replace(/\.md(?=#|$)/, ''));
  });
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  Demo.mount((settings) => Assist.chat('demo/help', { ...settings }).mount());
})();
