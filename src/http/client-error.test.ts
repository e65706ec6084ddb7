import { describe, expect, it } from 'vitest';
import { clientErrorAnswer } from './client-error.js';

const parserError = (code: string, reason?: unknown) => Object.assign(new Error('Parse Error'), { code, reason });

describe('clientErrorAnswer', () => {
  it('maps what Node refuses to our codes', () => {
    expect(clientErrorAnswer(parserError('HPE_HEADER_OVERFLOW')).code).toBe('headers_too_large');
    expect(clientErrorAnswer(parserError('ERR_HTTP_REQUEST_TIMEOUT')).code).toBe('request_timeout');
    const dup = clientErrorAnswer(parserError('HPE_UNEXPECTED_CONTENT_LENGTH', 'Duplicate Content-Length'));
    expect(dup).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('(Duplicate Content-Length)') });
  });

  it('shows a parser reason only when it looks like one of its fixed texts', () => {
    for (const reason of ['Bearer sk_live_abc: x\r\n', '<script>', 'x'.repeat(200), 42]) {
      const { message } = clientErrorAnswer(parserError('HPE_INVALID_HEADER_TOKEN', reason));
      expect(message).not.toContain(String(reason));
      expect(message).toMatch(/^The request is not valid HTTP\/1\.1:/);
    }
  });
});
