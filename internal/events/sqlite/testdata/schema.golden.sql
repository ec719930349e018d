CREATE TABLE "events" (
    seq             INTEGER PRIMARY KEY,               -- global order, for replay
    stream_id       INTEGER NOT NULL,                  -- streams.id
    version         INTEGER NOT NULL CHECK (version >= 1),
    batch           INTEGER NOT NULL,                  -- version of the first event its command appended
    type            TEXT    NOT NULL,
    schema_version  INTEGER NOT NULL,
    data            TEXT    NOT NULL CHECK (json_valid(data)),
    recorded_at     TEXT    NOT NULL,                  -- RFC 3339, UTC
    idempotency_key TEXT,
    prev_hash       TEXT    NOT NULL,
    hash            TEXT    NOT NULL,
    UNIQUE (stream_id, version)
);

CREATE TABLE goose_db_version (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		version_id INTEGER NOT NULL,
		is_applied INTEGER NOT NULL,
		tstamp TIMESTAMP DEFAULT (datetime('now'))
	);

CREATE TABLE idempotency_keys (
    scope       TEXT    NOT NULL,  -- where the key is unique: a stream, or a kind of request ("create")
    name        TEXT    NOT NULL,  -- the client's key
    stream      TEXT    NOT NULL,  -- the stream the first append with the key wrote to
    batch       INTEGER NOT NULL,  -- the version of that append's first event
    fingerprint BLOB,              -- what the request was; NULL for keys kept from before
    used_at     TEXT    NOT NULL,  -- UTC, fixed width (2006-01-02T15:04:05.000Z), so it sorts as text
    PRIMARY KEY (scope, name)
) WITHOUT ROWID;

CREATE TABLE stream_aliases (
    alias  TEXT PRIMARY KEY,
    stream TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE "streams" (
    id      INTEGER PRIMARY KEY,
    stream  TEXT    NOT NULL UNIQUE,
    version INTEGER NOT NULL,          -- 0: no head (an event without one is a chain error)
    hash    TEXT    NOT NULL
);

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: an event cannot be deleted');
END;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: an event cannot be changed');
END;

CREATE TRIGGER stream_aliases_no_update BEFORE UPDATE ON stream_aliases
BEGIN
    SELECT RAISE(ABORT, 'a stream alias cannot be changed');
END;

CREATE VIEW stream_events AS
SELECT e.seq, IFNULL(s.stream, '') AS stream, e.version, e.batch, e.type, e.schema_version, e.data, e.recorded_at,
       e.idempotency_key, e.prev_hash, e.hash, e.stream_id
FROM events e LEFT JOIN streams s ON s.id = e.stream_id;

