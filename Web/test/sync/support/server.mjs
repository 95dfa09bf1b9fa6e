// Starts the real Inkwell server for integration tests, and the Swift `inkwell join` peer.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The inkwell binary: INKWELL_BINARY, or the package's debug build (`swift build`). */
export const INKWELL_BINARY =
  process.env.INKWELL_BINARY ?? fileURLToPath(new URL('../../../../.build/debug/inkwell', import.meta.url));

/** Whether the binary is there to test against. */
export function hasBinary() {
  return existsSync(INKWELL_BINARY);
}

/** A fresh temporary directory, removed by `cleanup`. */
export function temporaryDirectory(prefix = 'inkwell-sync-') {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // Retried: a browser's helper processes may still be writing to their profile for a moment.
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }) };
}

/**
 * Runs `inkwell serve` on `port` (0: any free one) with its data in `data`, and waits until it listens.
 * @param {{data: string, port?: number, allowOrigin?: string, openRooms?: boolean, retentionHours?: number,
 *   compactionInterval?: number}} options `allowOrigin`: a page origin allowed to sync; `openRooms` (default
 *   true): any room name is an open room, as the tests that are not about access (and the Swift peer, which
 *   holds no capabilities) need; `retentionHours` and `compactionInterval` (seconds): how soon the server
 *   drops the packs a checked snapshot stands for; `logLevel`: what the server logs (`log()` gives it)
 * @returns {Promise<{port: number, url: string, log: () => string, stop: () => Promise<void>}>}
 */
export function startServer({ data, port = 0, allowOrigin, openRooms = true, retentionHours, compactionInterval, logLevel = 'warning' }) {
  const args = ['serve', '--port', String(port), '--data', data, '--log-level', logLevel];
  if (allowOrigin !== undefined) args.push('--allow-origin', allowOrigin);
  if (openRooms) args.push('--open-rooms');
  if (retentionHours !== undefined) args.push('--retention-hours', String(retentionHours));
  if (compactionInterval !== undefined) args.push('--compaction-interval', String(compactionInterval));
  const child = spawn(INKWELL_BINARY, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start: ${errors}`));
    }, 20_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on ([^\s:]+):(\d+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      const bound = Number(match[2]);
      resolve({
        port: bound,
        url: `http://127.0.0.1:${bound}`,
        log: () => errors,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening: ${errors}`));
    });
  });
}

/**
 * Runs `inkwell join ROOM … --wait-synced` and resolves with the line it prints on exit, and its log.
 * @param {{room: string, url: string, data?: string, draw?: number, seed?: number, timeout?: number,
 *   logLevel?: string}} options
 * @returns {Promise<{changes: number, strokes: number, hash: string, line: string, log: string}>}
 */
export function joinPeer({ room, url, data, draw = 0, seed = 1, timeout = 60, logLevel = 'warning' }) {
  const args = ['join', room, '--server', url, '--draw', String(draw), '--seed', String(seed), '--wait-synced'];
  args.push('--timeout', String(timeout), '--log-level', logLevel);
  if (data !== undefined) args.push('--data', data);
  const child = spawn(INKWELL_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    errors += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const match = /room \S+ board \S+: (\d+) changes, (\d+) strokes, hash ([0-9a-f]+)/.exec(output);
      if (code !== 0 || match === null) {
        reject(new Error(`inkwell join exited ${code}: ${output} ${errors}`));
        return;
      }
      resolve({ changes: Number(match[1]), strokes: Number(match[2]), hash: match[3], line: match[0], log: errors });
    });
  });
}
