/**
 * English, the reference locale: every other locale must have exactly these keys (a missing
 * key is a type error through `Translation`). `{name}` marks a value filled in at run time.
 * Keys ending in `_one` / `_other` are plural forms chosen with Intl.PluralRules; locales
 * without a singular form give both the same text.
 */
export const en = {
  // Shared
  poweredBy: 'Powered by Assist',
  close: 'Close',
  /** The Control key as keyboards of the language print it (German: Strg). */
  keyControl: 'Ctrl',
  retry: 'Try again',
  sources: 'Sources',
  speechStart: 'Start voice input',
  speechStop: 'Stop voice input',
  speechListening: 'Listening…',
  errorGeneric: 'Something went wrong. Please try again.',
  errorNetwork: 'Can’t reach the server. Check your connection and try again.',
  errorRateLimited: 'Too many requests. Please wait {seconds} seconds and try again.',
  errorOrigin: 'This website is not allowed to use this widget.',
  errorIdentity: 'We couldn’t verify your account, so your conversation history can’t be shown.',
  suggestions: 'Suggested questions',
  feedbackQuestion: 'Was this helpful?',
  feedbackHelpful: 'Helpful',
  feedbackUnhelpful: 'Not helpful',
  feedbackCommentLabel: 'What was missing? (optional)',
  feedbackSend: 'Send feedback',
  feedbackThanks: 'Thanks for your feedback.',

  // Chat
  chatOpen: 'Open chat',
  chatClose: 'Close chat',
  chatDefaultName: 'Assistant',
  chatInputLabel: 'Message',
  chatPlaceholder: 'Ask a question…',
  chatSend: 'Send',
  chatStop: 'Stop',
  chatStopped: 'Stopped.',
  chatCopy: 'Copy answer',
  chatCopyCode: 'Copy code',
  chatCopied: 'Copied',
  chatNew: 'New conversation',
  chatHistory: 'History',
  chatHistoryTitle: 'Your conversations',
  chatHistoryEmpty: 'No conversations yet.',
  chatBack: 'Back to chat',
  chatKeep: 'Keep',
  chatRelease: 'Don’t keep',
  chatKept: 'Kept',
  chatDelete: 'Delete',
  chatDeleteAll: 'Delete all',
  chatConfirmDeleteAll: 'Delete all your conversations? This can’t be undone.',
  chatYou: 'You',
  /** Name of the list of messages. */
  chatLog: 'Conversation',
  chatSearching: 'Searching…',
  chatGenerating: 'Writing an answer…',
  chatAnswerReady: 'Answer ready.',
  chatOutOfCredits: 'The assistant can’t answer right now. These pages may help:',
  chatOutOfCreditsNoResults: 'The assistant can’t answer right now. Please try again later.',
  chatExpires: 'Deleted after 30 days unless kept',

  // Search
  searchOpen: 'Search',
  searchLabel: 'Search',
  searchPlaceholder: 'Search…',
  searchClear: 'Clear',
  searchClose: 'Close search',
  searchLoading: 'Searching…',
  searchNoResults: 'No results for “{query}”',
  searchResults_one: '{count} result',
  searchResults_other: '{count} results',
  searchRecent: 'Recent searches',
  searchRemoveRecent: 'Remove',
  searchRemoveRecentNamed: 'Remove “{query}” from recent searches',
  searchSummary: 'AI summary',
  searchSummaryLoading: 'Summarizing…',
  searchAskAi: 'Ask AI: {query}',
  searchAskAiNoResults: 'No results for “{query}”. Ask the assistant instead.',
  searchSummaryReady: 'AI summary ready.',
  searchHintNavigate: 'to navigate',
  searchHintOpen: 'to open',
  searchHintNewTab: 'to open in a new tab',
  searchHintClose: 'to close',
} as const;

export type TranslationKey = keyof typeof en;
export type Translation = { readonly [Key in TranslationKey]: string };
