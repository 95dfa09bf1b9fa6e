// The session's store writes, one after another in the order they were asked for, so a pack is never
// stored before the changes it names, nor an ack's clean-up before its pack. A failed write does not stop
// the ones after it; it is remembered as the problem to show, until a later write succeeds.

export class WriteQueue {
  #tail = Promise.resolve();
  #onProblem;
  /** What the last failed write said, for the status; null once writes succeed again. @type {string | null} */
  problem = null;

  /** @param {() => void} onProblem called when `problem` changes */
  constructor(onProblem) {
    this.#onProblem = onProblem;
  }

  /**
   * Queues a write whose failure is shown, not thrown.
   * @param {string} what for the message, e.g. 'storing a change'
   * @param {() => Promise<unknown>} body
   * @param {() => void} [onFailure]
   */
  write(what, body, onFailure = () => {}) {
    this.#tail = this.#tail.then(body).then(
      () => this.#setProblem(null),
      (error) => {
        onFailure();
        this.#setProblem(`could not save on this device: ${what} failed (${describe(error)})`);
      },
    );
  }

  /**
   * Queues a write and hands back its outcome (the queue goes on either way).
   * @template T
   * @param {() => Promise<T>} body
   * @returns {Promise<T>}
   */
  enqueue(body) {
    const result = this.#tail.then(body);
    this.#tail = result.then(
      () => {},
      () => {},
    );
    return result;
  }

  /** Runs `body` once the writes asked for so far are done, failed or not. @param {() => void} body */
  after(body) {
    this.#tail = this.#tail.then(body).catch(() => {});
  }

  /** Shows a failure found outside the queue. @param {string} what @param {unknown} error */
  failed(what, error) {
    this.#setProblem(`could not save on this device: ${what} failed (${describe(error)})`);
  }

  /** Resolves once every write asked for so far is done. */
  drained() {
    return this.#tail;
  }

  #setProblem(problem) {
    if (problem === this.problem) return;
    this.problem = problem;
    this.#onProblem();
  }
}

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}
