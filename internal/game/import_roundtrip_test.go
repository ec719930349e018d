package game

import (
	"bytes"
	"path/filepath"
	"testing"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/group"
	"tappbook/internal/payee"
	"tappbook/internal/payout"
	"tappbook/internal/signing"
	"tappbook/internal/tapp"
)

// must fails the test on an error.
func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func nothing(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// everyKindOfEvening fills a store with an evening of each variant, using
// every command the app has (recorded whole and step by step, corrected,
// voided with the re-scoring it causes, closed and reopened, transfers marked and marks taken back, Herz-As said, withdrawn, answered
// in the tapp and mended, the Zwangsramsch, closed with a cut), and a
// group with members added, evenings and payments, one voided. It gives
// the ids to export: the games of no group and the group.
func everyKindOfEvening(t testing.TB, s *Service) []string {
	t.Helper()
	state := must[*tapp.State](t)
	hand := must[HandAnswer](t)
	three, four := []string{"Anna", "Ben", "Cleo"}, []string{"Anna", "Ben", "Cleo", "Dan"}

	z := state(s.Create(ctx, NewGame{Variant: "zuger", Players: four, Unit: "0.50", Currency: "CHF"}, ""))
	hand(s.Record(ctx, z.ID, payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(70), Tricks: ip(5)}, Checks{}, ""))
	hand(s.Record(ctx, z.ID, payout.Record{Contract: "pass"}, Checks{}, ""))
	hand(s.Record(ctx, z.ID, payout.Record{Contract: "tapp", Declarer: "Dan", Points: ip(60), Tricks: ip(4)}, Checks{}, ""))
	hand(s.Correct(ctx, z.ID, 1, payout.Record{Contract: "solo", Declarer: "Ben", Points: ip(100), Tricks: ip(7)}, "recounted", Checks{}, ""))
	nothing(t, s.Void(ctx, z.ID, 2, "misdeal", ""))
	state(s.SetPay(ctx, z.ID, "Ben", payee.Details{Name: "Ben Muster", IBAN: "CH93 0076 2011 6238 5295 7",
		Address: &payee.Address{Postcode: "8000", Town: "Zürich", Country: "CH"}}, ""))
	state(s.Close(ctx, z.ID, tapp.Close{}, ""))
	state(s.Reopen(ctx, z.ID, "deal 3 was counted wrong", ""))
	hand(s.Correct(ctx, z.ID, 3, payout.Record{Contract: "tapp", Declarer: "Dan", Points: ip(62), Tricks: ip(4)}, "recounted", Checks{}, ""))
	closed := state(s.Close(ctx, z.ID, tapp.Close{}, ""))
	payer := closed.Closed.Transfers[0].From
	state(s.MarkPaid(ctx, z.ID, 0, payer, ""))
	state(s.MarkConfirmed(ctx, z.ID, 0, closed.Closed.Transfers[0].To, ""))
	state(s.SetPay(ctx, z.ID, "Anna", payee.Details{PayPal: "anna"}, ""))
	// Reopened once more after a payment: the close after it carries it.
	state(s.Reopen(ctx, z.ID, "one more deal", ""))
	hand(s.Record(ctx, z.ID, payout.Record{Contract: "solo", Declarer: "Cleo", Points: ip(70), Tricks: ip(5)}, Checks{}, ""))
	if again := state(s.Close(ctx, z.ID, tapp.Close{}, "")); len(again.Closed.Paid) != 1 {
		t.Fatalf("the close after a payment carries %v", again.Closed.Paid)
	} else {
		// Marks taken back: the carried payment's arrival, and a sent
		// marked on this close.
		state(s.WithdrawMark(ctx, z.ID, 0, again.Closed.All()[0].To, true, "not on my account", ""))
		next := again.Closed.All()[1]
		state(s.MarkPaid(ctx, z.ID, 1, next.From, ""))
		state(s.WithdrawMark(ctx, z.ID, 1, next.From, false, "", ""))
	}

	o := state(s.Create(ctx, NewGame{Variant: "old-tapp", Players: three, Unit: "0.10", Currency: "SEK"}, ""))
	for _, r := range []payout.Record{
		{Contract: "coeurfrage", Declarer: "Ben", Points: ip(50), Tricks: ip(4)},
		{Contract: "solo", Declarer: "Cleo", Trump: "clubs", Points: ip(45), Tricks: ip(3)},
		{Contract: "pass"},
		{Contract: "coeursolo", Declarer: "Anna", Points: ip(80), Tricks: ip(7)},
		{Contract: "pass"}, // the pot holds a stake to cut for
	} {
		hand(s.Record(ctx, o.ID, r, Checks{}, ""))
	}
	hand(s.Correct(ctx, o.ID, 1, payout.Record{Contract: "coeurfrage", Declarer: "Ben", Points: ip(70), Tricks: ip(6)}, "recounted", Checks{}, ""))
	nothing(t, s.Void(ctx, o.ID, 2, "misdeal", ""))
	state(s.Close(ctx, o.ID, tapp.Close{RemainderTo: []string{"Cleo"}}, ""))

	m := state(s.Create(ctx, NewGame{Variant: "matzlfangen", Players: four}, ""))
	nothing(t, s.Announce(ctx, m.ID, payout.Record{Contract: "rufen", Partner: "Dan", Trump: payout.Hearts}, Checks{}, ""))
	nothing(t, s.Kontra(ctx, m.ID, 1, ""))
	nothing(t, s.Kontra(ctx, m.ID, 2, ""))
	nothing(t, s.Matzl(ctx, m.ID, payout.MatzlDeclarer, ""))
	hand(s.Count(ctx, m.ID, payout.Record{Points: ip(70), Tricks: ip(5)}, Checks{}, ""))
	nothing(t, s.Announce(ctx, m.ID, payout.Record{Contract: "durch", Declarer: "Cleo"}, Checks{}, ""))
	hand(s.Record(ctx, m.ID, payout.Record{Contract: "treiben", Declarer: "Dan", Trump: payout.Hearts, Points: ip(40), Tricks: ip(2)}, Checks{}, ""))

	w := state(s.Create(ctx, NewGame{Variant: "wuerttemberg", Players: four, Unit: "0.01", Currency: "EUR"}, ""))
	suit := func(who string) payout.Record {
		return payout.Record{Contract: "suit", Declarer: who, Trump: "clubs", Points: ip(70)}
	}
	rs := func(p, n int) payout.RamschScore { return payout.RamschScore{Points: ip(p), Tricks: ip(n)} }
	ramsch := payout.Record{Contract: "ramsch", Ramsch: map[string]payout.RamschScore{"Anna": rs(50, 3), "Ben": rs(40, 3), "Cleo": rs(30, 2), "Dan": rs(0, 0)}}
	hand(s.Record(ctx, w.ID, suit("Anna"), Checks{}, ""))
	state(s.AnnounceHerzAs(ctx, w.ID, ""))
	state(s.WithdrawHerzAs(ctx, w.ID, "said too soon", ""))
	hand(s.Record(ctx, w.ID, suit("Ben"), Checks{}, ""))
	state(s.AnnounceHerzAs(ctx, w.ID, ""))
	hand(s.Record(ctx, w.ID, suit("Cleo"), Checks{}, "")) // deal 3
	state(s.HerzAsHolder(ctx, w.ID, tapp.SayHerzAsHolder{InTapp: true}, ""))
	state(s.HerzAsHolder(ctx, w.ID, tapp.SayHerzAsHolder{Player: "Dan"}, ""))
	state(s.HerzAsHolder(ctx, w.ID, tapp.SayHerzAsHolder{Player: "Anna", Change: true}, ""))
	hand(s.Record(ctx, w.ID, suit("Dan"), Checks{}, ""))  // deal 4
	hand(s.Record(ctx, w.ID, suit("Anna"), Checks{}, "")) // deal 5, the last regular one
	for range 4 {
		hand(s.Record(ctx, w.ID, ramsch, Checks{}, ""))
	}
	hand(s.Correct(ctx, w.ID, 4, suit("Ben"), "Ben played it", Checks{}, ""))
	nothing(t, s.Void(ctx, w.ID, 9, "misdeal", ""))
	state(s.Close(ctx, w.ID, tapp.Close{}, ""))

	g := must[*group.State](t)(s.Groups().CreateGroup(ctx, group.Start{Name: "Thursday <table> & \"friends\"", Players: four[:2], Unit: "0.50", Currency: "CHF"}, ""))
	must[*group.State](t)(s.Groups().AddMembers(ctx, g.ID, []string{"Cleo"}, ""))
	e := state(s.Create(ctx, NewGame{Variant: "zuger", Players: four, Group: g.ID}, ""))
	hand(s.Record(ctx, e.ID, payout.Record{Contract: "super", Declarer: "Dan", Points: ip(75), Tricks: ip(6)}, Checks{}, ""))
	state(s.Close(ctx, e.ID, tapp.Close{}, ""))
	state(s.Again(ctx, e.ID, ""))                                                                                // never played on
	state(s.Create(ctx, NewGame{Variant: "old-tapp", Players: []string{"Eva", "Anna", "Ben"}, Group: g.ID}, "")) // members join with it
	must[group.PaymentRecorded](t)(s.Groups().RecordPayment(ctx, g.ID, group.RecordPayment{From: "Ben", To: "Anna", Amount: "1.50", Note: "at the bar"}, ""))
	must[group.PaymentRecorded](t)(s.Groups().RecordPayment(ctx, g.ID, group.RecordPayment{From: "Dan", To: "Cleo", Amount: "2"}, ""))
	nothing(t, s.Groups().VoidPayment(ctx, g.ID, 2, "never paid", ""))
	must[*group.State](t)(s.Groups().SetMemberPay(ctx, g.ID, "Cleo", payee.Details{Swish: "070-123 45 67"}, ""))
	must[group.PaymentRecorded](t)(s.Groups().RecordPayment(ctx, g.ID, group.RecordPayment{From: "Anna", To: "Cleo", Amount: "0.50", State: group.PaymentPaid}, ""))
	must[*group.State](t)(s.Groups().ConfirmPayment(ctx, g.ID, 3, "Cleo", ""))
	return []string{z.ID, o.ID, m.ID, w.ID, g.ID}
}

// Every export the app can produce imports into another database byte for
// byte: it exports there to the same file, so every event keeps its time
// and hash, and every stream its head and fingerprint. Decided again on
// the way in (checkRules), nothing tappbook wrote is refused.
func TestEveryExportImportsByteForByte(t *testing.T) {
	s, _ := newService(t)
	ids := everyKindOfEvening(t, s)
	dst, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "imported.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	key, err := signing.Generate("tappbook.example")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		var file bytes.Buffer
		if _, err := Export(ctx, s.Store(), id, key, &file); err != nil {
			t.Fatal(err)
		}
		im, err := ImportFile(ctx, dst, bytes.NewReader(file.Bytes()), key.VerifierKey())
		if err != nil {
			t.Fatalf("import %s: %v\n%s", id, err, file.Bytes())
		}
		if im.Signer == nil || !im.Signer.Trusted || im.Signer.Name != "tappbook.example" {
			t.Fatalf("import %s: signer %+v, want tappbook.example, trusted", id, im.Signer)
		}
		var again bytes.Buffer
		if _, err := Export(ctx, dst, id, key, &again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(file.Bytes(), again.Bytes()) {
			t.Fatalf("%s exports differently after the round trip:\n%s\n%s", id, file.Bytes(), again.Bytes())
		}
	}
	var streams []string
	if err := s.Store().ReplayAll(ctx, func(e events.Event, last bool) error {
		if last {
			streams = append(streams, e.Stream)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, id := range streams {
		a, _ := s.Store().ReadStream(ctx, id)
		b, _ := dst.ReadStream(ctx, id)
		if len(a) == 0 || len(b) != len(a) || events.Fingerprint(a[len(a)-1].Hash) != events.Fingerprint(b[len(b)-1].Hash) {
			t.Fatalf("stream %s: %d events here, %d imported, or another fingerprint", id, len(a), len(b))
		}
	}
	if rep, err := Audit(ctx, dst); err != nil || rep.Problem != "" || rep.Games != 7 || rep.Groups != 1 {
		t.Fatalf("audit of the import: %+v %v", rep, err)
	}
}
