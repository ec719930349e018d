package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// lastDeals is how many deals the table shows before "all deals".
const lastDeals = 20

// The reasons the one-tap undo gives (a void) and its way back (a
// correction with the deal's last record): stored as said, shown in the
// reader's language.
const (
	undoReason = "undone"
	redoReason = "undo taken back"
)

// tableAsk is what a table page was asked to show besides the game: every
// deal, and a deal this phone just saved or undid.
type tableAsk struct {
	all    bool
	saved  int
	undone int
}

// view names the page in the cache: what it shows, by the parameters it
// reads and nothing else.
func (a tableAsk) view() string {
	v := "table"
	if a.all {
		v += "?all"
	}
	if a.saved > 0 {
		v += "&saved=" + strconv.Itoa(a.saved)
	}
	if a.undone > 0 {
		v += "&undone=" + strconv.Itoa(a.undone)
	}
	return v
}

// path is the page's own address, for its language and theme links.
func (a tableAsk) path(base string) string {
	q := []string{}
	if a.all {
		q = append(q, "all=1")
	}
	if a.saved > 0 {
		q = append(q, "saved="+strconv.Itoa(a.saved))
	}
	if a.undone > 0 {
		q = append(q, "undone="+strconv.Itoa(a.undone))
	}
	if len(q) == 0 {
		return base
	}
	return base + "?" + strings.Join(q, "&")
}

func askOf(c echo.Context) tableAsk {
	n := func(k string) int {
		v, err := strconv.Atoi(c.QueryParam(k))
		if err != nil || v < 1 {
			return 0
		}
		return v
	}
	return tableAsk{all: c.QueryParam("all") != "", saved: n("saved"), undone: n("undone")}
}

// allowed asks the game whether it would take a command now, without
// running it: the domain decides what the page offers.
func allowed(g *tapp.State, cmd tapp.Command) bool {
	_, err := tapp.Decide(g, cmd)
	return err == nil
}

func (u ui) tableView(p templates.Page, loc i18n.Localizer, g *tapp.State, ask tableAsk) templates.TableView {
	p.EveningClosed = g.Closed != nil
	n := len(g.Setup.Players)
	next := g.NextDealer()
	v := templates.TableView{Page: p, UnitsHead: unitsHead(loc, g), Variant: string(g.Setup.Variant), VariantName: loc.T("variant." + string(g.Setup.Variant)),
		NextHand: g.NextHand(), Dealer: g.Setup.Players[next], Forehand: g.Setup.Players[(next+1)%n],
		HasPot: g.Variant().HasPot, Pot: loc.Num(g.Pot()), PotMoney: loc.Money(g.Money(g.Pot()), g.Currency, g.Places()),
		Closed: g.Closed != nil, Chart: chart(loc, g, u.sums)}
	if name := g.Variant().UnitName; name != "" && g.Currency != "" && !isUsualUnit(g) {
		// A game that counts in cents played for another unit of money (a
		// group's 0.10 EUR): the Cents column is not money, so its worth
		// is said. Without a currency there is no money to say it in.
		v.UnitWorth = loc.T("table.unit-worth-"+name, loc.Money(g.Unit, g.Currency, g.Places()))
	}
	if p.GameID != "" && foreseeable(g) && g.MayRecord() == nil {
		// The next deal, for the phone to record from the forms it kept
		// if the server is gone when Record is tapped (offline.go).
		v.Deals = nextDeal(loc, p.GameID, g, "")
	}
	v.Witness = templates.WitnessView{Version: g.Version, Head: g.Head, URL: witnessURL(p, g),
		Cut: loc.T("witness.cut", "{seen}", "{now}"), Changed: loc.T("witness.changed", "{seen}")}
	if d := g.Damaged; d != nil {
		v.Damaged = loc.T("err.conflict.damaged", d.Seq, d.Version, d.Why)
	}
	v.Players = make([]templates.PlayerView, 0, n)
	for seat, name := range g.Setup.Players {
		b := g.Balance(seat)
		v.Players = append(v.Players, templates.PlayerView{Name: name, Seat: seat, Units: loc.Num(b),
			Money: loc.Money(g.Money(b), g.Currency, g.Places()), Dealer: seat == next && dealsNext(g), Negative: b.IsNegative()})
	}
	v.Hands, v.MoreDeals = u.dealRows(loc, g, p, ask)
	if g.Closed != nil {
		closedView(&v, loc, g, p)
	}
	if g.Pending != nil {
		v.Pending = loc.T("table.pending", g.Pending.Hand, loc.T("contract."+g.Pending.Record.Contract))
	}
	if !p.ReadOnly && g.Closed == nil && g.Damaged == nil {
		v.Saved, v.Undone, v.Undo = savedView(loc, g, ask), undoneView(loc, g, ask), undoView(u.explained, loc, g)
		if s := v.Saved; s != nil && v.Undo != nil {
			// The one tap takes back the last deal: beside a deal just
			// recorded, never beside a correction or a void it would not undo.
			s.Undoes = v.Undo.Hand == s.Hand && len(g.Hand(s.Hand).Revisions) == 1
		}
	}
	if g.Variant().EndsWithHerzAs {
		herzAsView(&v, loc, g, p)
	}
	return v
}

// dealRows are the table's deal rows, newest first, and how many deals
// there are when not all are shown (0 when they are).
func (u ui) dealRows(loc i18n.Localizer, g *tapp.State, p templates.Page, ask tableAsk) (_ []templates.HandView, more int) {
	n := len(g.Setup.Players)
	// The last deals, newest first; all of them on request. Rendering every
	// explanation of a long evening on each refresh would make the table slow.
	shown := min(len(g.Hands()), lastDeals)
	if ask.all {
		shown = len(g.Hands())
	}
	var pots []decimal.Decimal // after each deal, where there is a pot
	if g.Variant().HasPot {
		pots = g.PotsAfter()
	}
	hands := make([]templates.HandView, 0, shown)
	editable := !p.ReadOnly && g.Closed == nil && g.Damaged == nil // as the rows' edit link asks
	for i := len(g.Hands()) - 1; i >= len(g.Hands())-shown; i-- {
		h := g.Hands()[i]
		pot := potSaid(loc, h, pots, i)
		// The deal just saved is marked on this page alone: never kept.
		fresh := h.Number == ask.saved
		ending := endingOf(loc, g, h)
		key := rowOf(loc, g, h, p.Base, editable, pot, ending)
		if html, ok := u.rows.get(key); ok && !fresh {
			hands = append(hands, templates.HandView{Number: h.Number, HTML: html})
			continue
		}
		hv := u.handView(loc, g, h)
		hv.Fresh, hv.Pot, hv.Ending = fresh, pot, ending
		if !fresh {
			u.rows.put(key, loc, &hv, n)
		}
		hands = append(hands, hv)
	}
	if shown < len(g.Hands()) {
		more = len(g.Hands())
	}
	return hands, more
}

// closedView says where a closed evening's pot went, who pays whom, and
// how anyone checks it (tappbook verify).
func closedView(v *templates.TableView, loc i18n.Localizer, g *tapp.State, p templates.Page) {
	v.PotWent = potWent(loc, g.Setup.Players, g.Closed.Split, g.Closed.RemainderTo)
	v.Transfers = transferViews(loc, g, g.Closed.All())
	v.Fingerprint = events.Fingerprint(g.Closed.Head)
	id := g.ID
	if p.ReadOnly {
		id = strings.TrimPrefix(p.Base, p.Root+"/r/") // never the writing id on a read-only page
	}
	v.VerifyLine = "tappbook verify --game " + id + " --fingerprint " + v.Fingerprint
}

// herzAsView is a Württemberg evening's end: Herz-As said, its holder asked
// for or changed, and the evening's status.
func herzAsView(v *templates.TableView, loc i18n.Localizer, g *tapp.State, p templates.Page) {
	end := g.End()
	v.HerzAs.CanAnnounce = len(g.Hands()) > 0 && allowed(g, tapp.AnnounceHerzAs{})
	v.HerzAs.AfterHand = len(g.Hands())
	v.HerzAs.CanWithdraw = g.HerzAs != nil && allowed(g, tapp.WithdrawHerzAs{Reason: undoReason})
	v.HerzAs.Key = fmt.Sprintf("herz-as-v%d", g.Version)
	v.Status = endStatus(loc, g, end, p.ReadOnly)
	v.Over = end.Over()
	if end.Holder != "" && !p.ReadOnly {
		for _, name := range g.Setup.Players {
			if name != end.Holder && allowed(g, tapp.SayHerzAsHolder{Player: name, Change: true}) {
				v.HerzAs.Others = append(v.HerzAs.Others, templates.Option{Value: name, Label: name})
			}
		}
		if len(v.HerzAs.Others) > 0 {
			v.HerzAs.Holder, v.HerzAs.HolderHand = end.Holder, end.HolderHand
		}
	}
	if end.Phase == tapp.PhaseHolder {
		v.HerzAs.AskHolder, v.HerzAs.HolderHand = true, end.Question
		for _, name := range g.Setup.Players {
			v.HerzAs.Players = append(v.HerzAs.Players, templates.Option{Value: name, Label: name})
		}
	}
}

// witnessURL is where the page asks whether the server's history still
// holds what this phone saw: through the link the page was opened with.
func witnessURL(p templates.Page, g *tapp.State) string {
	if p.ReadOnly {
		return p.Root + "/api" + strings.TrimPrefix(p.Base, p.Root) + "/witness"
	}
	return p.Root + "/api/games/" + g.ID + "/witness"
}

// savedView: the deal this phone just saved, while it is the game's (the
// undo is the table's own, undoView, on every phone).
func savedView(loc i18n.Localizer, g *tapp.State, ask tableAsk) *templates.SavedView {
	h := g.Hand(ask.saved)
	if h == nil || (h.Voided && h.VoidReason == undoReason) {
		return nil // an undo says so itself (undoneView)
	}
	text := loc.T("table.saved", h.Number)
	if n := len(h.Revisions); n > 1 && h.Revisions[n-1].Kind == tapp.TypeHandCorrect && h.Revisions[n-1].Reason != redoReason {
		text = loc.T("table.saved-corrected", h.Number)
		if h.Revisions[n-2].Kind == tapp.TypeHandVoided {
			// A correction of a voided deal brings it back.
			text = loc.T("table.saved-restored", h.Number)
		}
	}
	if h.Voided {
		text = loc.T("table.saved-voided", h.Number, reasonText(loc, h.VoidReason))
	}
	// A change that moved the pot re-scores later deals: say which, or
	// their numbers change unannounced, and what it all did to the
	// standings, which a player otherwise adds up from several deals.
	if later := rescoredBy(g, h); len(later) > 0 && len(h.Revisions) > 1 {
		numbers := make([]string, len(later))
		for i, k := range later {
			numbers[i] = strconv.Itoa(k.Number)
		}
		text += " " + loc.T("table.rescored", len(later), strings.Join(numbers, ", "))
		text += " " + loc.T("table.net", netChange(loc, g, append([]*tapp.Hand{h}, later...)))
	}
	return &templates.SavedView{Hand: h.Number, Text: text}
}

// potSaid is what deal h, the i-th (0-based), did to the pot as its row
// says it; "" where there is no pot (pots: after each deal, or nil).
func potSaid(loc i18n.Localizer, h *tapp.Hand, pots []decimal.Decimal, i int) string {
	switch {
	case pots == nil:
		return ""
	case !h.Voided:
		return potMoved(loc, potBefore(pots, i), pots[i])
	}
	// A voided deal leaves the pot as it was; struck through as its
	// amounts are, it shows the pot's part of what it moved, without which
	// they do not add up.
	return loc.T("audit.pot", signed(loc, h.Result().PotDelta()))
}

// rescoredBy gives the later deals that h's last change re-scored: those
// whose last revision is a re-scoring it caused, made after it (a change
// that moved no pot leaves the re-scorings of an earlier one as they are).
func rescoredBy(g *tapp.State, h *tapp.Hand) []*tapp.Hand {
	changed := h.Revisions[len(h.Revisions)-1].Version
	var out []*tapp.Hand
	for k := h.Number + 1; k <= len(g.Hands()); k++ {
		later := g.Hand(k)
		if r := later.Revisions[len(later.Revisions)-1]; r.Kind == tapp.TypeHandRescored && r.Cause == h.Number && r.Version > changed {
			out = append(out, later)
		}
	}
	return out
}

// netChange says what the last revision of each deal changed, together:
// each player's standing and, where there is one, the pot.
func netChange(loc i18n.Localizer, g *tapp.State, hands []*tapp.Hand) string {
	seats := make([]decimal.Decimal, len(g.Setup.Players))
	pot := decimal.Zero
	for _, h := range hands {
		d, p := lastChange(h)
		for seat := range seats {
			seats[seat] = seats[seat].Add(d[seat])
		}
		pot = pot.Add(p)
	}
	parts := make([]string, len(seats))
	for seat, d := range seats {
		parts[seat] = g.Setup.Players[seat] + " " + signed(loc, d)
	}
	if g.Variant().HasPot {
		return loc.T("table.net-with-pot", strings.Join(parts, ", "), signed(loc, pot))
	}
	return strings.Join(parts, ", ")
}

// lastChange is what a deal's last revision changed, by seat and for the
// pot: what the deal moves now less what it moved before (nothing while it
// was voided).
func lastChange(h *tapp.Hand) (seats []decimal.Decimal, pot decimal.Decimal) {
	var before, now *tapp.Result // nil: counts nothing (voided)
	for i := range h.Revisions {
		before, now = now, h.Revisions[i].Result()
	}
	seats = make([]decimal.Decimal, len(h.Result().Deltas()))
	add := func(r *tapp.Result, sign decimal.Decimal) {
		if r == nil {
			return
		}
		for seat, d := range r.Deltas() {
			seats[seat] = seats[seat].Add(d.Mul(sign))
		}
		pot = pot.Add(r.PotDelta().Mul(sign))
	}
	add(now, decimal.NewFromInt(1))
	add(before, decimal.NewFromInt(-1))
	return seats, pot
}

// dealsNext reports whether anyone deals again this evening: not once it
// is closed, nor after Württemberg's last Zwangsramsch.
func dealsNext(g *tapp.State) bool { return g.Closed == nil && !g.End().Over() }

// signed writes a change with its sign: +2, −1, 0.
func signed(loc i18n.Localizer, d decimal.Decimal) string {
	if d.IsPositive() {
		return "+" + loc.Num(d)
	}
	return loc.Num(d)
}

// endStatus says where a Württemberg evening's end stands. Once every
// Zwangsramsch is played, the writing table asks to end the evening; a
// read-only link, which cannot, is told that the evening is over.
func endStatus(loc i18n.Localizer, g *tapp.State, end tapp.End, readOnly bool) string {
	switch end.Phase {
	case tapp.PhaseAnnounced:
		return loc.T("herz.announced")
	case tapp.PhaseHolder:
		if readOnly {
			return loc.T("herz.ask-read-only") // a question for the table, not for a reader
		}
		return loc.T("herz.ask")
	case tapp.PhaseLastRound:
		return loc.T("herz.last-round", end.LastRegular, g.Setup.Players[g.DealerOf(end.LastRegular)])
	case tapp.PhaseForced:
		return loc.T("herz.forced", end.Forced, len(g.Setup.Players))
	case tapp.PhaseDone:
		return loc.T(doneKey(readOnly))
	}
	return ""
}

// doneKey is the text for an evening whose last Zwangsramsch is played:
// only a page that can end the evening asks to.
func doneKey(readOnly bool) string {
	if readOnly {
		return "herz.done-read-only"
	}
	return "herz.done"
}

func (u ui) table(c echo.Context) error {
	p, loc := u.page(c, "table.title")
	// The page reads the parameters of tableAsk and no other: its language
	// links are built from those alone, so that any other parameter changes
	// nothing and shares its cache entry.
	ask := askOf(c)
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		// A deal the game does not have is no deal to mark: such a page is
		// the plain table, and shares its cache entry.
		if g.Hand(ask.saved) == nil {
			ask.saved = 0
		}
		if retractedLast(g, ask.undone) == nil {
			ask.undone = 0
		}
		p.Path = ask.path(p.Base)
		key := pageKey{game: g.ID, version: g.Version, view: ask.view(), base: p.Base, lang: loc.Lang(), theme: p.Theme}
		if page, ok := u.tables.get(key); ok {
			return c.HTMLBlob(http.StatusOK, page)
		}
		v := u.tableView(p, loc, g, ask)
		v.Mine, v.GroupName = u.eveningMine(c, p, loc, g)
		v.Title = v.VariantName
		b := templ.GetBuffer() // a page's worth, grown by the pages before
		defer templ.ReleaseBuffer(b)
		if err := templates.Table(v).Render(c.Request().Context(), b); err != nil {
			return err
		}
		if ask.saved == 0 && ask.undone == 0 {
			// Every phone at the table asks for this page after a deal.
			// One that marks a deal this phone saved or undid is its own,
			// asked for once: kept, it would only make the heap larger.
			u.tables.put(key, b.Bytes())
		}
		return c.HTMLBlob(http.StatusOK, b.Bytes())
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}

// unitsHead names the standings' column of units: a variant whose unit is
// a cent (Württemberg) says cents, as its start form did.
func unitsHead(loc i18n.Localizer, g *tapp.State) string {
	if name := g.Variant().UnitName; name != "" {
		return loc.T("table.units-" + name)
	}
	return loc.T("table.units")
}
