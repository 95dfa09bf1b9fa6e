// The protocol rules of the client, without a socket, as Swift's ClientSessionTests.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromHex } from '../../js/wire/bytes.js';
import { SyncMachine } from '../../js/sync/sync-machine.js';
import { SyncProtocol } from '../../js/wire/limits.js';

const DEVICE = '0a'.repeat(16);
const OTHER = '0b'.repeat(16);

function queued(seq, size = 20) {
  return { key: `${DEVICE}-${seq}`, room: 'r', id: { replica: DEVICE, seq }, bytes: new Uint8Array(size) };
}

const welcome = (protocolVersion = SyncProtocol.version) => ({ type: 'welcome', protocolVersion, server: new Uint8Array(16), limits: {}, serverTime: 0 });
/** A pack's id (the SHA-256 of its bytes, as far as the machine cares: 32 bytes the shell computed). */
const id = (byte) => new Uint8Array(32).fill(byte);

/** The server's answer to a subscription (2: edit rights). */
const access = (rights = 2, guarded = false) => ({ type: 'access', room: 'r', rights, guarded });

/** A machine that has said hello, been welcomed, and been told it may edit. */
function openMachine(options = {}) {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, ...options });
  machine.connecting();
  machine.connected();
  const actions = [...machine.received(welcome()), ...machine.received(access())];
  return { machine, actions };
}

const types = (actions) => actions.map((action) => (action.type === 'send' ? `send ${action.frame.type}` : action.type));

test('hello names the device and the versions; welcome subscribes from the watermark', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, watermark: 7 });
  assert.equal(machine.status(0).state, 'offline');
  machine.connecting();
  assert.equal(machine.status(0).state, 'connecting');
  const [hello] = machine.connected();
  assert.equal(hello.frame.type, 'hello');
  assert.deepEqual(hello.frame.device, fromHex(DEVICE));
  assert.deepEqual([hello.frame.protocolVersion, hello.frame.minimumProtocolVersion], [SyncProtocol.version, SyncProtocol.minimumVersion]);
  const actions = machine.received(welcome());
  assert.deepEqual(types(actions), ['send subscribe']);
  assert.equal(actions[0].frame.after, 7);
  assert.equal(actions[0].frame.capability, undefined, 'an open room: no capability');
  assert.equal(machine.status(0).state, 'connecting', 'not told yet what it may do');
  assert.deepEqual(types(machine.received(access())), ['access', 'plan', 'joined']);
});

test('status: downloading until caught up, uploading while bytes wait, then synced', () => {
  const { machine } = openMachine();
  assert.equal(machine.status(0).state, 'downloading', 'nothing said yet about what is behind');
  machine.received({ type: 'progress', room: 'r', head: 2, bytesBehind: 300, packsBehind: 2 });
  assert.deepEqual(machine.status(0), { state: 'downloading', bytesToUpload: 0, bytesToDownload: 300 });
  assert.equal(machine.status(10).state, 'uploading');
  assert.deepEqual(types(machine.stored([1, 2], 300, 2)), ['persistWatermark']);
  machine.received({ type: 'progress', room: 'r', head: 2, bytesBehind: 0, packsBehind: 0 });
  assert.deepEqual(machine.status(0), { state: 'synced', bytesToUpload: 0, bytesToDownload: 0 });
});

test('packs in flight are bounded, acknowledged, and pushed again byte for byte after a reconnect', () => {
  const { machine } = openMachine({ maximumPacksInFlight: 2, limits: { maximumChanges: 1, maximumBytes: 1 << 20 } });
  const queue = [1, 2, 3].map((seq) => queued(seq));
  const planned = machine.plan(queue);
  assert.deepEqual(types(planned), ['encode', 'encode'], 'two packs at most in flight');
  assert.deepEqual(machine.plan(queue), [], 'no room left');
  const [first, second] = planned.map((action) => action.pack);
  assert.deepEqual(types(machine.encoded(first.name, new Uint8Array([1]), '01'.repeat(32))), ['send push']);
  assert.equal(machine.status(0).bytesToUpload, 1 + machine.inFlight[1].estimate);

  // The connection drops before the ack: the welcome pushes the encoded pack again, the other once encoded.
  machine.disconnected(null);
  assert.deepEqual(machine.encoded(second.name, new Uint8Array([2]), '02'.repeat(32)), [], 'not connected: it waits');
  machine.connecting();
  machine.connected();
  const again = [...machine.received(welcome()), ...machine.received(access())];
  assert.deepEqual(types(again), ['send subscribe', 'access', 'send push', 'send push', 'plan', 'joined']);
  assert.deepEqual(again[2].frame.pack, new Uint8Array([1]));

  const ack = machine.received({ type: 'ack', room: 'r', packId: id(1), serverSeq: 1 });
  assert.deepEqual(types(ack), ['acknowledge', 'plan']);
  assert.equal(ack[0].hex, '01'.repeat(32), 'matched by the SHA-256 id');
  assert.deepEqual(ack[0].changeKeys, [queue[0].key]);
  assert.equal(ack[0].watermark, 1, 'the watermark is stored with the acknowledgement, after it');
  assert.deepEqual(types(machine.received({ type: 'ack', room: 'r', packId: id(1), serverSeq: 1 })), [], 'a repeated ack');
  const next = machine.plan(queue.slice(1));
  assert.deepEqual(next.map((action) => action.pack.changes[0].id.seq), [3], 'the change in flight is not planned twice');
});

test('packs of two timelines are planned apart, and a pack not yet signed is matched by no ack', () => {
  const { machine } = openMachine();
  const other = { key: `${OTHER}-1`, room: 'r', id: { replica: OTHER, seq: 1 }, bytes: new Uint8Array(20) };
  const planned = machine.plan([queued(1), other, queued(2)]).map((action) => action.pack);
  assert.deepEqual(planned.map((pack) => [pack.replica, pack.changes.length]), [[DEVICE, 2], [OTHER, 1]]);
  assert.deepEqual(machine.inFlight.map((pack) => pack.hex), [null, null]);
  assert.deepEqual(machine.received({ type: 'ack', room: 'r', packId: id(9), serverSeq: 1 }).filter((a) => a.type === 'acknowledge'), []);
  machine.abandon(planned[1].name);
  assert.deepEqual(machine.inFlight.map((pack) => pack.name), [planned[0].name], 'abandoned by its name');
  assert.deepEqual(machine.encoded(planned[1].name, new Uint8Array([1]), '09'.repeat(32)), [], 'an abandoned pack is not pushed');
});

test('an ack whose changes the store failed to keep does not move the watermark', () => {
  const { machine } = openMachine();
  const [{ pack }] = machine.plan([queued(1)]);
  machine.encoded(pack.name, new Uint8Array([1]), '05'.repeat(32));
  const actions = machine.received({ type: 'ack', room: 'r', packId: id(5), serverSeq: 1 }, { ownChangesStored: false });
  assert.deepEqual(types(actions), ['acknowledge', 'plan']);
  assert.equal(machine.cursor.watermark, 0);
  assert.equal(machine.status(0).state, 'downloading', 'the position comes again on the next subscribe');
});

test('a server that refuses the version: its message is kept, and the machine stops for good', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE });
  machine.connecting();
  machine.connected();
  const message = 'this server speaks protocol versions 2 to 2, and this app speaks 1 to 1: please update the app';
  const refusal = machine.received({ type: 'error', code: 2, message, fatal: true, room: '' });
  assert.deepEqual(types(refusal), ['fail']);
  assert.equal(refusal[0].error.code, 'unsupportedVersion');
  assert.equal(refusal[0].error.serverMessage, message);
  assert.deepEqual(machine.disconnected(4001, 'unsupported'), []);
  machine.connecting();
  assert.deepEqual(machine.connected(), [], 'a failed machine says nothing more');
  assert.equal(machine.status(0).state, 'offline');
});

test('close code 4001 after a fatal error frame fails with the frame’s message', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE });
  machine.connected();
  assert.deepEqual(machine.received({ type: 'error', code: 99, message: 'too old', fatal: true, room: '' }), []);
  const [fail] = machine.disconnected(4001, '');
  assert.equal(fail.error.serverMessage, 'too old');
});

test('a welcome with a version this client does not speak fails', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE });
  machine.connected();
  const [fail] = machine.received(welcome(9));
  assert.equal(fail.type, 'fail');
  const old = new SyncMachine({ room: 'r', device: DEVICE });
  old.connected();
  assert.equal(old.received(welcome(1))[0].type, 'fail', 'protocol 1 (unsigned packs) is no longer spoken');
});

test('frames out of order drop the connection; a storage failure on the server too', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE });
  machine.connected();
  assert.deepEqual(types(machine.received({ type: 'ack', room: 'r', packId: id(1), serverSeq: 1 })), ['disconnect']);
  const { machine: open } = openMachine();
  assert.deepEqual(types(open.received({ type: 'error', code: 8, message: 'not stored', fatal: false, room: 'r' })), ['disconnect']);
  assert.deepEqual(open.received({ type: 'error', code: 5, message: 'subscribe first', fatal: false, room: 'r' }), []);
});

test('a push stamped ahead of the server’s clock stays in flight and goes again after the reconnection', () => {
  const { machine } = openMachine();
  const [{ pack }] = machine.plan([queued(1)]);
  machine.encoded(pack.name, new Uint8Array([7]), '07'.repeat(32));
  const refusal = machine.received({ type: 'error', code: 11, message: 'a change is stamped ahead', fatal: false, room: 'r' });
  assert.deepEqual(types(refusal), ['disconnect']);
  assert.equal(machine.inFlight.length, 1, 'kept, not abandoned');
  assert.deepEqual(machine.received({ type: 'error', code: 11, message: 'x', fatal: false, room: 'elsewhere' }), []);
  machine.disconnected(1000);
  machine.connecting();
  machine.connected();
  const again = [...machine.received(welcome()), ...machine.received(access())];
  assert.deepEqual(types(again), ['send subscribe', 'access', 'send push', 'plan', 'joined']);
  assert.deepEqual(again[2].frame.pack, new Uint8Array([7]), 'the same bytes');
  assert.equal(machine.failure, null, 'not fatal');
});

test('presence from others is delivered; its own and other rooms’ are not', () => {
  const { machine } = openMachine();
  const presence = (device, room = 'r') => ({
    type: 'presence', room, device: fromHex(device), name: 'x', colour: 0, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null,
  });
  assert.deepEqual(types(machine.received(presence(OTHER))), ['deliver']);
  assert.deepEqual(machine.received(presence(DEVICE)), []);
  assert.deepEqual(machine.received(presence(OTHER, 'elsewhere')), []);
  assert.deepEqual(types(machine.presence(presence(DEVICE))), ['send presence']);
  machine.disconnected(null);
  assert.deepEqual(machine.presence(presence(DEVICE)), [], 'offline: dropped, never queued');
});

test('packs stored out of order move the watermark only over contiguous positions', () => {
  const { machine } = openMachine({ watermark: 3 });
  assert.deepEqual(machine.stored([5, 6], 10, 6), []);
  assert.deepEqual(machine.stored([4], 5, 6), [{ type: 'persistWatermark', position: 6 }]);
});

// Access: rooms guarded by capabilities (protocol 3).

const CREATE = { adminHash: new Uint8Array(32).fill(1), editHash: new Uint8Array(32).fill(2), viewHash: new Uint8Array(32).fill(3) };
const roomError = (code, message = 'refused') => ({ type: 'error', code, message, fatal: false, room: 'r' });

test('the device that made a board registers it, then subscribes with its capability; nothing is pushed before access says it may edit', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, capability: 'a-capability', create: CREATE });
  machine.connecting();
  machine.connected();
  const actions = machine.received(welcome());
  assert.deepEqual(types(actions), ['send createRoom', 'send subscribe'], 'createRoom first: a board made offline registers now');
  assert.deepEqual(actions[0].frame.adminHash, CREATE.adminHash);
  assert.equal(actions[1].frame.capability, 'a-capability');
  assert.deepEqual(machine.plan([queued(1)]), [], 'no push before the answer');
  assert.deepEqual(machine.presence({ type: 'presence' }), [], 'no presence before the answer');
  assert.deepEqual(machine.received({ type: 'access', room: 'r', rights: 3, guarded: true }), [], 'the answer to createRoom');
  assert.equal(machine.rights, null);
  assert.deepEqual(types(machine.received(access(3, true))), ['access', 'plan', 'joined'], 'the answer to subscribe');
  assert.equal(machine.rights, 'admin');
  assert.equal(machine.guarded, true);
  assert.deepEqual(types(machine.plan([queued(1)])), ['encode']);
});

test('a board made elsewhere is answered in order: roomExists for createRoom does not stop the subscription', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, capability: 'e-cap', create: CREATE });
  machine.connected();
  machine.received(welcome());
  assert.deepEqual(machine.received(roomError(20, 'a board with this id already exists')), []);
  assert.equal(machine.failure, null);
  assert.deepEqual(types(machine.received(access(2, true))), ['access', 'plan', 'joined']);
});

test('view rights: the board comes live, but nothing is ever pushed nor presence sent', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, capability: 'v-cap' });
  machine.connected();
  machine.received(welcome());
  assert.deepEqual(types(machine.received(access(1, true))), ['access']);
  assert.equal(machine.rights, 'view');
  assert.deepEqual(machine.plan([queued(1)]), []);
  assert.deepEqual(machine.presence({ type: 'presence' }), []);
  const other = { type: 'presence', room: 'r', device: fromHex(OTHER), name: 'x', colour: 0, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null };
  assert.deepEqual(types(machine.received(other)), ['deliver'], 'the others are seen');
  machine.received({ type: 'progress', room: 'r', head: 0, bytesBehind: 0, packsBehind: 0 });
  assert.equal(machine.status(0).state, 'synced');
});

test('a refused link fails the machine for good: no reconnecting against a dead capability', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, capability: 'e-old' });
  machine.connected();
  machine.received(welcome());
  const [fail] = machine.received(roomError(17));
  assert.equal(fail.type, 'fail');
  assert.equal(fail.error.code, 'accessDenied');
  assert.equal(fail.error.reason, 'notAllowed');
  assert.equal(machine.phase, 'failed');
  assert.deepEqual(machine.connected(), [], 'a failed machine says nothing more');
  assert.match(fail.error.message, /no longer works: ask for a new one/);
});

test('a room the server does not know is no refusal: the connection stays, and the shell subscribes again when it asks', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, capability: 'e-cap', watermark: 3 });
  machine.connected();
  machine.received(welcome());
  assert.deepEqual(machine.resubscribe(), [], 'a subscription is waiting for its answer: none more');
  assert.deepEqual(machine.received(roomError(16)), [{ type: 'roomUnknown' }]);
  assert.equal(machine.failure, null);
  assert.equal(machine.phase, 'open');
  assert.equal(machine.roomUnknown, true);
  assert.equal(machine.status(0).state, 'connecting', 'not told yet what it may do');
  assert.deepEqual(machine.plan([queued(1)]), [], 'nothing pushed to a room not there');
  const again = machine.resubscribe();
  assert.deepEqual(types(again), ['send subscribe']);
  assert.deepEqual([again[0].frame.capability, again[0].frame.after], ['e-cap', 3]);
  assert.deepEqual(machine.resubscribe(), [], 'asked once until answered');
  assert.deepEqual(machine.received(roomError(16)), [{ type: 'roomUnknown' }], 'still not there');
  assert.deepEqual(types(machine.received(access(2, true))), ['access', 'plan', 'joined'], 'there now');
  assert.equal(machine.roomUnknown, false);
  assert.deepEqual(machine.resubscribe(), [], 'found: nothing to ask again');
});

test('asking again for an unknown room waits for the next connection once this one ended, and registers a room this device made', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, capability: 'e-cap' });
  machine.connected();
  machine.received(welcome());
  machine.received(roomError(16));
  machine.disconnected(null);
  assert.deepEqual(machine.resubscribe(), [], 'no connection: its welcome subscribes');
  machine.connected();
  assert.deepEqual(types(machine.received(welcome())), ['send subscribe']);

  const maker = new SyncMachine({ room: 'r', device: DEVICE, capability: 'a-cap', create: CREATE });
  maker.connected();
  maker.received(welcome());
  maker.received(roomError(20)); // createRoom: another admin's board
  assert.deepEqual(maker.received(roomError(16)), [{ type: 'roomUnknown' }]);
  assert.deepEqual(types(maker.resubscribe()), ['send createRoom', 'send subscribe'], 'as on a welcome');
});

test('a replaced capability: the fatal error and close 4004 fail the machine, saying the link was replaced', () => {
  const { machine } = openMachine({ capability: 'e-cap' });
  assert.deepEqual(machine.received({ type: 'error', code: 19, message: 'replaced', fatal: true, room: 'r' }), []);
  const [fail] = machine.disconnected(4004, '');
  assert.equal(fail.error.reason, 'capabilityRevoked');
  assert.match(fail.error.message, /no longer works/);
  assert.equal(machine.status(0).state, 'offline');
});

test('rotating: only an admin connection asks; the answer comes back by name, refused or done', () => {
  const machine = new SyncMachine({ room: 'r', device: DEVICE, capability: 'a-cap', create: CREATE });
  const [early] = machine.rotate('one', { adminCapability: 'a-cap', viewHash: CREATE.viewHash });
  assert.deepEqual([early.type, early.name, early.error.code], ['rotated', 'one', 'notConnected']);
  machine.connected();
  machine.received(welcome());
  machine.received(access(3, true)); // createRoom's answer
  machine.received(access(3, true)); // subscribe's
  const [sent] = machine.rotate('two', { adminCapability: 'a-cap', viewHash: CREATE.viewHash });
  assert.equal(sent.frame.type, 'rotateCapability');
  assert.equal(sent.frame.editHash.length, 0, 'an empty hash keeps the edit link');
  assert.deepEqual(machine.received(access(3, true)), [{ type: 'rotated', name: 'two', error: null }]);
  machine.rotate('three', { adminCapability: 'a-wrong', editHash: CREATE.editHash });
  const [refused] = machine.received(roomError(17));
  assert.deepEqual([refused.type, refused.name, refused.error.code], ['rotated', 'three', 'accessDenied']);
  assert.equal(machine.failure, null, 'a refused rotation is not a refused link');
  machine.rotate('four', { adminCapability: 'a-cap', editHash: CREATE.editHash });
  assert.deepEqual(machine.disconnected(null).map((a) => [a.type, a.name, a.error.code]), [['rotated', 'four', 'notConnected']]);
  const editor = openMachine({ capability: 'e-cap' }).machine;
  assert.equal(editor.rotate('five', { adminCapability: 'x', editHash: CREATE.editHash })[0].error.code, 'accessDenied');
});

test('new credentials open a machine refused for a replaced link, and the server’s late close for the old one fails nothing', () => {
  const { machine } = openMachine({ capability: 'e-old' });
  machine.received({ type: 'error', code: 19, message: 'replaced', fatal: true, room: 'r' });
  machine.disconnected(4004, '');
  assert.equal(machine.phase, 'failed');
  assert.deepEqual(machine.changeCredentials({ capability: 'e-old', create: null }), [], 'the same capability: still refused');
  assert.deepEqual(machine.changeCredentials({ capability: 'a-new', create: CREATE }), [{ type: 'reconnect' }]);
  assert.deepEqual([machine.phase, machine.failure], ['offline', null]);
  machine.connecting();
  machine.connected();
  const requests = machine.received(welcome());
  assert.deepEqual(types(requests), ['send createRoom', 'send subscribe']);
  assert.equal(requests[1].frame.capability, 'a-new');

  // The new credentials first: the connection on the old capability is closed, to subscribe with the new.
  const early = openMachine({ capability: 'e-old' }).machine;
  assert.deepEqual(early.changeCredentials({ capability: 'a-new', create: null }), [{ type: 'disconnect', reason: 'this device holds a new link to the room' }]);
  assert.deepEqual(early.disconnected(4004, ''), [], 'revoked for the old capability: reconnect, no failure');
  assert.deepEqual([early.phase, early.failure], ['offline', null]);

  // A refusal of the old capability that crosses the change is not the new one's.
  const crossing = new SyncMachine({ room: 'r', device: DEVICE, capability: 'e-old' });
  crossing.connected();
  crossing.received(welcome());
  crossing.changeCredentials({ capability: 'a-new', create: null });
  assert.deepEqual(crossing.received(roomError(17)), []);
  assert.equal(crossing.failure, null);

  // Nothing to change while not subscribed: the welcome subscribes with what is held then.
  const waiting = new SyncMachine({ room: 'r', device: DEVICE, capability: 'e-old' });
  waiting.connected();
  assert.deepEqual(waiting.changeCredentials({ capability: 'a-new', create: null }), []);
  assert.equal(waiting.received(welcome())[0].frame.capability, 'a-new');

  // A view link that pushed is not opened again by other credentials: the page never pushes on one.
  const viewer = openMachine({ capability: 'v-cap' }).machine;
  viewer.disconnected(4003, '');
  assert.deepEqual(viewer.changeCredentials({ capability: 'e-cap', create: null }), []);
  assert.equal(viewer.phase, 'failed');
});

test('a full room stops this connection pushing, keeps what is in flight for the next, and still sends presence', () => {
  const { machine } = openMachine({ maximumPacksInFlight: 4 });
  const [first] = machine.plan([queued(1)]);
  assert.deepEqual(types(machine.encoded(first.pack.name, new Uint8Array([1]), '01'.repeat(32))), ['send push']);
  assert.deepEqual(machine.received(roomError(21, 'this board is full')), []);
  assert.equal(machine.roomFull, true);
  assert.equal(machine.failure, null, 'not a failure: reading goes on');
  assert.deepEqual(machine.plan([queued(1), queued(2)]), [], 'nothing more is planned');
  assert.equal(machine.inFlight.length, 1, 'the refused pack stays, stored, for the next connection');
  assert.equal(machine.status(0).state, 'uploading', 'what it holds is still to upload');
  const presence = { type: 'presence', room: 'r', device: fromHex(DEVICE), name: 'x', colour: 0, cursorX: 0, cursorY: 0, hasCursor: false, board: '', ink: null };
  assert.deepEqual(types(machine.presence(presence)), ['send presence']);
  // The next connection tries again, the refused pack first.
  machine.disconnected();
  machine.connecting();
  machine.connected();
  machine.received(welcome());
  assert.equal(machine.roomFull, false);
  assert.deepEqual(types(machine.received(access())), ['access', 'send push', 'plan', 'joined']);
});
