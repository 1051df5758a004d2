/**
 * Both elements made with `document.createElement`, every documented attribute written as an
 * attribute and every documented property set as a property, before they join the page.
 */
import 'assist-widgets/elements';
import { CHAT_KEY, SEARCH_KEY, SERVER, chatClient, record } from '../../shared/page.js';

const search = document.createElement('assist-search');
const searchAttributes: Record<string, string> = {
  widget: SEARCH_KEY,
  'base-url': SERVER,
  variant: 'inline',
  box: '',
  trigger: '#open-search',
  theme: 'light',
  'accent-light': '#2557d6',
  'accent-dark': '#8fb0ff',
  placeholder: 'Search the Acme docs',
  'default-language': 'en',
  summary: '',
  'speech-input': 'false',
  debounce: '50',
};
for (const [name, value] of Object.entries(searchAttributes)) search.setAttribute(name, value);
search.open = false;
search.input = null;
search.options = { debounce: 50 };
for (const type of ['assist-ready', 'assist-search', 'assist-select', 'assist-error']) search.addEventListener(type, record);

const chat = document.createElement('assist-chat');
const chatAttributes: Record<string, string> = {
  widget: CHAT_KEY,
  'base-url': SERVER,
  variant: 'inline',
  trigger: '#open-chat',
  theme: 'light',
  'accent-light': '#2557d6',
  'accent-dark': '#8fb0ff',
  placeholder: 'Ask about Acme',
  greeting: 'Hello from TypeScript',
  avatar: `${SERVER}/demo/favicon.svg`,
  'default-language': 'en',
  'speech-input': 'false',
};
for (const [name, value] of Object.entries(chatAttributes)) chat.setAttribute(name, value);
chat.open = false;
chat.user = null;
chat.client = chatClient();
chat.options = { variant: 'inline' };
chat.style.cssText = 'display: block; height: 480px';
for (const type of ['assist-ready', 'assist-message', 'assist-error']) chat.addEventListener(type, record);

document.querySelector('main')!.append(search, chat);
