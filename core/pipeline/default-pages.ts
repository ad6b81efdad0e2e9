/**
 * The page an error answers with in public when the app has no
 * `public/<status>.html` for it: short, never blank, and never more than
 * the status (no message, no trace, nothing of the request).
 */
import { STATUS_CODES } from '../http/status.ts';

export function defaultErrorPage(status: number): string {
  const line = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${line}</title></head>
<body><h1>${line}</h1></body>
</html>
`;
}
