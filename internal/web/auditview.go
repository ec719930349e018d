package web

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// The History's view model, built from a game's events: each event in words,
// what each deal moved, and the pot after each deal as corrections and
// voids move it.

// historyBuilder reads a game's events in order and says those of one
// page: what each deal moves, the pot and the deals' records are followed
// from the first event on, in a few numbers a deal.
type historyBuilder struct {
	loc      i18n.Localizer
	g        *tapp.State
	base     string // the game's pages: under its id or its read-only key
	from, to int64
	seen     map[int]moved         // what each deal moves, as the events so far left it
	pots     potLedger             // also which deals are voided, as the events so far left them
	records  map[int]payout.Record // each deal's record, as the events so far left them
}

// batch takes in one command's events, with what each correction or void
// changed downstream, and appends the views of those on the page to out.
func (h *historyBuilder) batch(out []templates.AuditEvent, evs []events.Event, changed []*tapp.Downstream) []templates.AuditEvent {
	loc, g := h.loc, h.g
	decoded := make([]tapp.Payload, len(evs))
	for i, e := range evs {
		if e.Type != tapp.TypeGameStarted {
			decoded[i], _ = tapp.Decode(e.Type, e.Data, g.Setup.Players)
		}
	}
	for i, e := range evs {
		shown := e.Version >= h.from && e.Version <= h.to
		ev := templates.AuditEvent{Seq: e.Version, Type: loc.T("event." + e.Type)}
		if shown {
			var pretty strings.Builder
			var data any
			if json.Unmarshal(e.Data, &data) == nil {
				b, _ := json.MarshalIndent(data, "", "  ")
				pretty.Write(b)
			}
			ev.At, ev.Hash, ev.Data = whenOf(e.RecordedAt, "second"), e.Hash, pretty.String()
		}
		if !shown {
			// Followed, not said: no sentence is made.
			if p := decoded[i]; p != nil {
				h.follow(p, decoded[i+1:])
			}
			continue
		}
		if e.Type == tapp.TypeGameStarted {
			ev.Summary = loc.T("audit.started", loc.T("variant."+string(g.Setup.Variant)), strings.Join(g.Setup.Players, ", "))
		} else if p := decoded[i]; p != nil {
			ev.Summary = eventSummary(loc, g, p)
			ev.Amounts, ev.Pot = dealAmounts(loc, g, p, h.seen)
			switch p := p.(type) {
			case tapp.HandRecorded:
				h.records[p.Hand] = p.Record
			case tapp.HandCorrected:
				switch wasVoided := h.pots.voided[p.Hand]; {
				case broughtBack(p.Reason, wasVoided, h.records[p.Hand], p.Record):
					ev.Type = loc.T("event.hand.redone") // nothing corrected, as the table says it
				case wasVoided:
					ev.Type = loc.T("event.hand.corrected-back")
				}
				h.records[p.Hand] = p.Record
			}
			if runs := h.pots.apply(p, decoded[i+1:]); g.Variant().HasPot {
				ev.PotLater = potLaterText(loc, runs)
			}
			if d := changed[i]; d != nil {
				ev.Later, ev.PotEnd, ev.Pays = downstreamText(loc, g, d)
			}
			if r, ok := p.(tapp.HandRecorded); ok {
				ev.Stood, ev.StoodURL = loc.T("audit.stood", r.Hand), h.base+"/stood?at_event="+strconv.FormatInt(e.Version, 10)
			}
		}
		out = append(out, ev)
	}
	return out
}

// follow takes in an event before the page: what its deal moves, its
// record, the pot, as the page's events need them.
func (h *historyBuilder) follow(p tapp.Payload, next []tapp.Payload) {
	if hand, now, _, retracted, ok := movedBy(h.g, p); ok && retracted {
		delete(h.seen, hand)
	} else if ok {
		h.seen[hand] = now
	}
	switch p := p.(type) {
	case tapp.HandRecorded:
		h.records[p.Hand] = p.Record
	case tapp.HandCorrected:
		h.records[p.Hand] = p.Record
	}
	h.pots.apply(p, next)
}

// eventSummary says in a line what an event recorded.
func eventSummary(loc i18n.Localizer, g *tapp.State, p tapp.Payload) string {
	deal := func(hand int, sc tapp.Scored, reason string) string {
		s := loc.T("table.hand", hand) + ": " + sc.Explain().Render(loc)
		if reason != "" {
			s += " (" + reasonText(loc, reason) + ")"
		}
		return s
	}
	switch p := p.(type) {
	case tapp.HandRecorded:
		return deal(p.Hand, p.Scored, "")
	case tapp.HandCorrected:
		return deal(p.Hand, p.Scored, p.Reason)
	case tapp.HandRescored:
		return loc.T("audit.rescored", p.Hand, p.Cause) + ": " + p.Explain().Render(loc)
	case tapp.HandVoided:
		return loc.T("table.hand", p.Hand) + ": " + reasonText(loc, p.Reason)
	case tapp.HandRetracted:
		s := loc.T("table.hand", p.Hand) + ": " + loc.T("audit.retracted", p.Dealer)
		if p.Reason != "" {
			s += " (" + p.Reason + ")"
		}
		return s
	case tapp.HerzAs:
		if p.AfterHand == 0 {
			return loc.T("audit.herz-as-first")
		}
		return loc.T("audit.herz-as", p.AfterHand)
	case tapp.HerzAsHolder:
		if p.InTapp {
			return loc.T("audit.herz-in-tapp", p.Hand)
		}
		return loc.T("audit.herz-holder", p.Hand, p.Player)
	case tapp.HerzAsWithdrawn:
		return reasonText(loc, p.Reason)
	case tapp.GameReopened:
		return p.Reason
	case tapp.PaySet:
		return p.Player
	case tapp.TransferPaid:
		return transferMarked(loc, g, p.TransferMarked, tapp.StatePaid)
	case tapp.TransferConfirmed:
		return transferMarked(loc, g, p.TransferMarked, tapp.StateConfirmed)
	case tapp.MarkWithdrawn:
		text := loc.T("audit.unmarked", p.By, transferMarked(loc, g, p.TransferMarked, p.Mark))
		if p.Reason != "" {
			text += " (" + p.Reason + ")"
		}
		return text
	case tapp.GameClosed:
		split := make([]decimal.Decimal, len(g.Setup.Players))
		for seat, name := range g.Setup.Players {
			split[seat] = p.Split[name]
		}
		// Who paid whom, as the closed table shows it: what an auditor
		// checks first.
		parts := []string{potWent(loc, g.Setup.Players, split, p.RemainderTo)}
		for _, t := range slices.Concat(p.Paid, p.Transfers) {
			parts = append(parts, loc.T("close.pays", t.From, t.To, loc.Money(g.Money(t.Amount), g.Currency, g.Places()))+".")
		}
		if len(p.Paid)+len(p.Transfers) == 0 {
			parts = append(parts, loc.T("close.square"))
		}
		return strings.TrimSpace(strings.Join(parts, " "))
	}
	return ""
}

// transferMarked says which transfer was marked, in money, and as what.
func transferMarked(loc i18n.Localizer, g *tapp.State, m tapp.TransferMarked, state string) string {
	return loc.T("close.pays", m.From, m.To, loc.Money(g.Money(m.Amount), g.Currency, g.Places())) + ": " + loc.T("pay.state."+state)
}

// moved is what a deal moves: each player's change and the pot's, in units.
type moved struct {
	deltas map[string]decimal.Decimal
	pot    decimal.Decimal
}

// dealAmounts says what a deal's event moved, by player and for the pot
// (old-tapp, with the pot after the deal), so that the History alone
// shows every number: where the event changed what the deal moved before
// (a correction, a void, a re-scoring, a deal brought back), each amount
// that changed is shown as before → after. seen holds what each deal
// moves as the events before this one left it; this event's is put in.
func dealAmounts(loc i18n.Localizer, g *tapp.State, p tapp.Payload, seen map[int]moved) (amounts []string, pot string) {
	hand, now, potAfter, retracted, ok := movedBy(g, p)
	if !ok {
		return nil, ""
	}
	if retracted {
		defer delete(seen, hand) // the deal n recorded next is new
	}
	before, revised := seen[hand]
	seen[hand] = now
	change := func(was, is decimal.Decimal) string {
		if revised && !was.Equal(is) {
			return signed(loc, was) + " → " + signed(loc, is)
		}
		return signed(loc, is)
	}
	for _, name := range g.Setup.Players {
		amounts = append(amounts, name+" "+change(before.deltas[name], now.deltas[name]))
	}
	if g.Variant().HasPot {
		pot = loc.T("audit.pot", change(before.pot, now.pot))
		if potAfter != nil {
			pot = loc.T("audit.pot-after", change(before.pot, now.pot), loc.Num(*potAfter))
		}
	}
	return amounts, pot
}

// movedBy is what a deal's event makes the deal move, with the pot after
// it (nil for a void or a retract: the deals after it say where the pot
// went); retracted: the deal is taken back; ok false for an event of no
// deal.
func movedBy(g *tapp.State, p tapp.Payload) (hand int, now moved, potAfter *decimal.Decimal, retracted, ok bool) {
	switch p := p.(type) {
	case tapp.HandRecorded:
		return p.Hand, moved{p.Deltas, p.PotDelta}, &p.PotAfter, false, true
	case tapp.HandCorrected:
		return p.Hand, moved{p.Deltas, p.PotDelta}, &p.PotAfter, false, true
	case tapp.HandRescored:
		return p.Hand, moved{p.Deltas, p.PotDelta}, &p.PotAfter, false, true
	case tapp.HandVoided:
		return p.Hand, keptMoves(g, p), nil, false, true // it moves nothing now, or only the stake it kept
	case tapp.HandRetracted:
		return p.Hand, moved{}, nil, true, true // it moves nothing now
	}
	return 0, moved{}, nil, false, false
}

// keptMoves is what a voided deal still moves: the dealer's stake kept in
// the pot (old-tapp), or nothing.
func keptMoves(g *tapp.State, p tapp.HandVoided) moved {
	if p.StakeKept == nil {
		return moved{}
	}
	dealer := g.Setup.Players[g.DealerOf(p.Hand)]
	return moved{deltas: map[string]decimal.Decimal{dealer: p.StakeKept.Neg()}, pot: *p.StakeKept}
}

// amountsIn says what the History's amounts count, which read like money
// on an evening played for 0.50 a unit: the game's units (Württemberg's
// cents), and what one is worth where the evening has a currency.
func amountsIn(loc i18n.Localizer, g *tapp.State) string {
	key := "audit.units"
	if g.Variant().UnitName != "" {
		key += "-" + g.Variant().UnitName
	}
	if g.Currency == "" {
		return loc.T(key + "-plain")
	}
	return loc.T(key, loc.Money(g.Unit, g.Currency, g.Places()))
}

// potLedger follows what each deal moves the pot by, and which deals are
// voided, as the History's events so far left them, so that a correction
// or void can say how the pot after the later deals changed: those deals'
// own entries still say the pot they left when they were recorded, and a
// deal whose own amounts did not change gets no event of its own to say
// it. (Outside old-tapp every pot moves 0 and nothing is said.)
type potLedger struct {
	moves  []decimal.Decimal // by deal, from deal 1
	voided map[int]bool      // whose entries say no pot: not said to change
}

func (l *potLedger) set(hand int, pot decimal.Decimal) {
	for len(l.moves) < hand {
		l.moves = append(l.moves, decimal.Zero)
	}
	l.moves[hand-1] = pot
}

// after is the pot after each deal, from deal 1.
func (l *potLedger) after() []decimal.Decimal {
	out := make([]decimal.Decimal, len(l.moves))
	pot := decimal.Zero
	for i, m := range l.moves {
		pot = pot.Add(m)
		out[i] = pot
	}
	return out
}

// potRun is a run of later deals, from and to, whose pot after each
// changed alike, by; before and now are the first one's.
type potRun struct {
	from, to        int
	before, now, by decimal.Decimal
}

// apply takes in an event's change to the pot; for a correction or void it
// also takes in the re-scorings it caused (next, the events after it) and
// gives the later deals, not re-scored there, whose pot after changed.
func (l *potLedger) apply(p tapp.Payload, next []tapp.Payload) []potRun {
	var hand int
	switch p := p.(type) {
	case tapp.HandRecorded:
		l.set(p.Hand, p.PotDelta)
		return nil
	case tapp.HandRescored:
		l.set(p.Hand, p.PotDelta)
		return nil
	case tapp.HandCorrected:
		hand = p.Hand
	case tapp.HandVoided:
		hand = p.Hand
	case tapp.HandRetracted:
		// The last deal gone: nothing after it to say.
		if len(l.moves) >= p.Hand {
			l.moves = l.moves[:p.Hand-1]
		}
		delete(l.voided, p.Hand)
		return nil
	default:
		return nil
	}
	before := l.after()
	if l.voided == nil {
		l.voided = map[int]bool{}
	}
	switch p := p.(type) {
	case tapp.HandCorrected:
		l.set(p.Hand, p.PotDelta)
		l.voided[p.Hand] = false
	case tapp.HandVoided:
		l.set(p.Hand, decimal.Zero)
		if p.StakeKept != nil {
			l.set(p.Hand, *p.StakeKept)
		}
		l.voided[p.Hand] = true
	}
	own := map[int]bool{} // re-scored right after: their entries say their pot
	for _, n := range next {
		r, ok := n.(tapp.HandRescored)
		if !ok || r.Cause != hand {
			break
		}
		own[r.Hand] = true
		l.set(r.Hand, r.PotDelta)
	}
	now := l.after()
	said := func(i int) bool { return !own[i+1] && !l.voided[i+1] } // deal i+1's pot is said by this entry
	var runs []potRun
	for i := hand; i < len(before); i++ {
		by := now[i].Sub(before[i])
		if by.IsZero() || !said(i) {
			continue
		}
		last := i
		for last+1 < len(before) && said(last+1) && now[last+1].Sub(before[last+1]).Equal(by) {
			last++
		}
		runs = append(runs, potRun{from: i + 1, to: last + 1, before: before[i], now: now[i], by: by})
		i = last
	}
	return runs
}

// potLaterText says the runs: one deal's pot before → now, a longer run's
// change to each.
func potLaterText(loc i18n.Localizer, runs []potRun) []string {
	var out []string
	for _, r := range runs {
		if r.from == r.to {
			out = append(out, loc.T("audit.pot-later-one", r.from, loc.Num(r.before), loc.Num(r.now)))
		} else {
			out = append(out, loc.T("audit.pot-later-run", r.from, r.to, signed(loc, r.by)))
		}
	}
	return out
}

// reasonText is a correction's or void's reason as a page shows it: the
// reasons the table's undo and redo buttons and the quick reasons give are
// the app's words, in the page's language; any other is the player's, as
// typed.
func reasonText(loc i18n.Localizer, reason string) string {
	if q := quickReason(loc, reason); q != "" {
		return q
	}
	switch reason {
	case undoReason:
		return loc.T("reason.undone")
	case redoReason:
		return loc.T("reason.redone")
	}
	return reason
}
