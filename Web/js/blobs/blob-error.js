// Why a blob did not move, in words a person can act on, as Swift's `BlobError`.

export class BlobError extends Error {
  /**
   * @param {'tooLarge' | 'refused' | 'rateLimited' | 'serverFailed' | 'unreachable' | 'hashMismatch' | 'cannotOpen' | 'notAnImage'} code
   * @param {string} message
   * @param {{status?: number, retryAfterSeconds?: number, cause?: unknown}} [details]
   */
  constructor(code, message, { status, retryAfterSeconds, cause } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'BlobError';
    this.code = code;
    this.status = status ?? null;
    this.retryAfterSeconds = retryAfterSeconds ?? null;
  }

  /** @param {number} limit the most bytes an image may have */
  static tooLarge(limit) {
    return new BlobError('tooLarge', `the image is too large: at most ${Math.floor(limit / (1024 * 1024))} MiB`);
  }

  static notAnImage() {
    return new BlobError('notAnImage', 'the file is not a PNG, JPEG, GIF or WebP image');
  }

  static hashMismatch(blob) {
    return new BlobError('hashMismatch', `the bytes the server sent are not the blob ${blob}`);
  }

  static cannotOpen() {
    return new BlobError('cannotOpen', "the image does not open with this board's key: sealed with another key, or altered");
  }

  static unreachable(cause) {
    return new BlobError('unreachable', 'the server cannot be reached', { cause });
  }

  /**
   * The error for an answer that is not the one asked for, with the server's own words when it gave some.
   * @param {Response} answer
   */
  static async refusal(answer) {
    let message = `the server answered HTTP ${answer.status}`;
    try {
      const json = await answer.json();
      if (typeof json?.error === 'string') message = json.error;
    } catch {
      // Not JSON: the status says it.
    }
    const status = answer.status;
    if (status === 413) return new BlobError('tooLarge', message, { status });
    if (status === 429) {
      const retryAfterSeconds = Number(answer.headers.get('retry-after')) || null;
      return new BlobError('rateLimited', message, { status, retryAfterSeconds });
    }
    return new BlobError(status >= 400 && status < 500 ? 'refused' : 'serverFailed', message, { status });
  }
}
