// The page's protocol facts come from one place: protocol.js, generated from the Swift definitions by
// Tests/InkwellWireTests/ProtocolFactsTests.swift (which fails when it is stale). What the page writes by
// hand on top of it, the frame descriptors of schema.js, must name the same frames at the same numbers.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import * as schema from '../../js/wire/schema.js';
import { CLIENT_FRAMES, CLOSE_CODES, ERROR_CODES, SERVER_FRAMES, SNAPSHOT_LIMITS } from '../../js/wire/protocol.js';
import { SyncProtocol, WireLimits } from '../../js/wire/limits.js';
import * as codes from '../../js/sync/server-codes.js';

/** @param {{fields: {number: number, name: string}[]}} descriptor */
function frames(descriptor) {
  return descriptor.fields.map((field) => field.name);
}

/** The proto's `create_room` as schema.js names fields: `createRoom`. @param {string} name */
const camel = (name) => name.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());

test('the frame descriptors follow the generated frame kinds, in field order', () => {
  assert.deepEqual(frames(schema.ClientFrame), CLIENT_FRAMES.map(camel));
  assert.deepEqual(frames(schema.ServerFrame), SERVER_FRAMES.map(camel));
  assert.deepEqual(schema.ClientFrame.fields.map((field) => field.number), CLIENT_FRAMES.map((_, index) => index + 1));
  assert.deepEqual(schema.ServerFrame.fields.map((field) => field.number), SERVER_FRAMES.map((_, index) => index + 1));
});

test('the codes the client reacts to are the generated ones', () => {
  assert.equal(codes.UNSUPPORTED_VERSION_CLOSE, CLOSE_CODES.unsupportedVersion);
  assert.equal(codes.PACK_CONFLICT_CLOSE, CLOSE_CODES.packConflict);
  assert.equal(codes.STAMP_AHEAD_ERROR, ERROR_CODES.stampAhead);
  for (const [name, value] of Object.entries(codes)) {
    assert.equal(typeof value, 'number', name);
    const known = name.endsWith('_CLOSE') ? Object.values(CLOSE_CODES) : Object.values(ERROR_CODES);
    assert.ok(known.includes(value), `${name} = ${value} is a code the server sends`);
  }
});

test('limits and versions are frozen and whole', () => {
  for (const facts of [SyncProtocol, WireLimits, SNAPSHOT_LIMITS, CLOSE_CODES, ERROR_CODES]) {
    assert.ok(Object.isFrozen(facts));
    for (const value of Object.values(facts)) assert.ok(Number.isSafeInteger(value) && value > 0);
  }
});
