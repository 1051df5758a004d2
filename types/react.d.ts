/**
 * JSX types for React 19: `<assist-chat>` and `<assist-search>` with their attributes,
 * properties and `assist-*` events (React 19 adds a listener for a function prop named
 * `on` + the event's name, e.g. `onassist-message`). Include them once, e.g. in a
 * `.d.ts` file of your app or in tsconfig.json `"types"`:
 *
 * @example
 * /// <reference types="assist-widgets/react" />
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AssistChat, AssistChatEventMap, AssistSearch, AssistSearchEventMap } from '../dist/npm/src/index.js';
import type { AssistChatAttributes, AssistSearchAttributes } from './attributes.js';

/** `onassist-message` and the like, for every event of the element's event map. */
type EventProps<EventMap> = { [Name in keyof EventMap & string as `on${Name}`]?: (event: EventMap[Name]) => void };

/** React's props of an element, minus the ones the element's own attributes redefine. */
type ElementProps<Element extends HTMLElement, Attributes, EventMap> = Omit<DetailedHTMLProps<HTMLAttributes<Element>, Element>, keyof Attributes> &
  Attributes &
  EventProps<EventMap>;

export type AssistChatProps = ElementProps<AssistChat, AssistChatAttributes, AssistChatEventMap>;
export type AssistSearchProps = ElementProps<AssistSearch, AssistSearchAttributes, AssistSearchEventMap>;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'assist-chat': AssistChatProps;
      'assist-search': AssistSearchProps;
    }
  }
}
