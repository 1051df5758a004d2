// sign.mjs: sign a visitor id for Assist on your server (Node 18+).
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/**
 * The `hash` Assist expects next to a visitor id: the lowercase hex HMAC-SHA256 of the id
 * string, keyed with the widget's identity signing secret.
 */
export function signVisitorId(visitorId, signingSecret) {
  return createHmac('sha256', signingSecret).update(String(visitorId), 'utf8').digest('hex');
}

// From a shell: ASSIST_SIGNING_SECRET=… node sign.mjs <visitor-id>
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secret = process.env.ASSIST_SIGNING_SECRET;
  if (!secret || process.argv.length < 3) {
    console.error('usage: ASSIST_SIGNING_SECRET=… node sign.mjs <visitor-id>');
    process.exit(2);
  }
  console.log(signVisitorId(process.argv[2], secret));
}
