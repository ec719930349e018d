package archive

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
)

func openStore(t testing.TB) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// idFrom is an id of the server's form made from n, for repeatable tests.
func idFrom(n byte) string {
	var b [16]byte
	for i := range b {
		b[i] = n + byte(i)
	}
	return strings.ToLower(idEncoding.EncodeToString(b[:]))
}

// sample appends a small stream (one command of two events among them, and
// text that JSON escapes) and gives its export.
func sample(t testing.TB, store *sqlite.Store, id string) []byte {
	t.Helper()
	ctx := context.Background()
	ev := func(n int) events.NewEvent {
		return events.NewEvent{Type: "test.happened", SchemaVersion: 1, Data: map[string]any{"n": n, "note": "<Anna> & \"Ben\"\n", "amount": fmt.Sprintf("%d.50", n)}}
	}
	for _, a := range []struct {
		from int64
		evs  []events.NewEvent
	}{{0, []events.NewEvent{ev(1)}}, {1, []events.NewEvent{ev(2), ev(3)}}, {3, []events.NewEvent{ev(4)}}} {
		if _, err := store.Append(ctx, id, a.from, events.Key{}, a.evs...); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if _, err := Export(ctx, store, id, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestValidID(t *testing.T) {
	for range 100 {
		var b [16]byte
		rand.Read(b[:])
		if id := strings.ToLower(idEncoding.EncodeToString(b[:])); !ValidID(id) {
			t.Fatalf("%s, made as the server makes ids, is refused", id)
		}
	}
	good := idFrom(1)
	for _, bad := range []string{"", "x", strings.ToUpper(good), good[:25], good + "a", good[:25] + "b", good[:25] + "1", "game-a", good[:24] + "é"} {
		if ValidID(bad) {
			t.Errorf("%q taken for an id", bad)
		}
	}
}

// An export read back and imported elsewhere is the same stream: the same
// events, times and hashes, and it exports to the same bytes.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	id := idFrom(7)
	file := sample(t, openStore(t), id)
	if n := bytes.Count(file, []byte("\n")); n != 5 {
		t.Fatalf("the export has %d lines, want 4 events and the end record:\n%s", n, file)
	}
	s, err := Read(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	dst := openStore(t)
	alias := idFrom(9)
	if err := Import(ctx, dst, s, []string{alias}); err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if _, err := Export(ctx, dst, id, &again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(file, again.Bytes()) {
		t.Fatalf("the round trip changed the export:\n%s\n%s", file, again.Bytes())
	}
	if got, _ := dst.Resolve(ctx, alias); got != id {
		t.Fatalf("the alias opens %q", got)
	}
	if rep, err := dst.Verify(ctx); err != nil || rep.Problem != nil || rep.Events != 4 {
		t.Fatalf("the imported store: %+v %v", rep, err)
	}
	if err := Import(ctx, dst, s, nil); err == nil || !strings.Contains(err.Error(), "already in this database") {
		t.Fatalf("a second import: %v", err)
	}
	if err := Import(ctx, openStore(t), s, []string{"x"}); err == nil || !strings.Contains(err.Error(), `alias "x"`) {
		t.Fatalf("an alias not of the server's form: %v", err)
	}
	if _, err := Export(ctx, dst, idFrom(3), &again); err != ErrNoStream {
		t.Fatalf("export of an unknown stream: %v", err)
	}
}

// Each fault is named with its line.
func TestReadRefuses(t *testing.T) {
	file := sample(t, openStore(t), idFrom(7))
	lines := strings.SplitAfter(string(file), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	join := func(ls ...string) string { return strings.Join(ls, "") }
	swap := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("%q is not in %s", old, s)
		}
		return strings.Replace(s, old, new, 1)
	}
	cases := []struct{ name, file, says string }{
		{"empty", "", "holds no events"},
		{"only the end record", lines[4], "line 1: the file holds no events before its end record"},
		{"cut inside a line", string(file[:len(file)-10]), "line 5: the line does not end with a newline"},
		{"cut after a line", join(lines[:3]...), "ends after 3 events without its end record"},
		{"a blank line", join(lines[0], "\n", lines[1]), "line 2: the line is empty"},
		{"CRLF", join(strings.ReplaceAll(join(lines...), "\n", "\r\n")), "line 1: not written as tappbook exports it"},
		{"a line dropped", join(lines[0], lines[2], lines[3], lines[4]), "line 2: version 3, expected 2"},
		{"lines swapped", join(lines[0], lines[2], lines[1], lines[3], lines[4]), "line 2: version 3, expected 2"},
		{"payload changed", join(lines[0], swap(lines[1], `2.50`, `9.50`), lines[2], lines[3], lines[4]), "line 2: the event does not match its hash"},
		{"time changed", swap(join(lines...), `"at":"2`, `"at":"1`), "line 1: the event does not match its hash"},
		{"hash missing", join(lines[0], lines[1], swapHash(lines[2], ""), lines[3], lines[4]), "line 3: no hash"},
		{"unknown field", swap(join(lines...), `{"stream"`, `{"x":1,"stream"`), `line 1: not an event as tappbook exports it: json: unknown field "x"`},
		{"batch made up", join(lines[0], lines[1], swap(lines[2], `"batch":2`, `"batch":1`), lines[3], lines[4]), "line 3: batch 1, expected 3 (a new command) or 2"},
		{"two ends", join(join(lines...), lines[4]), "line 6: the end record must be the last line"},
		{"end count", join(join(lines[:4]...), swap(lines[4], `"events":4`, `"events":3`)), "line 5: the end record says 3 events, but the file holds 4"},
		{"end head", join(join(lines[:4]...), swapHash(lines[4], strings.Repeat("0", 64))), "line 5: the end record's head"},
		{"another stream", join(lines[0], swap(lines[1], idFrom(7), idFrom(8)), lines[2], lines[3], lines[4]), "line 2: the event belongs to stream"},
		{"guessable stream", join(strings.ReplaceAll(join(lines...), idFrom(7), "x")), `line 1: the stream id "x" is not one tappbook makes`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.file))
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Read: %v, want %q", err, c.says)
			}
		})
	}
}

// swapHash replaces the hash a line ends with ("hash" or "head").
func swapHash(line, hash string) string {
	i := strings.LastIndex(line, `":"`)
	return line[:i+3] + hash + `"}` + strings.Repeat("}", strings.Count(line[i:], "}")-1) + "\n"
}

// Any input either imports a stream that verifies and exports to the same
// bytes, or is refused with nothing written.
func FuzzImport(f *testing.F) {
	ctx := context.Background()
	file := sample(f, openStore(f), idFrom(7))
	f.Add(file)
	f.Add(file[:len(file)/2])
	f.Add(bytes.Replace(file, []byte(`"n":2`), []byte(`"n":5`), 1))
	f.Add(bytes.ReplaceAll(file, []byte(idFrom(7)), []byte("x")))
	f.Add([]byte(`{"end":{"stream":"","events":0,"head":""}}` + "\n"))
	f.Add([]byte{})
	store := openStore(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		before, err := store.Verify(ctx)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Read(bytes.NewReader(data))
		if err == nil {
			err = Import(ctx, store, s, nil)
		}
		after, verr := store.Verify(ctx)
		if verr != nil || after.Problem != nil {
			t.Fatalf("the store no longer verifies: %+v %v", after, verr)
		}
		if err != nil {
			if after.Events != before.Events || after.Streams != before.Streams {
				t.Fatalf("a refused input (%v) wrote: %+v, then %+v", err, before, after)
			}
			return
		}
		var out bytes.Buffer
		if _, err := Export(ctx, store, s.ID, &out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("imported, but exports differently:\n%q\n%q", data, out.Bytes())
		}
	})
}

// Several streams, each whole with its end record, read back as they were
// written; a stream cut from the middle of such a file is refused, and
// Read, which takes one game, refuses a file of several.
func TestReadAllStreams(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	a, b := idFrom(7), idFrom(8)
	sample(t, store, a)
	sample(t, store, b)
	var buf bytes.Buffer
	n, err := ExportAll(ctx, store, []string{a, b}, nil, &buf)
	if err != nil || n != 8 {
		t.Fatalf("ExportAll: %d, %v", n, err)
	}
	all, err := ReadAll(bytes.NewReader(buf.Bytes()))
	if err != nil || len(all) != 2 || all[0].ID != a || all[1].ID != b || len(all[1].Events) != 4 {
		t.Fatalf("ReadAll: %v, %v", all, err)
	}
	if _, err := Read(bytes.NewReader(buf.Bytes())); err == nil || !strings.Contains(err.Error(), "holds 2 streams") {
		t.Fatalf("Read of two streams: %v", err)
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	cut := strings.Join(append(append([]string{}, lines[:5]...), lines[6:]...), "") // b's first event gone
	if _, err := ReadAll(strings.NewReader(cut)); err == nil || !strings.Contains(err.Error(), "line 6") {
		t.Fatalf("a stream missing its first event: %v", err)
	}
}
