// Package archive is tappbook's export format for one stream: the stream's
// events as JSON lines, oldest first, each with its hash, then an end
// record that counts them and names the last hash:
//
//	{"stream":"…","version":1,"batch":1,"type":"game.started","schema_version":1,"at":"…","data":{…},"hash":"…"}
//	…
//	{"end":{"stream":"…","events":12,"head":"…"}}
//
// Import takes a file only when it is whole and self-consistent: every
// line as Export writes it, every hash present and equal to the one
// computed along the chain, the end record last and matching, the ids of
// the server's own form. A file cut short, edited (even with its hashes
// re-computed and no end record), or naming a guessable id is refused
// with the line at fault, before anything is written.
package archive

import (
	"encoding/json"
	"time"

	"tappbook/internal/events"
)

// line is one event of an export file. The field order is the file's.
type line struct {
	Stream        string          `json:"stream"`
	Version       int64           `json:"version"`
	Batch         int64           `json:"batch"`
	Type          string          `json:"type"`
	SchemaVersion int             `json:"schema_version"`
	At            time.Time       `json:"at"`
	Data          json.RawMessage `json:"data"`
	Hash          string          `json:"hash"`
}

func lineOf(e events.Event) line {
	return line{Stream: e.Stream, Version: e.Version, Batch: e.Batch, Type: e.Type,
		SchemaVersion: e.SchemaVersion, At: e.RecordedAt.UTC(), Data: e.Data, Hash: e.Hash}
}

// endLine is the file's last line.
type endLine struct {
	End *end `json:"end"`
}

type end struct {
	Stream string `json:"stream"`
	Events int    `json:"events"` // how many event lines come before it
	Head   string `json:"head"`   // the last event's hash
}

// Stream is one stream read from an export: its id and its events, with
// the hashes they carried, each checked along the chain.
type Stream struct {
	ID     string
	Events []events.Event
}

// Head is the hash of the stream's last event.
func (s *Stream) Head() string { return s.Events[len(s.Events)-1].Hash }
