package group

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"tappbook/internal/names"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// Command is something asked of a group. Decide turns it into the events
// that say it happened, or refuses it.
type Command interface {
	// Kind is the type of the command's own event among those it appends
	// (members may join on the way); a repeated idempotency key must come
	// with the same kind of command.
	Kind() string
}

// Start begins a group. The ids are made by the caller: Decide makes no
// randomness of its own.
type Start struct {
	ID, ReadID string
	Name       string
	Players    []string // may be empty
	Unit       string   // decimal; "" means 1
	Currency   string
}

// AddMembers makes players members; those who are already are left as
// they are.
type AddMembers struct{ Players []string }

// JoinEvening lists a new evening of the group: game Game, whose players
// (as the game keeps them) become members if they are not, and whose unit
// and currency must be the group's.
type JoinEvening struct {
	Game, ReadID string
	Players      []string
	Unit         string
	Currency     string
}

// RecordPayment records money paid between two members.
type RecordPayment struct {
	From, To string
	Amount   string // decimal, as typed
	Note     string
	State    string // "" (done) or PaymentPaid (its payee is to confirm)
}

// VoidPayment makes payment n no longer count.
type VoidPayment struct {
	Payment int
	Reason  string
}

func (Start) Kind() string         { return TypeStarted }
func (AddMembers) Kind() string    { return TypeMemberAdded }
func (JoinEvening) Kind() string   { return TypeEveningJoined }
func (RecordPayment) Kind() string { return TypePaymentRecorded }
func (VoidPayment) Kind() string   { return TypePaymentVoided }

// Decide gives the events a command appends to the group s, or why it is
// refused. It is pure: the same state and command always decide the same.
// A command that changes nothing (adding members who all are) decides no
// events.
func Decide(s *State, c Command) ([]Payload, error) {
	if _, ok := c.(Start); !ok && !s.Started() {
		return nil, catalogue.NotFound("notfound.group")
	}
	switch c := c.(type) {
	case Start:
		return decideStart(s, c)
	case AddMembers:
		return s.decideMembers(c.Players)
	case JoinEvening:
		return s.decideJoin(c)
	case RecordPayment:
		return s.decidePayment(c)
	case VoidPayment:
		return s.decideVoid(c)
	case SetMemberPay:
		return s.decideMemberPay(c)
	case ConfirmPayment:
		return s.decideConfirm(c)
	}
	return nil, fmt.Errorf("decide: unknown group command %T", c)
}

func decideStart(s *State, c Start) ([]Payload, error) {
	if s.Started() {
		return nil, fmt.Errorf("start group %s: it has started already", s.ID)
	}
	name, err := payout.CheckText("name", c.Name)
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, catalogue.Input("name", "group.name-missing")
	}
	currency, err := tapp.CheckCurrency(c.Currency)
	if err != nil {
		return nil, err
	}
	unit, err := tapp.CheckUnit(c.Unit, currency)
	if err != nil {
		return nil, err
	}
	players, err := checkNames(c.Players)
	if err != nil {
		return nil, err
	}
	out := []Payload{Started{Name: name, Unit: unit, Currency: currency, ReadID: c.ReadID}}
	for _, p := range players {
		out = append(out, MemberAdded{Name: p})
	}
	return out, nil
}

// checkNames checks player names as a game does (one line of visible text,
// at most 40 characters, no two the same once case and width are folded)
// and gives them as they are kept.
func checkNames(players []string) ([]string, error) {
	out := make([]string, 0, len(players))
	seen := map[string]string{}
	for i, p := range players {
		name, err := names.Player(p)
		if err != nil {
			return nil, payout.NameProblem(i+1, p, err)
		}
		key := names.Key(name)
		if other, ok := seen[key]; ok {
			if other == name {
				return nil, payout.Messages().Input("players", "players.twice", name)
			}
			return nil, payout.Messages().Input("players", "players.same", other, name)
		}
		seen[key] = name
		out = append(out, name)
	}
	return out, nil
}

// decideMembers adds the players who are not members yet; a name that is a
// member's written differently ("anna" for "Anna") is refused, so that one
// person never becomes two members.
func (s *State) decideMembers(players []string) ([]Payload, error) {
	checked, err := checkNames(players)
	if err != nil {
		return nil, err
	}
	for _, p := range checked {
		if err := s.CheckSpelling(p); err != nil {
			return nil, err
		}
	}
	var out []Payload
	for _, p := range s.Newcomers(checked) {
		out = append(out, MemberAdded{Name: p})
	}
	return out, nil
}

func (s *State) decideJoin(c JoinEvening) ([]Payload, error) {
	if _, ok := s.Evening(c.Game); ok {
		return nil, catalogue.Conflict("conflict.evening-joined", c.Game)
	}
	if u, err := decimal.NewFromString(c.Unit); err != nil || !u.Equal(s.Unit) {
		return nil, catalogue.Input("unit", "evening.unit", problem.Number(s.UnitText), problem.Number(c.Unit))
	}
	if c.Currency != s.Currency {
		if s.Currency == "" {
			return nil, catalogue.Input("currency", "evening.no-currency", c.Currency)
		}
		return nil, catalogue.Input("currency", "evening.currency", s.Currency, c.Currency)
	}
	out, err := s.decideMembers(c.Players)
	if err != nil {
		return nil, err
	}
	return append(out, EveningJoined{Game: c.Game, ReadID: c.ReadID}), nil
}

func (s *State) decidePayment(c RecordPayment) ([]Payload, error) {
	c.From, c.To = s.memberName(c.From), s.memberName(c.To)
	if err := s.checkMember("from", c.From, "payment.from-missing"); err != nil {
		return nil, err
	}
	if err := s.checkMember("to", c.To, "payment.to-missing"); err != nil {
		return nil, err
	}
	if c.From == c.To {
		return nil, catalogue.Input("to", "payment.self", c.From)
	}
	amount, err := s.checkAmount(c.Amount)
	if err != nil {
		return nil, err
	}
	note, err := payout.CheckText("note", c.Note)
	if err != nil {
		return nil, err
	}
	if c.State != "" && c.State != PaymentPaid {
		return nil, catalogue.Input("state", "payment.state", c.State)
	}
	return []Payload{PaymentRecorded{Payment: len(s.payments) + 1, From: c.From, To: c.To, Amount: amount, Note: note, State: c.State}}, nil
}

// memberName gives the member a name in a request stands for: the name
// itself, or the member it is once normalized as names are kept ("Jose"
// with a combining accent is "José").
func (s *State) memberName(n string) string { return names.Resolve(n, s.IsMember) }

func (s *State) checkMember(field, name, missing string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return catalogue.Input(field, missing)
	case len(s.members) == 0:
		return catalogue.Input(field, "payment.no-members", field, name)
	case !s.IsMember(name):
		return catalogue.Input(field, "payment.not-member", field, name, strings.Join(s.MemberNames(), ", "))
	}
	return nil
}

// paymentPlaces is how many decimal places a payment may have: its
// currency's (api.md), or as many as the unit's value needs if more (a
// group stored with 0.125 CHF before such units were refused owes in
// thousandths); without a currency, the group's money's.
func (s *State) paymentPlaces() int32 {
	if s.Currency == "" {
		return s.Places()
	}
	places := tapp.MoneyPlaces(s.Currency, "")
	for places < 28 && !s.Unit.Equal(s.Unit.Truncate(places)) {
		places++
	}
	return places
}

// checkAmount reads a payment's amount: a plain decimal above 0 with no
// more places than the group's money has (trailing zeros are the same
// amount), and nothing around it, as a unit is read.
func (s *State) checkAmount(text string) (decimal.Decimal, error) {
	if text == "" {
		return decimal.Decimal{}, catalogue.Input("amount", "payment.amount-missing")
	}
	amount, err := payout.ParseAmount("amount", text)
	if err != nil {
		return decimal.Decimal{}, err
	}
	if !amount.IsPositive() {
		return decimal.Decimal{}, catalogue.Input("amount", "payment.amount-positive", text)
	}
	if places := s.paymentPlaces(); -amount.Exponent() > places && !amount.Equal(amount.Truncate(places)) {
		return decimal.Decimal{}, catalogue.Input("amount", "payment.places", text, places)
	}
	return amount, nil
}

func (s *State) decideVoid(c VoidPayment) ([]Payload, error) {
	p := s.Payment(c.Payment)
	if p == nil {
		return nil, catalogue.NotFound("notfound.payment", c.Payment)
	}
	if p.Voided {
		return nil, catalogue.Conflict("conflict.payment-voided", c.Payment)
	}
	reason, err := payout.CheckText("reason", c.Reason)
	if err != nil {
		return nil, err
	}
	if reason == "" {
		return nil, catalogue.Input("reason", "payment.void-reason")
	}
	return []Payload{PaymentVoided{Payment: c.Payment, Reason: reason}}, nil
}
