// Your own UI over the headless client: one client per widget, no elements added by Assist.
const search = Assist.headless('demo/search');
const chat = Assist.headless('demo/help');
const form = document.querySelector('#ask-form');
const status = document.querySelector('#ask-status');
const answer = document.querySelector('#ask-answer');
const list = document.querySelector('#ask-list');

function link(url, title, onClick) {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.textContent = title;
  anchor.addEventListener('click', onClick);
  return anchor;
}

async function showResults(query) {
  const { hits } = await search.search(query, { limit: 8 });
  status.textContent = hits.length ? `${hits.length} results` : 'No results';
  list.replaceChildren(...hits.map((hit, index) => {
    const item = document.createElement('li');
    // Tell Assist which result was opened, so the search → click funnel counts it.
    item.append(link(hit.url, hit.section ? `${hit.title} › ${hit.section}` : hit.title,
      () => search.trackEvent('click', { url: hit.url, rank: index + 1, source: 'result' })));
    const snippet = document.createElement('p');
    snippet.innerHTML = hit.snippet; // the server escapes everything but <mark>
    item.append(snippet);
    return item;
  }));
}

async function showAnswer(question) {
  const reply = await chat.chat(question, {
    onStatus: (stage) => (status.textContent = stage === 'searching' ? 'Searching the docs…' : 'Writing…'),
    onToken: (delta, text) => (answer.innerHTML = Assist.markdown(text)),
  });
  answer.innerHTML = Assist.markdown(reply.text);
  status.textContent = 'Sources:';
  list.replaceChildren(...reply.sources.map((source) => {
    const item = document.createElement('li');
    item.append(link(source.url, source.title, () => chat.trackEvent('click', { url: source.url, source: 'answer' })));
    return item;
  }));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const question = form.elements.question.value.trim();
  answer.replaceChildren();
  list.replaceChildren();
  status.textContent = 'Working…';
  const run = event.submitter?.value === 'ask' ? showAnswer : showResults;
  run(question).catch((error) => (status.textContent = `Something went wrong: ${error.message}`));
});
