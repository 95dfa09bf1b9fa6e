import GRDB

/// The store's tables, created by migrations that are never edited once shipped: a new need gets a new
/// migration appended to ``migrator``, and ``version`` moves up by one.
///
/// Each migration also writes its number into `PRAGMA user_version`, so that a file written by a newer
/// Inkwell can name its schema in the refusal message even though its migration ids are unknown here.
enum StoreSchema {
    /// The highest schema this code understands: the number written by the last migration.
    static let version = 9

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: createVersion1)
        migrator.registerMigration("v2", migrate: createVersion2)
        migrator.registerMigration("v3", migrate: createVersion3)
        migrator.registerMigration("v4", migrate: createVersion4)
        migrator.registerMigration("v5", migrate: createVersion5)
        migrator.registerMigration("v6", migrate: createVersion6)
        migrator.registerMigration("v7", migrate: createVersion7)
        migrator.registerMigration("v8", migrate: createVersion8)
        migrator.registerMigration("v9", migrate: createVersion9)
        return migrator
    }

    /// Throws ``StoreError/newerSchema(found:supported:)`` when a newer Inkwell migrated this file.
    static func refuseNewer(_ db: Database) throws {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let superseded = try migrator.hasBeenSuperseded(db)
        if found > version || superseded {
            throw StoreError.newerSchema(found: max(found, version + 1), supported: version)
        }
    }

    /// Version 1. Stamps are stored with the top bit flipped (see ``SQLValues``); seqs are ≥ 1.
    private static func createVersion1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE store_identity (
                    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                    replica BLOB NOT NULL CHECK (length(replica) = 16)
                );
                CREATE TABLE change (
                    replica BLOB NOT NULL CHECK (length(replica) = 16),
                    seq INTEGER NOT NULL CHECK (seq >= 1),
                    stamp INTEGER NOT NULL,
                    room TEXT NOT NULL CHECK (room <> ''),
                    board TEXT NOT NULL CHECK (board <> ''),
                    schema_version INTEGER NOT NULL CHECK (schema_version >= 0),
                    payload BLOB NOT NULL,
                    entities BLOB NOT NULL,
                    PRIMARY KEY (replica, seq)
                );
                CREATE INDEX change_by_board ON change (room, board, stamp, replica, seq);
                CREATE INDEX change_by_stamp ON change (stamp);
                CREATE TABLE room_frontier (
                    room TEXT NOT NULL,
                    replica BLOB NOT NULL,
                    seq INTEGER NOT NULL CHECK (seq >= 1),
                    stamp INTEGER NOT NULL,
                    PRIMARY KEY (room, replica)
                ) WITHOUT ROWID;
                CREATE TABLE outbox (
                    position INTEGER PRIMARY KEY AUTOINCREMENT,
                    replica BLOB NOT NULL,
                    seq INTEGER NOT NULL,
                    UNIQUE (replica, seq),
                    FOREIGN KEY (replica, seq) REFERENCES change (replica, seq)
                );
                CREATE TABLE room_watermark (
                    room TEXT PRIMARY KEY NOT NULL,
                    server_seq INTEGER NOT NULL CHECK (server_seq >= 0)
                ) WITHOUT ROWID;
                CREATE TABLE snapshot (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room TEXT NOT NULL CHECK (room <> ''),
                    board TEXT NOT NULL CHECK (board <> ''),
                    schema_version INTEGER NOT NULL CHECK (schema_version >= 0),
                    bytes BLOB NOT NULL,
                    UNIQUE (room, board)
                );
                CREATE TABLE snapshot_frontier (
                    snapshot_id INTEGER NOT NULL REFERENCES snapshot (id) ON DELETE CASCADE,
                    replica BLOB NOT NULL CHECK (length(replica) = 16),
                    seq INTEGER NOT NULL CHECK (seq >= 1),
                    stamp INTEGER NOT NULL,
                    PRIMARY KEY (snapshot_id, replica)
                ) WITHOUT ROWID;
                CREATE TABLE blob (
                    hash TEXT PRIMARY KEY NOT NULL CHECK (length(hash) = 64),
                    size INTEGER NOT NULL CHECK (size >= 0),
                    mime_type TEXT NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('missing', 'downloading', 'present')),
                    path TEXT,
                    bytes BLOB,
                    CHECK (path IS NULL OR bytes IS NULL)
                );
                CREATE INDEX blob_by_state ON blob (state);
                CREATE TABLE stored_aside (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    room TEXT NOT NULL,
                    schema_version INTEGER NOT NULL CHECK (schema_version >= 0),
                    bytes BLOB NOT NULL,
                    received_at INTEGER NOT NULL
                );
                CREATE INDEX stored_aside_by_version ON stored_aside (schema_version, id);
                PRAGMA user_version = 1;
                """
        )
    }

    /// Version 2: the replica this device writes each room under, so every room's timelines are
    /// contiguous (see ``Store/replica(for:)``).
    private static func createVersion2(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE room_replica (
                    room TEXT PRIMARY KEY CHECK (room <> ''),
                    replica BLOB NOT NULL UNIQUE CHECK (length(replica) = 16)
                ) WITHOUT ROWID;
                PRAGMA user_version = 2;
                """
        )
    }

    /// Version 3: the Ed25519 key that owns each replica this device writes (see ``Store/authorKey(of:)``).
    /// A room whose replica has no key gets a new, keyed replica on its next change.
    private static func createVersion3(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE replica_key (
                    replica BLOB PRIMARY KEY CHECK (length(replica) = 16),
                    private_key BLOB NOT NULL CHECK (length(private_key) = 32)
                ) WITHOUT ROWID;
                PRAGMA user_version = 3;
                """
        )
    }

    /// Version 4: a change belongs to a document of some type, not only to a board: the columns are
    /// named for what they hold, each change keeps its type, and `document` lists each room's
    /// documents by type and name, so an app finds the documents it needs (the days of a log in a
    /// date range) without reading changes. Every change stored before is a board's.
    private static func createVersion4(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE change RENAME COLUMN board TO document;
                DROP INDEX change_by_board;
                CREATE INDEX change_by_document ON change (room, document, stamp, replica, seq);
                ALTER TABLE snapshot RENAME COLUMN board TO document;
                ALTER TABLE change ADD COLUMN type TEXT NOT NULL DEFAULT 'board';
                CREATE TABLE document (
                    room TEXT NOT NULL,
                    type TEXT NOT NULL,
                    name TEXT NOT NULL,
                    PRIMARY KEY (room, type, name)
                ) WITHOUT ROWID;
                INSERT INTO document (room, type, name) SELECT DISTINCT room, type, document FROM change;
                PRAGMA user_version = 4;
                """
        )
    }

    /// Version 5: what opens each room: the capability this device subscribes with, those it may hand
    /// on (the admin one only on the device that made the board), and the room's key when it is encrypted.
    private static func createVersion5(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE room_access (
                    room TEXT PRIMARY KEY NOT NULL,
                    capability TEXT NOT NULL,
                    admin TEXT,
                    edit TEXT,
                    view TEXT,
                    room_key BLOB CHECK (room_key IS NULL OR length(room_key) = 32)
                ) WITHOUT ROWID;
                PRAGMA user_version = 5;
                """
        )
    }

    /// Version 6: history that stays bounded. A snapshot the store wrote itself may be `compacted`: the
    /// change rows inside its cut were removed, and it is their only copy. `document_tail` lists the
    /// documents with changes stored outside their snapshot, how many, and since when (the store's clock,
    /// in ms), so the snapshot writer finds those due by age without reading changes; documents stored
    /// before are dated 0, as old. Room frontiers are indexed by replica, so a change removed with its
    /// snapshot is still known as held, and a timeline's last seq and stamp outlive its rows.
    private static func createVersion6(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE snapshot ADD COLUMN compacted INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX room_frontier_by_replica ON room_frontier (replica, seq);
                CREATE TABLE document_tail (
                    room TEXT NOT NULL,
                    document TEXT NOT NULL,
                    since INTEGER NOT NULL,
                    changes INTEGER NOT NULL CHECK (changes >= 1),
                    PRIMARY KEY (room, document)
                ) WITHOUT ROWID;
                INSERT INTO document_tail (room, document, since, changes)
                    SELECT room, document, 0, count(*) FROM change GROUP BY room, document;
                PRAGMA user_version = 6;
                """
        )
    }

    /// Version 7: the newest room snapshot this device heard of, per room, so a restarted client knows
    /// when the next is due instead of sending one the server refuses as too soon.
    private static func createVersion7(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE room_snapshot_heard (
                    room TEXT PRIMARY KEY NOT NULL,
                    position INTEGER NOT NULL CHECK (position >= 1),
                    changes INTEGER NOT NULL CHECK (changes >= 0)
                ) WITHOUT ROWID;
                PRAGMA user_version = 7;
                """
        )
    }

    /// Version 8: how many changes that snapshot holds, besides how many it stands for. A snapshot leaves
    /// out what stopped mattering, so the next is spaced by what one holds, not by the room's history.
    private static func createVersion8(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE room_snapshot_heard ADD COLUMN held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0);
                PRAGMA user_version = 8;
                """
        )
    }

    /// Version 9: per room, the cut of the room snapshots this device took in place of packs it never
    /// received. The room's frontier moves over it, so the changes the snapshot left out (they stopped
    /// mattering) leave no gap; this table is what lets the invariants tell such a change from a hole.
    /// And per snapshot the store wrote, the cut within which it left out what stopped mattering: a room
    /// snapshot this device sends must stand for all of it.
    private static func createVersion9(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE room_cover (
                    room TEXT NOT NULL,
                    replica BLOB NOT NULL CHECK (length(replica) = 16),
                    seq INTEGER NOT NULL CHECK (seq >= 1),
                    PRIMARY KEY (room, replica)
                ) WITHOUT ROWID;
                CREATE TABLE snapshot_pruned (
                    snapshot_id INTEGER NOT NULL REFERENCES snapshot (id) ON DELETE CASCADE,
                    replica BLOB NOT NULL CHECK (length(replica) = 16),
                    seq INTEGER NOT NULL CHECK (seq >= 1),
                    PRIMARY KEY (snapshot_id, replica)
                ) WITHOUT ROWID;
                PRAGMA user_version = 9;
                """
        )
    }
}
