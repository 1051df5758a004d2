/**
 * Vue 3 types: `<assist-chat>` and `<assist-search>` as global components, so templates
 * type-check (vue-tsc, Volar) their attributes, properties and `@assist-*` events. Include them
 * once, e.g. in a `.d.ts` file of your app or in tsconfig.json `"types"`:
 *
 * @example
 * /// <reference types="assist-widgets/vue" />
 */
import type { DefineComponent } from 'vue';
import type { AssistChatEventMap, AssistSearchEventMap } from '../dist/npm/src/index.js';
import type { AssistChatAttributes, AssistSearchAttributes } from './attributes.js';

type Camel<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : Name;
/** Props in camelCase, as Vue types them: a template may write `accent-light` or `accentLight`. */
type Props<Attributes> = { [Name in keyof Attributes as Camel<Name & string>]: Attributes[Name] };
/** `onAssistMessage` and the like: how Vue types a listener written `@assist-message`. */
type EventProps<EventMap> = { [Name in keyof EventMap & string as `on${Capitalize<Camel<Name>>}`]?: (event: EventMap[Name]) => void };

declare module 'vue' {
  interface GlobalComponents {
    'assist-chat': DefineComponent<Props<AssistChatAttributes> & EventProps<AssistChatEventMap>>;
    'assist-search': DefineComponent<Props<AssistSearchAttributes> & EventProps<AssistSearchEventMap>>;
  }
}
