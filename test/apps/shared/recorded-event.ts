/** What an app keeps of each `assist-*` event, for the test to read from `window.assistEvents`. */
export interface RecordedEvent {
  tag: string;
  type: string;
  hits?: number;
  role?: string;
  text?: string;
  url?: string;
}
