package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"tappbook/internal/events"
)

// MaxFile bounds an export file: far above the longest evening (a
// 6,000-deal game exports about 15 MB), far below what would exhaust a
// small machine's memory.
const MaxFile = 256 << 20

// FormatError is an export file refused: the line at fault (0 for the file
// as a whole) and what is wrong with it.
type FormatError struct {
	Line    int
	Problem string
}

func (e *FormatError) Error() string {
	if e.Line == 0 {
		return e.Problem
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Problem)
}

func refuse(line int, format string, args ...any) error {
	return &FormatError{Line: line, Problem: fmt.Sprintf(format, args...)}
}

// Read reads one stream from an export and checks that it is whole and
// self-consistent (see the package comment). It writes nothing anywhere;
// any fault is a *FormatError naming the line.
func Read(r io.Reader) (*Stream, error) {
	all, err := ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(all) > 1 {
		return nil, refuse(0, "the file holds %d streams (a group with its evenings), not one game", len(all))
	}
	return all[0], nil
}

// ReadAll reads an export of one or more streams, each whole with its end
// record (a group is exported with its evenings), and checks every one; a
// signed note that ends the file must name them (ReadFile), and its
// signature is not checked here.
func ReadAll(r io.Reader) ([]*Stream, error) {
	f, err := ReadFile(r)
	if err != nil {
		return nil, err
	}
	return f.Streams, nil
}

// CheckSize refuses a file of n bytes that is larger than any export: a
// caller that knows the size asks before reading it.
func CheckSize(n int64) error {
	if n > MaxFile {
		return refuse(0, "the file is larger than %d MiB, more than any export tappbook writes", MaxFile>>20)
	}
	return nil
}

// ReadFile reads an export as ReadAll does, with the signed note that ends
// it where there is one (File.Signer checks its signature).
func ReadFile(r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFile+1))
	if err != nil {
		return nil, fmt.Errorf("read the export: %w", err)
	}
	if err := CheckSize(int64(len(data))); err != nil {
		return nil, err
	}
	var out []*Stream
	var seal []byte
	sealAt, whole := 0, data
	c := checker{start: 1}
	for n := 1; len(data) > 0; n++ {
		if len(c.s.Events) == 0 && len(out) > 0 && bytes.HasPrefix(data, []byte(sealHeader+"\n")) {
			seal, sealAt = data, n // the signed note ends the file
			break
		}
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil, refuse(n, "the line does not end with a newline: the file was cut short")
		}
		if err := c.line(n, data[:i]); err != nil {
			return nil, err
		}
		if c.ended {
			s := c.s
			out = append(out, &s)
			c = checker{start: n + 1}
		}
		data = data[i+1:]
	}
	if len(c.s.Events) > 0 && len(out) > 0 {
		return nil, refuse(c.start, "after the end record of stream %s, another stream begins and ends without its own: the file was cut short or put together by hand", out[len(out)-1].ID)
	}
	if len(c.s.Events) > 0 {
		return nil, refuse(0, "the file ends after %d events without its end record: it was cut short or put together by hand", len(c.s.Events))
	}
	if len(out) == 0 {
		return nil, refuse(0, "the file holds no events: it is not a tappbook export")
	}
	seen := map[string]bool{}
	for _, s := range out {
		if seen[s.ID] {
			return nil, refuse(0, "stream %s is in the file twice", s.ID)
		}
		seen[s.ID] = true
	}
	if seal != nil {
		if err := checkSeal(sealAt, seal, whole[:len(whole)-len(seal)], out); err != nil {
			return nil, err
		}
	}
	return &File{Streams: out, Seal: seal, sealAt: sealAt}, nil
}

// checker follows one stream of the file line by line, from line start.
type checker struct {
	s     Stream
	start int
	ended bool
}

func (c *checker) line(n int, b []byte) error {
	if c.ended {
		return refuse(n, "the end record must be the last line, and this line follows it")
	}
	if len(b) == 0 {
		return refuse(n, "the line is empty")
	}
	if bytes.HasPrefix(b, []byte(`{"end":`)) {
		return c.end(n, b)
	}
	return c.event(n, b)
}

// event checks an event line against the one before it and adds it.
func (c *checker) event(n int, b []byte) error {
	var x line
	if err := strict(b, &x); err != nil {
		return refuse(n, "not an event as tappbook exports it: %v", err)
	}
	v := n - c.start + 1 // the version this line must have
	switch {
	case v == 1 && !ValidID(x.Stream):
		return refuse(n, "the stream id %q is not one tappbook makes (26 characters a–z, 2–7: 128 random bits)", x.Stream)
	case v > 1 && x.Stream != c.s.ID:
		return refuse(n, "the event belongs to stream %q, but line %d to %q: a stream ends with its end record before the next begins", x.Stream, c.start, c.s.ID)
	case x.Version != int64(v):
		return refuse(n, "version %d, expected %d: events run 1, 2, 3, … without a gap", x.Version, v)
	case x.Type == "":
		return refuse(n, "the event has no type")
	case x.SchemaVersion < 1:
		return refuse(n, "schema_version %d, expected 1 or more", x.SchemaVersion)
	case x.At.IsZero():
		return refuse(n, "the event has no time (at)")
	case len(x.Data) == 0:
		return refuse(n, "the event has no data")
	case x.Hash == "":
		return refuse(n, "no hash: every event must carry the hash it was exported with")
	}
	prev := events.Event{}
	if v > 1 {
		prev = c.s.Events[v-2]
	}
	// A command's events share the version of its first as their batch.
	if x.Batch != x.Version && (v == 1 || x.Batch != prev.Batch) {
		return refuse(n, "batch %d, expected %d (a new command) or %d (the command of line %d)", x.Batch, x.Version, prev.Batch, n-1)
	}
	ev := events.Event{Stream: x.Stream, Version: x.Version, Batch: x.Batch, Type: x.Type,
		SchemaVersion: x.SchemaVersion, Data: x.Data, RecordedAt: x.At.UTC(), PrevHash: prev.Hash}
	if ev.Hash = ev.ComputeHash(); ev.Hash != x.Hash {
		return refuse(n, "the event does not match its hash: the file was changed after export")
	}
	if err := canonical(b, lineOf(ev)); err != nil {
		return refuse(n, "%v", err)
	}
	if v == 1 {
		c.s.ID = x.Stream
	}
	c.s.Events = append(c.s.Events, ev)
	return nil
}

// end checks the end record against the events before it.
func (c *checker) end(n int, b []byte) error {
	var x endLine
	if err := strict(b, &x); err != nil || x.End == nil {
		return refuse(n, "not an end record as tappbook writes it: %v", err)
	}
	e := x.End
	switch {
	case len(c.s.Events) == 0 && c.start > 1:
		return refuse(n, "the end record must be the last line of its stream, and this line follows another end record")
	case len(c.s.Events) == 0:
		return refuse(n, "the file holds no events before its end record")
	case e.Stream != c.s.ID:
		return refuse(n, "the end record names stream %q, but the events are of %q", e.Stream, c.s.ID)
	case e.Events != len(c.s.Events):
		return refuse(n, "the end record says %d events, but the file holds %d: events were added or removed", e.Events, len(c.s.Events))
	case e.Head != c.s.Head():
		return refuse(n, "the end record's head %q is not the last event's hash %q", e.Head, c.s.Head())
	}
	if err := canonical(b, x); err != nil {
		return refuse(n, "%v", err)
	}
	c.ended = true
	return nil
}

// strict decodes one JSON value with no unknown fields and nothing after it.
func strict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value on the line")
	}
	return nil
}

// canonical checks that a line is byte for byte what Export writes for
// what it says, so that an imported stream exports to the same file.
func canonical(b []byte, v any) error {
	want, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("the line cannot be written again: %v", err)
	}
	if !bytes.Equal(b, want) {
		return errors.New("not written as tappbook exports it (the same fields in the same order, compact JSON, times in UTC)")
	}
	return nil
}
