package game

import (
	"bytes"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/memory"
	"tappbook/internal/signing"
)

// Any file either is refused with nothing written, or is imported and
// exports again byte for byte (signature included where the key is this
// server's; the events where it is foreign) into a store that still
// audits clean: through the reading, the signature, and every rule an
// import decides again (checkRules, checkBelongs). Seeded with a real
// export of every kind of evening, signed and not.
func FuzzImportExport(f *testing.F) {
	s, _ := newService(f)
	key, err := signing.Generate("fuzz.example")
	if err != nil {
		f.Fatal(err)
	}
	for i, id := range everyKindOfEvening(f, s) {
		var signed, plain bytes.Buffer
		if _, err := Export(ctx, s.Store(), id, key, &signed); err != nil {
			f.Fatal(err)
		}
		if _, err := Export(ctx, s.Store(), id, nil, &plain); err != nil {
			f.Fatal(err)
		}
		if i%2 == 0 {
			f.Add(signed.Bytes())
		} else {
			f.Add(plain.Bytes())
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		store := memory.New()
		im, err := ImportFile(ctx, store, bytes.NewReader(data), key.VerifierKey())
		if err != nil {
			n := 0
			if rerr := store.ReplayAll(ctx, func(events.Event, bool) error { n++; return nil }); rerr != nil || n != 0 {
				t.Fatalf("a refused file (%v) wrote %d events (%v)", err, n, rerr)
			}
			return
		}
		var with *signing.Key
		want := data
		switch {
		case im.Signer != nil && im.Signer.Trusted:
			with = key
		case im.Signer != nil: // foreign: the events are the file's
			want = data[:bytes.Index(data, []byte("tappbook export v1\n"))]
		}
		var out bytes.Buffer
		if _, err := Export(ctx, store, im.ID, with, &out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("imported, but exports differently:\n%q\n%q", want, out.Bytes())
		}
		if rep, err := Audit(ctx, store); err != nil || rep.Problem != "" {
			t.Fatalf("imported, but the store does not audit: %+v %v", rep, err)
		}
	})
}
