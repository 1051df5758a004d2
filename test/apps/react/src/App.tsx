/**
 * Both elements from JSX with every documented attribute and property. React 19 sets a prop as
 * a property when the element has one of that name (`options`, `user`, `client`, `open`…) and
 * as an attribute otherwise (`summary`, `accent-light`…); `onassist-*` props are listeners.
 */
import { useMemo } from 'react';
import 'assist-widgets/elements';
import { CHAT_KEY, SEARCH_KEY, SERVER, chatClient, record } from '../../shared/page.js';

export function App() {
  const client = useMemo(chatClient, []);
  return (
    <main>
      <h1>React 19</h1>
      <button id="open-search" type="button">Search</button>
      <button id="open-chat" type="button">Chat</button>
      <assist-search
        widget={SEARCH_KEY}
        base-url={SERVER}
        variant="inline"
        box={true}
        open={false}
        trigger="#open-search"
        theme="light"
        accent-light="#2557d6"
        accent-dark="#8fb0ff"
        placeholder="Search the Acme docs"
        default-language="en"
        summary=""
        speech-input="false"
        debounce={50}
        input={null}
        options={{ debounce: 50 }}
        onassist-ready={record}
        onassist-search={record}
        onassist-select={record}
        onassist-error={record}
      />
      <assist-chat
        widget={CHAT_KEY}
        base-url={SERVER}
        variant="inline"
        open={false}
        trigger="#open-chat"
        theme="light"
        accent-light="#2557d6"
        accent-dark="#8fb0ff"
        placeholder="Ask about Acme"
        greeting="Hello from React"
        avatar={`${SERVER}/demo/favicon.svg`}
        default-language="en"
        speech-input="false"
        user={null}
        client={client}
        options={{ variant: 'inline' }}
        style={{ display: 'block', height: 480 }}
        onassist-ready={record}
        onassist-message={record}
        onassist-error={record}
      />
    </main>
  );
}
