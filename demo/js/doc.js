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
  const { markdown, anchors } = await response.json();
  article.innerHTML = Assist.markdown(markdown);
  article.querySelectorAll('h1, h2, h3, h4, h5, h6').forEach((heading, index) => {
    if (anchors[index]) heading.id = anchors[index];
  });
  // Relative links between docs (`other.md#part`) open in this reader too.
  article.querySelectorAll('a[href]').forEach((anchor) => {
    const href = anchor.getAttribute('href');
    if (/^[\w./-]+\.md(#.*)?$/.test(href)) anchor.setAttribute('href', href.replace(/\.md(?=#|$)/, ''));
  });
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  Demo.mount((settings) => Assist.chat('demo/help', { ...settings }).mount());
})();
