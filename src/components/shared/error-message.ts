import type { AssistError } from '../../core/errors.js';
import type { Strings } from './i18n.js';

/**
 * What to tell a visitor about a failed request, in their language. The widgets show this; the
 * technical message stays in the `assist-error` event and the console.
 */
export function errorMessage(strings: Strings, error: AssistError): string {
  switch (error.code) {
    case 'network':
    case 'stream_interrupted':
      return strings('errorNetwork');
    case 'rate_limited':
      return error.retryAfter === undefined ? strings('errorGeneric') : strings('errorRateLimited', { seconds: error.retryAfter });
    case 'origin_not_allowed':
      return strings('errorOrigin');
    case 'invalid_identity':
      return strings('errorIdentity');
    default:
      return strings('errorGeneric');
  }
}

/** Any failure as an AssistError, for the `assist-error` event; one the SDK did not expect is `internal`. */
export { toAssistError } from '../../core/errors.js';
