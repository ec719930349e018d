// Package group is a circle of players as events in, events out, in the
// shape of internal/tapp: the event types and their decoder (event.go), the
// fold into an immutable State (state.go, evolve.go), the decisions that
// turn a command into events or a refusal (decide.go), the running tab
// between evenings (tab.go) and the statistics (stats.go). It is pure: no
// I/O, no clock, no randomness. The evenings themselves are games of
// internal/tapp; the group lists them, and the tab and the statistics read
// their closed results.
package group

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"tappbook/internal/names"
	"tappbook/internal/payee"
	"tappbook/internal/tapp"
)

// State is a group as its events tell it. It is an immutable snapshot:
// Evolve never changes a State, it gives a new one, so a reader may keep a
// State while commands go on. Nothing reachable from a State may be
// written to.
type State struct {
	ID        string
	ReadID    string
	Name      string
	Unit      decimal.Decimal
	UnitText  string
	Currency  string
	StartedAt time.Time
	Version   int64 // the stream version folded so far

	members  []Member
	evenings []Evening
	payments []*Payment
	payees   map[string]payee.Details // how each member is paid (pay.go); replaced, never written to
}

// Member is one player of the group, in the order they joined.
type Member struct {
	Name  string
	Since time.Time
}

// Evening is one evening the group started: the game that holds it.
type Evening struct {
	Game   string
	ReadID string
	At     time.Time // when the group started it
}

// Payment is money paid between two members outside any evening.
type Payment struct {
	Number     int
	From, To   string
	Amount     decimal.Decimal
	Note       string
	At         time.Time
	Voided     bool
	VoidReason string
	VoidedAt   time.Time
	// State is PaymentPaid for a payment its payee is to confirm.
	State       string
	ConfirmedBy string
	ConfirmedAt time.Time
}

// New is the state of a group before its first event.
func New(id string) *State { return &State{ID: id} }

// Started reports whether the group has its first event.
func (s *State) Started() bool { return s.Version > 0 }

// Members gives the members in the order they joined (the snapshot's: read,
// never write).
func (s *State) Members() []Member { return slices.Clip(s.members) }

// MemberNames gives the members' names in the order they joined (a copy).
func (s *State) MemberNames() []string {
	out := make([]string, len(s.members))
	for i, m := range s.members {
		out[i] = m.Name
	}
	return out
}

// IsMember reports whether name is a member, spelled as the group keeps it.
func (s *State) IsMember(name string) bool { return s.memberIndex(name) >= 0 }

func (s *State) memberIndex(name string) int {
	return slices.IndexFunc(s.members, func(m Member) bool { return m.Name == name })
}

// Newcomers gives the names among players that are no member's, written
// any way: those an evening with them would add to the group.
func (s *State) Newcomers(players []string) []string {
	var out []string
	for _, p := range players {
		if s.spelledAs(p) == "" {
			out = append(out, p)
		}
	}
	return out
}

// CheckSpelling refuses a name that is a member's written otherwise
// ("anna" for "Anna"), as an evening with it is refused.
func (s *State) CheckSpelling(name string) error {
	if other := s.spelledAs(name); other != "" && other != name {
		return catalogue.Input("players", "member.spelled", name, other)
	}
	return nil
}

// spelledAs gives the member whose name compares the same as name ("anna"
// and "Anna"), or "".
func (s *State) spelledAs(name string) string {
	key := names.Key(name)
	for _, m := range s.members {
		if names.Key(m.Name) == key {
			return m.Name
		}
	}
	return ""
}

// Evenings gives the evenings in the order they were started, oldest first
// (the snapshot's: read, never write).
func (s *State) Evenings() []Evening { return slices.Clip(s.evenings) }

// Evening gives the evening held by game id, if the group lists it.
func (s *State) Evening(game string) (Evening, bool) {
	i := slices.IndexFunc(s.evenings, func(e Evening) bool { return e.Game == game })
	if i < 0 {
		return Evening{}, false
	}
	return s.evenings[i], true
}

// Payments gives every payment in the order recorded, voided ones included
// (the snapshot's: read, never write).
func (s *State) Payments() []*Payment { return slices.Clip(s.payments) }

// Payment gives payment n, or nil.
func (s *State) Payment(n int) *Payment {
	if n < 1 || n > len(s.payments) {
		return nil
	}
	return s.payments[n-1]
}

// Places is how many decimals the group's money has: the currency's minor
// unit, or more if the unit value has more, as a game of the group shows
// it. A payment may not have more.
func (s *State) Places() int32 { return moneyPlaces(s.Currency, s.UnitText) }

func moneyPlaces(currency, unit string) int32 { return tapp.MoneyPlaces(currency, unit) }
