/**
 * Signed visitor identity (contract "Widget API"): `hash` is the lowercase hex
 * HMAC-SHA256 of the visitor id, keyed with the widget's signing secret; during the grace
 * period after a rotation the previous secret is accepted too. The comparison takes the
 * same time whatever the input and cannot throw (wrong length, non-hex, any unicode). A
 * wrong hash is 403 `invalid_identity`, never an anonymous visitor. One verifier serves
 * chat and every conversation route.
 */
import type { WidgetRecord } from '../store/records.js';
import { constantTimeEqual, signVisitorId } from '../store/secrets.js';
import { FIELD_LIMITS } from '../schema/limits.js';
import { HttpError, badRequest } from './errors.js';

/** Longest visitor id accepted, in characters. */
const MAX_VISITOR_ID = FIELD_LIMITS.visitorId;

type SigningSecrets = Pick<WidgetRecord, 'signingSecret' | 'previousSigningSecret' | 'previousSigningSecretUntil'>;

/** Whether `hash` signs `id` with the widget's signing secret, or with its previous one while that is still valid. */
export function identityMatches(widget: SigningSecrets, id: string, hash: string, now: Date = new Date()): boolean {
  const current = constantTimeEqual(hash, signVisitorId(id, widget.signingSecret));
  const until = widget.previousSigningSecretUntil ? new Date(widget.previousSigningSecretUntil).getTime() : 0;
  const previous =
    widget.previousSigningSecret !== null && until > now.getTime() ? constantTimeEqual(hash, signVisitorId(id, widget.previousSigningSecret)) : false;
  return current || previous;
}

/**
 * The verified visitor id for a `user` id and `hash` as a request gave them. `required`:
 * the route needs a signed visitor (conversation routes), so none at all is 403 too.
 * Returns null only for an anonymous request on a route that allows one (chat).
 */
export function verifyVisitor(
  widget: SigningSecrets,
  id: unknown,
  hash: unknown,
  { required, field = 'user' }: { required: boolean; field?: string },
): string | null {
  if (id === undefined || id === null || id === '') {
    if (required) throw new HttpError('invalid_identity', `This route needs a signed visitor: send \`${field}\` and \`hash\`.`);
    if (hash !== undefined && hash !== null) throw new HttpError('invalid_identity', 'A `hash` was sent without a visitor id.');
    return null;
  }
  if (typeof id !== 'string' || id.length > MAX_VISITOR_ID) throw badRequest(`\`${field}\` must be a visitor id: a string of at most ${MAX_VISITOR_ID} characters.`);
  if (typeof hash !== 'string' || hash === '') {
    throw new HttpError('invalid_identity', 'The visitor id has no `hash`; sign it on your server with the widget\'s signing secret.');
  }
  if (!identityMatches(widget, id, hash)) {
    throw new HttpError('invalid_identity', 'The visitor hash does not match the visitor id for this widget\'s signing secret.');
  }
  return id;
}

/** A body's optional `user` ({ id, hash }: chat, events), verified; null when there is none. */
export function verifyBodyVisitor(widget: SigningSecrets, user: { id?: unknown; hash?: unknown } | null | undefined): string | null {
  return user ? verifyVisitor(widget, user.id, user.hash, { required: true, field: 'user.id' }) : null;
}
