/**
 * multipart/form-data bodies (POST or PUT), read with busboy and bound by
 * Rails' rules: parts are grouped by name into `[name, values]` pairs and
 * handed to `parseRequestParameters`. A part with a non-blank filename is an
 * `UploadedFile`; any other part, whatever its Content-Type, is a string.
 */
import busboy from 'busboy';
import { BodyParseError, PayloadTooLarge } from '../errors.ts';
import { resolveParamLimits, type ParamLimits } from './limits.ts';
import { UploadPart, bytesToText, type Params } from './param-values.ts';
import { parseRequestParameters } from './request-parameters.ts';

/**
 * Parameters of a multipart body. `contentType` is the request's whole Content-Type header
 * (its boundary is needed). Malformed bodies reject with a 400 `BodyParseError`, and a body
 * over a part, file or size limit with a 413 `PayloadTooLarge`.
 * @example await parseMultipart(body, 'multipart/form-data; boundary=AaB03x') // { foo: 'bar', file: UploadedFile }
 */
export function parseMultipart(body: Uint8Array, contentType: string, limits?: ParamLimits): Promise<Params> {
  const resolved = resolveParamLimits(limits);
  const { multipart } = resolved;
  return new Promise<Params>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error): void => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    };
    // busboy also reads url-encoded bodies; this parser is for form-data only.
    if (!/^multipart\/form-data(?:[\s;]|$)/i.test(contentType.trimStart())) {
      reject(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${JSON.stringify(contentType.slice(0, 100))} is not multipart/form-data`));
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Filenames are reduced to basenames when typed (Windows paths included), not by busboy.
        preservePath: true,
        // latin1 keeps every byte of a field; fieldText turns valid UTF-8 back into text.
        defCharset: 'latin1',
        defParamCharset: 'utf8',
        limits: { parts: multipart.parts, files: multipart.files, fileSize: multipart.fileBytes, fieldSize: multipart.fieldBytes },
      });
    } catch (error) {
      // busboy throws synchronously for a missing boundary or a non-multipart type.
      reject(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${(error as Error).message}`));
      return;
    }

    const groups = new Map<string, (string | UploadPart)[]>();
    const add = (name: string | undefined, value: string | UploadPart): void => {
      // busboy reports a missing or empty name as undefined: Rails skips such parts.
      if (name === undefined || name === '') return;
      const values = groups.get(name);
      if (values) values.push(value);
      else groups.set(name, [value]);
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(tooLarge('multipart.fieldBytes', multipart.fieldBytes));
      add(name, fieldText(value));
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      // A part cut off before its closing delimiter errors its own stream, not the parser: without
      // this listener that error would be an uncaught exception and end the process.
      stream.on('error', (error: Error) => fail(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${error.message}`)));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge('multipart.fileBytes', multipart.fileBytes)));
      stream.on('end', () => {
        const content = Buffer.concat(chunks);
        if (info.filename === undefined) {
          // An application/octet-stream part without a filename: busboy calls it a file, Rails a string.
          if (content.length > multipart.fieldBytes) return fail(tooLarge('multipart.fieldBytes', multipart.fieldBytes));
          add(name, bytesToText(content));
        } else {
          add(name, new UploadPart(content, info.mimeType === UNTYPED ? null : info.mimeType, info.filename));
        }
      });
    });
    parser.on('partsLimit', () => fail(tooLarge('multipart.parts', multipart.parts, `Too many parts in a multipart body: the limit is ${multipart.parts}`)));
    parser.on('filesLimit', () => fail(tooLarge('multipart.files', multipart.files, `Too many files in a multipart body: the limit is ${multipart.files}`)));
    parser.on('error', (error: Error) => fail(new BodyParseError('SBX_ERR_MULTIPART_PARSE', `Malformed multipart body: ${error.message}`)));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      try {
        resolve(parseRequestParameters([...groups], resolved));
      } catch (error) {
        reject(error);
      }
    });
    parser.end(markUntypedParts(Buffer.from(body.buffer, body.byteOffset, body.byteLength), contentType));
  });
}

function tooLarge(limit: string, max: number, message?: string): PayloadTooLarge {
  return new PayloadTooLarge(limit, max, message);
}

/** A latin1-decoded field as text: UTF-8 when its bytes are UTF-8, else kept byte for byte. */
function fieldText(value: string): string {
  // A part that declared its own charset was decoded with it: above U+00FF it is text already.
  return /[^\x00-\xff]/.test(value) ? value : bytesToText(Buffer.from(value, 'latin1'));
}

/** Stands in for "no Content-Type header" so an upload's type reads as null, as in Rails. */
const UNTYPED = 'application/x-signalbox-untyped';
const HEADER_END = Buffer.from('\r\n\r\n');
const MARKER = Buffer.from(`\r\nContent-Type: ${UNTYPED}`);
/** busboy refuses longer part headers anyway. */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * busboy reports RFC 7578's default `text/plain` for a part without a Content-Type and does not
 * expose part headers, but Rails (and the peer suite) give such uploads a null content type.
 * So upload headers without one get a marker header before parsing. Parts are found with the
 * delimiter busboy itself searches for (`CRLF--boundary`, or `--boundary` opening the body). Only
 * parts with a filename matter (the rest become strings), so the usual body is not copied; if the
 * boundary cannot be read here the body goes through unchanged and the type reads `text/plain`.
 */
function markUntypedParts(body: Buffer, contentType: string): Buffer {
  const boundary = /boundary=(?:"([^"]+)"|([^;,\s]+))/i.exec(contentType);
  if (!boundary) return body;
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  const pieces: Buffer[] = [];
  let copied = 0;
  // -2 stands for a delimiter whose CRLF would sit just before the body.
  let at = body.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2)) ? -2 : body.indexOf(delimiter);
  while (at !== -1) {
    const after = at + delimiter.length;
    if (body[after] === 0x2d && body[after + 1] === 0x2d) break;
    const next = body.indexOf(delimiter, after);
    if (body[after] === 0x0d && body[after + 1] === 0x0a) {
      const headersStart = after + 2;
      const headersEnd = body.indexOf(HEADER_END, headersStart - 2);
      const inPart = headersEnd >= headersStart && headersEnd - headersStart <= MAX_HEADER_BYTES && (next === -1 || headersEnd < next);
      const headers = inPart ? body.toString('latin1', headersStart, headersEnd) : '';
      if (/filename\*?=/i.test(headers) && !/^content-type[ \t]*:/im.test(headers)) {
        pieces.push(body.subarray(copied, headersEnd), MARKER);
        copied = headersEnd;
      }
    }
    at = next;
  }
  if (pieces.length === 0) return body;
  pieces.push(body.subarray(copied));
  return Buffer.concat(pieces);
}
