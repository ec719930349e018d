package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// exportLine is one event of an export file, in the exporter's field order.
type exportLine struct {
	Stream        string          `json:"stream"`
	Version       int64           `json:"version"`
	Batch         int64           `json:"batch"`
	Type          string          `json:"type"`
	SchemaVersion int             `json:"schema_version"`
	At            string          `json:"at"`
	Data          json.RawMessage `json:"data"`
	Hash          string          `json:"hash"`
}

// exportEnd is the export's last line.
type exportEnd struct {
	End struct {
		Stream string `json:"stream"`
		Events int    `json:"events"`
		Head   string `json:"head"`
	} `json:"end"`
}

// readExport splits an export into its event lines (the end record, if
// any, is dropped).
func readExport(t *testing.T, data []byte) []exportLine {
	t.Helper()
	var out []exportLine
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if bytes.HasPrefix(l, []byte(`{"end"`)) {
			continue
		}
		var x exportLine
		if err := json.Unmarshal(l, &x); err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}

// chainHash is the store's hash of an event, written out again here so
// that the test forges files the way someone outside the code would.
func chainHash(prev string, x exportLine) string {
	h := sha256.New()
	for _, part := range []string{prev, x.Stream, strconv.FormatInt(x.Version, 10), x.Type, strconv.Itoa(x.SchemaVersion), x.At, string(x.Data)} {
		fmt.Fprintf(h, "%d:%s;", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeExport writes lines as the exporter does; with rehash, every hash is
// computed afresh and an end record added, as a careful forger would.
func writeExport(t *testing.T, lines []exportLine, rehash bool) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	prev := ""
	for _, x := range lines {
		if rehash {
			x.Hash = chainHash(prev, x)
			prev = x.Hash
		}
		if err := enc.Encode(x); err != nil {
			t.Fatal(err)
		}
	}
	if rehash {
		var end exportEnd
		end.End.Stream, end.End.Events, end.End.Head = lines[0].Stream, len(lines), prev
		if err := enc.Encode(end); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// withoutEnd drops an export's last line, its end record.
func withoutEnd(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return b[:bytes.LastIndexByte(b, '\n')+1]
}

// setJSON changes one field of an event's payload.
func setJSON(t *testing.T, data json.RawMessage, path []string, value any) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	inner := m
	for _, k := range path[:len(path)-1] {
		inner = inner[k].(map[string]any)
	}
	inner[path[len(path)-1]] = value
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Import takes only a whole export as tappbook wrote it: a file whose
// hashes were blanked or re-computed after an edit, cut short, or naming a
// stream or read-only link the server would never make is refused with
// what is wrong, and nothing is written: not even an empty database file.
func TestImportRefusesWhatExportDidNotWrite(t *testing.T) {
	ctx := context.Background()
	_, id, file := exportedEvening(t)
	var so, se bytes.Buffer
	exported, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := readExport(t, exported)
	// A void keeps the old-tapp stake in the pot now: it re-scores
	// nothing, and the evening has one event fewer than it had.
	if len(lines) != 9 {
		t.Fatalf("the evening exported %d events, want 9", len(lines))
	}
	// edit gives a copy of the lines with fn applied to the one of version v.
	edit := func(v int64, fn func(x *exportLine)) []exportLine {
		out := append([]exportLine(nil), lines...)
		for i := range out {
			if out[i].Version == v {
				fn(&out[i])
			}
		}
		return out
	}
	blank := func(ls []exportLine) []exportLine {
		for i := range ls {
			ls[i].Hash = ""
		}
		return ls
	}
	allStreams := func(stream string) []exportLine {
		out := append([]exportLine(nil), lines...)
		for i := range out {
			out[i].Stream = stream
		}
		return out
	}
	cases := []struct {
		name string
		file []byte
		says string
	}{
		{"hashes blanked", writeExport(t, blank(append([]exportLine(nil), lines...)), false), "line 1: no hash"},
		{"hashes blanked, deal 4 won by another", writeExport(t, blank(edit(5, func(x *exportLine) {
			x.Data = setJSON(t, x.Data, []string{"record", "declarer"}, "Ben")
		})), false), "line 1: no hash"},
		{"hashes blanked, Anna given 500 units", writeExport(t, blank(edit(2, func(x *exportLine) {
			x.Data = setJSON(t, x.Data, []string{"deltas", "Anna"}, "500")
		})), false), "line 1: no hash"},
		{"one hash blanked", writeExport(t, edit(5, func(x *exportLine) { x.Hash = "" }), false), "line 5: no hash"},
		{"cut after 4 events", writeExport(t, lines[:4], false), "ends after 4 events without its end record"},
		{"changed, hashes re-computed, no end record", withoutEnd(writeExport(t, edit(5, func(x *exportLine) {
			x.Data = setJSON(t, x.Data, []string{"record", "declarer"}, "Ben")
		}), true)), "ends after 9 events without its end record"},
		{"stream id x", writeExport(t, allStreams("x"), true), `line 1: the stream id "x" is not one tappbook makes`},
		{"empty stream id", writeExport(t, allStreams(""), true), `line 1: the stream id "" is not one tappbook makes`},
		{"upper-case stream id", writeExport(t, allStreams(strings.ToUpper(id)), true), "is not one tappbook makes"},
		{"read-only id x", writeExport(t, edit(1, func(x *exportLine) {
			x.Data = setJSON(t, x.Data, []string{"read_id"}, "x")
		}), true), `read-only id "x" is not one tappbook makes`},
		{"end record counts one event more", bytes.Replace(exported, []byte(`"events":9`), []byte(`"events":10`), 1), "the end record says 10 events, but the file holds 9"},
		{"a line after the end record", append(append([]byte(nil), exported...), exported[:bytes.IndexByte(exported, '\n')+1]...), "line 11: after the end record of stream"},
		{"empty file", nil, "holds no events"},
		{"not JSON", []byte("hello\n"), "line 1: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "edited.jsonl")
			if err := os.WriteFile(in, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(t.TempDir(), "dst.db")
			err := run(ctx, []string{"import", "--db", dst, in}, &so, &se)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("import: %v, want a refusal saying %q", err, c.says)
			}
			if entries, _ := os.ReadDir(filepath.Dir(dst)); len(entries) != 0 {
				t.Fatalf("a refused import left %v behind", entries)
			}
		})
	}

	// A refused import into an existing database writes nothing there.
	dst := filepath.Join(t.TempDir(), "dst.db")
	evening(t, dst)
	before, _ := verifyOut(t, dst)
	in := filepath.Join(t.TempDir(), "blank.jsonl")
	os.WriteFile(in, writeExport(t, blank(append([]exportLine(nil), lines...)), false), 0o644)
	if err := run(ctx, []string{"import", "--db", dst, in}, &so, &se); err == nil {
		t.Fatal("an export with blank hashes was imported")
	}
	if after, _ := verifyOut(t, dst); after != before {
		t.Fatalf("a refused import changed the database: %q, then %q", before, after)
	}
}

// Importing an evening already in the database says whether it is the same
// history (nothing to import) or another one: the first is not a conflict
// to worry about.
func TestImportTwice(t *testing.T) {
	ctx := context.Background()
	_, _, file := exportedEvening(t)
	var so, se bytes.Buffer
	dst := filepath.Join(t.TempDir(), "dst.db")
	if err := run(ctx, []string{"import", "--db", dst, file}, &so, &se); err != nil {
		t.Fatalf("first import: %v %s", err, se.String())
	}
	err := run(ctx, []string{"import", "--db", dst, file}, &so, &se)
	if err == nil || !strings.Contains(err.Error(), "with the same events: there is nothing to import") {
		t.Fatalf("the same file again: %v", err)
	}
	exported, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := readExport(t, exported)
	other := filepath.Join(t.TempDir(), "shorter.jsonl")
	last := len(lines) - 1 // the last command, whole (a void with the re-scoring it causes)
	for last > 0 && lines[last-1].Batch == lines[len(lines)-1].Batch {
		last--
	}
	if err := os.WriteFile(other, writeExport(t, lines[:last], true), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(ctx, []string{"import", "--db", dst, other}, &so, &se); err == nil || !strings.Contains(err.Error(), "with other events") {
		t.Fatalf("another history of the same evening: %v", err)
	}
}

// exportedEvening is an evening in a database of its own, exported to a
// file as `tappbook export` writes it.
func exportedEvening(t *testing.T) (db, id, file string) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "src.db")
	id = evening(t, db)
	file = filepath.Join(t.TempDir(), "game.jsonl")
	var so, se bytes.Buffer
	if err := run(context.Background(), []string{"export", id, "--db", db, "--out", file}, &so, &se); err != nil {
		t.Fatalf("export: %v %s", err, se.String())
	}
	return db, id, file
}
