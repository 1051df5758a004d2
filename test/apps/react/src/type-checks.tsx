/**
 * Type-checked only (main.tsx does not import it): the JSX declarations of
 * `assist-widgets/react` refuse what the elements do not take.
 */
import type { AssistMessageDetail } from 'assist-widgets';

export const refused = [
  // @ts-expect-error a search widget has no bubble variant
  <assist-search widget="acme/find" variant="bubble" />,
  // @ts-expect-error the widget key is required
  <assist-chat base-url="https://assist.example.com" />,
  // @ts-expect-error options are an object of mount options
  <assist-chat widget="acme/help" options="inline" />,
  // @ts-expect-error the visitor is { id, hash }
  <assist-chat widget="acme/help" user={42} />,
];

export const typedEvent = <assist-chat widget="acme/help" onassist-message={(event) => void (event.detail satisfies AssistMessageDetail)} />;
