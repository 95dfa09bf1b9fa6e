/// The pack log's tables in PostgreSQL, as migrations: versioned and append-only. Each is a list of
/// statements run in one transaction; a database that has run a migration this version does not know was
/// made by a newer server, which this one refuses (``PostgresPackLog/Failure/newerSchema(found:known:)``).
///
/// The tables mirror the SQLite log's (PackLog.swift and its extensions), with two differences: each room
/// has a `room_head` row, which commits lock to take positions (see ``PostgresPackLog``), and where a
/// pack ends in its room's bytes is kept in its own row rather than a table beside it.
enum PostgresSchema {
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE server_identity (
                singleton integer PRIMARY KEY CHECK (singleton = 1),
                replica bytea NOT NULL CHECK (length(replica) = 16)
            )
            """,
            """
            CREATE TABLE room_head (
                room text PRIMARY KEY,
                head bigint NOT NULL CHECK (head >= 0),
                end_offset bigint NOT NULL CHECK (end_offset >= 0)
            )
            """,
            """
            CREATE TABLE pack (
                room text NOT NULL,
                position bigint NOT NULL CHECK (position >= 1),
                pack_id bytea NOT NULL CHECK (length(pack_id) IN (16, 32)),
                bytes bytea NOT NULL,
                end_offset bigint NOT NULL CHECK (end_offset >= 0),
                PRIMARY KEY (room, position),
                UNIQUE (room, pack_id)
            )
            """,
            """
            CREATE TABLE device_watermark (
                room text NOT NULL,
                device bytea NOT NULL CHECK (length(device) = 16),
                position bigint NOT NULL CHECK (position >= 0),
                seen_at bigint NOT NULL,
                PRIMARY KEY (room, device)
            )
            """,
            """
            CREATE TABLE room_access (
                room text PRIMARY KEY,
                admin_hash bytea CHECK (admin_hash IS NULL OR length(admin_hash) = 32),
                edit_hash bytea CHECK (edit_hash IS NULL OR length(edit_hash) = 32),
                view_hash bytea CHECK (view_hash IS NULL OR length(view_hash) = 32),
                CHECK ((admin_hash IS NULL) = (edit_hash IS NULL) AND (edit_hash IS NULL) = (view_hash IS NULL))
            )
            """,
            """
            CREATE TABLE room_blob (
                room text NOT NULL,
                hash bytea NOT NULL CHECK (length(hash) = 32),
                size bigint NOT NULL CHECK (size >= 0),
                PRIMARY KEY (room, hash)
            )
            """,
            """
            CREATE TABLE room_snapshot (
                room text NOT NULL,
                snapshot bytea NOT NULL CHECK (length(snapshot) = 16),
                author bytea NOT NULL CHECK (length(author) = 16),
                covers bigint NOT NULL CHECK (covers >= 1),
                parts bigint NOT NULL CHECK (parts >= 1),
                claim bytea NOT NULL CHECK (length(claim) = 32),
                held bigint NOT NULL DEFAULT 0,
                bytes bigint NOT NULL DEFAULT 0,
                PRIMARY KEY (room, snapshot)
            )
            """,
            """
            CREATE TABLE snapshot_part (
                room text NOT NULL,
                snapshot bytea NOT NULL,
                part bigint NOT NULL,
                position bigint NOT NULL,
                PRIMARY KEY (room, snapshot, part)
            )
            """,
            """
            CREATE TABLE snapshot_check (
                room text NOT NULL,
                snapshot bytea NOT NULL,
                replica bytea NOT NULL,
                checked_at bigint NOT NULL,
                PRIMARY KEY (room, snapshot, replica)
            )
            """,
            """
            CREATE TABLE room_author (
                room text NOT NULL,
                replica bytea NOT NULL CHECK (length(replica) = 16),
                seen_at bigint NOT NULL,
                PRIMARY KEY (room, replica)
            )
            """,
            """
            CREATE TABLE room_floor (
                room text PRIMARY KEY,
                position bigint NOT NULL CHECK (position >= 1),
                end_offset bigint NOT NULL,
                snapshot bytea NOT NULL,
                covers bigint NOT NULL
            )
            """,
        ],
        [
            // A commit's first statement: locks its rooms' rows (made first for rooms new to the log), in
            // ascending order of room, and only then reads their heads and floors and which of its packs
            // are stored. Each statement of a function sees what committed before it began, so the reads
            // see every commit the locks waited for: one round trip instead of three, while the commit
            // holds no lock yet.
            """
            CREATE FUNCTION inkwell_take_rooms(names text[], key_rooms text[], key_ids bytea[])
            RETURNS TABLE (
                t_room text, t_head bigint, t_end bigint, t_floor bigint,
                t_pack bytea, t_position bigint, t_bytes bytea
            )
            LANGUAGE plpgsql VOLATILE AS $$
            BEGIN
                INSERT INTO room_head (room, head, end_offset) SELECT unnest(names), 0, 0 ON CONFLICT DO NOTHING;
                PERFORM 1 FROM room_head h WHERE h.room = ANY(names) ORDER BY h.room FOR UPDATE;
                RETURN QUERY
                    SELECT h.room, h.head, h.end_offset, coalesce(f.end_offset, 0), NULL::bytea, NULL::bigint,
                        NULL::bytea
                    FROM room_head h LEFT JOIN room_floor f ON f.room = h.room
                    WHERE h.room = ANY(names);
                RETURN QUERY
                    SELECT p.room, NULL::bigint, NULL::bigint, NULL::bigint, p.pack_id, p.position, p.bytes
                    FROM unnest(key_rooms, key_ids) AS w(room, pack_id)
                    JOIN pack p ON p.room = w.room AND p.pack_id = w.pack_id;
            END
            $$
            """
        ],
    ]
}
