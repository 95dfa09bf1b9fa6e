// Reads Conformance/board.json, the vectors written by Tests/InkwellBoardTests/BoardVectorTests.swift.

import { readFileSync } from 'node:fs';

/**
 * The cases of the vector file.
 * @param {URL} url where the test found Conformance/board.json
 * @returns {{name: string, changes: object[], expected: {hash: string, encoding: string, strokes: object[]}}[]}
 */
export function boardCases(url) {
  return JSON.parse(readFileSync(url, 'utf8')).cases;
}

/** Lowercase hex of bytes. */
export function hex(bytes) {
  return Buffer.from(bytes).toString('hex');
}
