-- The event store: one append-only table of facts, a hash chain per stream,
-- and each stream's head so that a deleted last event is caught too.

-- +goose Up
CREATE TABLE events (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT, -- global order, for replay
    stream          TEXT    NOT NULL,                  -- one game
    version         INTEGER NOT NULL CHECK (version >= 1),
    batch           INTEGER NOT NULL,                  -- version of the first event its command appended
    type            TEXT    NOT NULL,
    schema_version  INTEGER NOT NULL,
    data            TEXT    NOT NULL CHECK (json_valid(data)),
    recorded_at     TEXT    NOT NULL,                  -- RFC 3339, UTC
    idempotency_key TEXT,
    prev_hash       TEXT    NOT NULL,
    hash            TEXT    NOT NULL,
    UNIQUE (stream, version)
);

CREATE UNIQUE INDEX events_idempotency_key ON events (idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE streams (
    stream  TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    hash    TEXT    NOT NULL
) WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: an event cannot be changed');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: an event cannot be deleted');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE streams;
DROP TABLE events;
