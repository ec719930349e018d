package group

import (
	"strings"
	"testing"

	"tappbook/internal/problem"
)

func TestStartAGroup(t *testing.T) {
	g := given(t).when(Start{ID: "grp1", ReadID: "rgrp1", Name: " Thursday table ", Players: []string{"Anna", "Ben"}, Unit: "0.50", Currency: "chf"}).
		then(Started{Name: "Thursday table", Unit: "0.50", Currency: "CHF", ReadID: "rgrp1"}, MemberAdded{Name: "Anna"}, MemberAdded{Name: "Ben"})
	if g.Name != "Thursday table" || g.UnitText != "0.50" || !g.Unit.Equal(d("0.5")) || g.Currency != "CHF" || g.ReadID != "rgrp1" {
		t.Fatalf("group %+v", g)
	}
	if got := strings.Join(g.MemberNames(), ","); got != "Anna,Ben" {
		t.Fatalf("members %s", got)
	}
	if g.Places() != 2 {
		t.Fatalf("places %d", g.Places())
	}
}

func TestStartWithNoPlayersAndDefaults(t *testing.T) {
	g := given(t).when(Start{ID: "grp1", Name: "Sunday"}).then(Started{Name: "Sunday", Unit: "1", Currency: ""})
	if len(g.Members()) != 0 || g.Places() != 0 {
		t.Fatalf("members %v, places %d", g.Members(), g.Places())
	}
}

func TestStartRefusals(t *testing.T) {
	for _, c := range []struct {
		name        string
		cmd         Start
		code, field string
	}{
		{"no name", Start{Name: "  "}, "group.name-missing", "name"},
		{"a name with a line break", Start{Name: "Thursday\ntable"}, "text.control", "name"},
		{"a unit of zero", Start{Name: "x", Unit: "0"}, "unit", "unit"},
		{"a unit finer than the currency", Start{Name: "x", Unit: "0.125", Currency: "CHF"}, "unit.places", "unit"},
		{"a unit that is no number", Start{Name: "x", Unit: "two"}, "amount.syntax", "unit"},
		{"a currency that is no code", Start{Name: "x", Currency: "francs"}, "currency", "currency"},
		{"a player named twice", Start{Name: "x", Players: []string{"Anna", "Anna"}}, "players.twice", "players"},
		{"two spellings of one player", Start{Name: "x", Players: []string{"Anna", "anna"}}, "players.same", "players"},
		{"an empty name", Start{Name: "x", Players: []string{"Anna", ""}}, "players.empty", "players"},
		{"a name too long", Start{Name: "x", Players: []string{strings.Repeat("a", 41)}}, "players.long", "players"},
		{"a name with a zero-width space", Start{Name: "x", Players: []string{"An\u200bna"}}, "players.invisible", "players"},
	} {
		t.Run(c.name, func(t *testing.T) {
			given(t).when(c.cmd).thenErr(problem.Input, c.code, c.field)
		})
	}
}

func TestCommandsOnAGroupNotStarted(t *testing.T) {
	given(t).when(RecordPayment{From: "Anna", To: "Ben", Amount: "1"}).thenErr(problem.NotFound, "notfound.group", "")
	given(t).when(AddMembers{Players: []string{"Anna"}}).thenErr(problem.NotFound, "notfound.group", "")
}

func TestAddMembers(t *testing.T) {
	sc := thursday(t)
	// Those who are members already are left as they are.
	sc.when(AddMembers{Players: []string{"Anna", "Eva"}}).then(MemberAdded{Name: "Eva"})
	sc.when(AddMembers{Players: []string{"Anna", "Ben"}}).then()
	// One person never becomes two members.
	sc.when(AddMembers{Players: []string{"anna"}}).thenErr(problem.Input, "member.spelled", "players")
	sc.when(AddMembers{Players: []string{"Eva", "eva"}}).thenErr(problem.Input, "players.same", "players")
}

func TestJoinAnEvening(t *testing.T) {
	sc := thursday(t)
	g := sc.when(JoinEvening{Game: "game1", ReadID: "rgame1", Players: []string{"Ben", "Cleo", "Eva"}, Unit: "0.5", Currency: "CHF"}).
		then(MemberAdded{Name: "Eva"}, EveningJoined{Game: "game1", ReadID: "rgame1"})
	if ev, ok := g.Evening("game1"); !ok || ev.ReadID != "rgame1" || !ev.At.Equal(at) {
		t.Fatalf("evening %+v %v", ev, ok)
	}
	if !g.IsMember("Eva") {
		t.Fatal("Eva did not become a member")
	}
}

func TestJoinRefusals(t *testing.T) {
	sc := thursday(t).and(JoinEvening{Game: "game1", ReadID: "r1", Players: []string{"Anna", "Ben", "Cleo"}, Unit: "0.50", Currency: "CHF"})
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	sc.when(JoinEvening{Game: "game1", Players: four, Unit: "0.50", Currency: "CHF"}).thenErr(problem.Conflict, "conflict.evening-joined", "")
	sc.when(JoinEvening{Game: "game2", Players: four, Unit: "1", Currency: "CHF"}).thenErr(problem.Input, "evening.unit", "unit")
	sc.when(JoinEvening{Game: "game2", Players: four, Unit: "0.50", Currency: "EUR"}).thenErr(problem.Input, "evening.currency", "currency")
	sc.when(JoinEvening{Game: "game2", Players: []string{"anna", "Ben", "Cleo"}, Unit: "0.50", Currency: "CHF"}).thenErr(problem.Input, "member.spelled", "players")
	given(t, Started{Name: "no money", Unit: "1"}).
		when(JoinEvening{Game: "game2", Players: four, Unit: "1", Currency: "SEK"}).thenErr(problem.Input, "evening.no-currency", "currency")
}

func TestRecordAPayment(t *testing.T) {
	sc := thursday(t)
	g := sc.when(RecordPayment{From: "Ben", To: "Anna", Amount: "3.50", Note: " cash "}).
		then(PaymentRecorded{Payment: 1, From: "Ben", To: "Anna", Amount: d("3.50"), Note: "cash"})
	sc.state = g
	// A payment larger than anything owed is allowed: it turns into credit.
	sc.when(RecordPayment{From: "Cleo", To: "Dan", Amount: "1000"}).then(PaymentRecorded{Payment: 2, From: "Cleo", To: "Dan", Amount: d("1000")})
	// Trailing zeros are the same amount.
	sc.when(RecordPayment{From: "Cleo", To: "Dan", Amount: "0.050"}).then(PaymentRecorded{Payment: 2, From: "Cleo", To: "Dan", Amount: d("0.05")})
	if p := g.Payment(1); p == nil || p.From != "Ben" || !p.Amount.Equal(d("3.5")) || p.Note != "cash" || p.Voided {
		t.Fatalf("payment %+v", p)
	}
}

func TestPaymentRefusals(t *testing.T) {
	for _, c := range []struct {
		name        string
		cmd         RecordPayment
		code, field string
	}{
		{"from a non-member", RecordPayment{From: "Zoe", To: "Anna", Amount: "1"}, "payment.not-member", "from"},
		{"to a non-member", RecordPayment{From: "Anna", To: "Zoe", Amount: "1"}, "payment.not-member", "to"},
		{"to a member spelled otherwise", RecordPayment{From: "Anna", To: "ben", Amount: "1"}, "payment.not-member", "to"},
		{"from nobody", RecordPayment{To: "Anna", Amount: "1"}, "payment.from-missing", "from"},
		{"to nobody", RecordPayment{From: "Anna", Amount: "1"}, "payment.to-missing", "to"},
		{"to oneself", RecordPayment{From: "Anna", To: "Anna", Amount: "1"}, "payment.self", "to"},
		{"of zero", RecordPayment{From: "Ben", To: "Anna", Amount: "0.00"}, "payment.amount-positive", "amount"},
		{"negative", RecordPayment{From: "Ben", To: "Anna", Amount: "-3.50"}, "payment.amount-positive", "amount"},
		{"with no amount", RecordPayment{From: "Ben", To: "Anna"}, "payment.amount-missing", "amount"},
		{"more places than francs have", RecordPayment{From: "Ben", To: "Anna", Amount: "3.505"}, "payment.places", "amount"},
		{"with a space before it", RecordPayment{From: "Ben", To: "Anna", Amount: " 1"}, "amount.syntax", "amount"},
		{"with a tab after it", RecordPayment{From: "Ben", To: "Anna", Amount: "1\t"}, "amount.syntax", "amount"},
		{"no number", RecordPayment{From: "Ben", To: "Anna", Amount: "3,50"}, "amount.syntax", "amount"},
		{"with an exponent", RecordPayment{From: "Ben", To: "Anna", Amount: "1e3"}, "amount.exponent", "amount"},
		{"a note with a right-to-left override", RecordPayment{From: "Ben", To: "Anna", Amount: "1", Note: "cash \u202e"}, "text.bidi", "note"},
	} {
		t.Run(c.name, func(t *testing.T) {
			thursday(t).when(c.cmd).thenErr(problem.Input, c.code, c.field)
		})
	}
	given(t, Started{Name: "empty", Unit: "1"}).when(RecordPayment{From: "Anna", To: "Ben", Amount: "1"}).
		thenErr(problem.Input, "payment.no-members", "from")
}

// A group with no currency keeps the places of its unit, as its games show
// their money.
func TestPaymentPlacesFollowTheUnit(t *testing.T) {
	sc := given(t, Started{Name: "x", Unit: "0.25"}, MemberAdded{Name: "Anna"}, MemberAdded{Name: "Ben"})
	sc.when(RecordPayment{From: "Ben", To: "Anna", Amount: "0.75"}).then(PaymentRecorded{Payment: 1, From: "Ben", To: "Anna", Amount: d("0.75")})
	sc.when(RecordPayment{From: "Ben", To: "Anna", Amount: "0.125"}).thenErr(problem.Input, "payment.places", "amount")
	kr := given(t, Started{Name: "x", Unit: "1", Currency: "JPY"}, MemberAdded{Name: "Anna"}, MemberAdded{Name: "Ben"})
	kr.when(RecordPayment{From: "Ben", To: "Anna", Amount: "0.5"}).thenErr(problem.Input, "payment.places", "amount")
	// With a currency, its places (api.md: more places than the currency has
	// → 422), however many zeros the unit was written with; a unit stored
	// finer than its currency before such units were refused owes in its
	// own places.
	for _, c := range []struct {
		unit, currency, amount string
		ok                     bool
	}{
		{"0.500", "CHF", "0.125", false}, {"0.500", "CHF", "0.13", true}, {"1.0", "JPY", "0.5", false}, {"1.0", "JPY", "5", true},
		{"0.125", "CHF", "0.125", true}, {"0.125", "CHF", "0.0625", false},
	} {
		g := given(t, Started{Name: "x", Unit: c.unit, Currency: c.currency}, MemberAdded{Name: "Anna"}, MemberAdded{Name: "Ben"})
		if c.ok {
			g.when(RecordPayment{From: "Ben", To: "Anna", Amount: c.amount}).then(PaymentRecorded{Payment: 1, From: "Ben", To: "Anna", Amount: d(c.amount)})
		} else {
			g.when(RecordPayment{From: "Ben", To: "Anna", Amount: c.amount}).thenErr(problem.Input, "payment.places", "amount")
		}
	}
}

func TestVoidAPayment(t *testing.T) {
	sc := thursday(t).and(RecordPayment{From: "Ben", To: "Anna", Amount: "3.50"})
	g := sc.when(VoidPayment{Payment: 1, Reason: "paid twice by mistake"}).then(PaymentVoided{Payment: 1, Reason: "paid twice by mistake"})
	if p := g.Payment(1); !p.Voided || p.VoidReason != "paid twice by mistake" {
		t.Fatalf("payment %+v", p)
	}
	// The snapshot before the void still reads the payment as it was.
	if sc.state.Payment(1).Voided {
		t.Fatal("voiding changed an older snapshot")
	}
}

func TestVoidRefusals(t *testing.T) {
	sc := thursday(t).and(RecordPayment{From: "Ben", To: "Anna", Amount: "3.50"})
	sc.when(VoidPayment{Payment: 2, Reason: "x"}).thenErr(problem.NotFound, "notfound.payment", "")
	sc.when(VoidPayment{Payment: 0, Reason: "x"}).thenErr(problem.NotFound, "notfound.payment", "")
	sc.when(VoidPayment{Payment: 1, Reason: "  "}).thenErr(problem.Input, "payment.void-reason", "reason")
	sc.when(VoidPayment{Payment: 1, Reason: "a\tb"}).thenErr(problem.Input, "text.control", "reason")
	sc.and(VoidPayment{Payment: 1, Reason: "mistake"})
	sc.when(VoidPayment{Payment: 1, Reason: "again"}).thenErr(problem.Conflict, "conflict.payment-voided", "")
}

// The fold refuses a history that does not add up, whoever wrote it.
func TestFoldRefusesWhatDoesNotAddUp(t *testing.T) {
	base := []Payload{Started{Name: "x", Unit: "1"}, MemberAdded{Name: "Anna"}, MemberAdded{Name: "Ben"}}
	for _, c := range []struct {
		name string
		bad  Payload
	}{
		{"a member twice", MemberAdded{Name: "anna"}},
		{"a payment out of turn", PaymentRecorded{Payment: 2, From: "Anna", To: "Ben", Amount: d("1")}},
		{"a payment from a non-member", PaymentRecorded{Payment: 1, From: "Zoe", To: "Ben", Amount: d("1")}},
		{"a payment of nothing", PaymentRecorded{Payment: 1, From: "Anna", To: "Ben", Amount: d("0")}},
		{"a void of no payment", PaymentVoided{Payment: 1, Reason: "x"}},
		{"a second start", Started{Name: "y", Unit: "1"}},
		{"an evening with no game", EveningJoined{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Evolve(New("g"), events(0, append(append([]Payload(nil), base...), c.bad))...); err == nil {
				t.Fatal("folded")
			}
		})
	}
	if _, err := Evolve(New("g"), events(0, []Payload{MemberAdded{Name: "Anna"}})...); err == nil {
		t.Fatal("a group that does not begin with group.started folded")
	}
}

func TestDecodeEveryEventType(t *testing.T) {
	for _, p := range []Payload{
		Started{Name: "x", Unit: "0.50", Currency: "CHF", ReadID: "r"}, MemberAdded{Name: "Anna"},
		EveningJoined{Game: "g", ReadID: "r"}, PaymentRecorded{Payment: 1, From: "A", To: "B", Amount: d("3.50"), Note: "n"},
		PaymentVoided{Payment: 1, Reason: "r"},
	} {
		got, err := Decode(p.EventType(), []byte(js(p)))
		if err != nil || js(got) != js(p) || !IsType(p.EventType()) {
			t.Fatalf("%s: %s %v", p.EventType(), js(got), err)
		}
	}
	if _, err := Decode("game.started", []byte(`{}`)); err == nil || IsType("game.started") {
		t.Fatal("a game's event decoded as a group's")
	}
}
