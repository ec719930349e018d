package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/signing"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// closeView shows the settlement as it stands: the pot shared out, who pays
// whom, and, where leftover pot units await a cut, who may win each.
//
// With a winner chosen for every leftover unit (the form's choices, shown
// again or asked for by the page's script), the standings and payments
// are those closing with that cut gives, said as such: nobody should end
// the evening, which cannot be undone, without seeing who pays whom.
func closeView(p templates.Page, loc i18n.Localizer, g *tapp.State, chosen []string, key *signing.Key) templates.CloseView {
	// standing: as recorded, the cut not yet (its units undecided); s:
	// what is shown, standing or with the cut as chosen.
	standing := g.Settlement()
	s, asChosen := standing, false
	if standing.Provisional && len(chosen) > 0 && !slices.Contains(chosen, "") {
		if with, err := g.SettlementWith(chosen); err == nil {
			s, asChosen = with, true
		}
	}
	p.EveningClosed = g.Closed != nil
	v := templates.CloseView{Page: p, Version: g.Version, UnitsHead: unitsHead(loc, g), Closed: g.Closed != nil, HasPot: g.Variant().HasPot,
		Transfers: transferViews(loc, g, s.Transfers)}
	pot := g.Pot()
	if g.Closed != nil {
		pot = decimal.Zero
		for _, x := range g.Closed.Split {
			pot = pot.Add(x)
		}
	}
	v.Pot = loc.Num(pot)
	for seat, name := range g.Setup.Players {
		b := s.Balances[seat]
		v.Players = append(v.Players, templates.PlayerView{Name: name, Seat: seat, Units: loc.Num(b),
			Money: loc.Money(g.Money(b), g.Currency, g.Places()), Negative: b.IsNegative()})
		share := decimal.Zero
		if seat < len(s.Split) {
			share = s.Split[seat]
		}
		v.Split = append(v.Split, loc.Num(share))
	}
	// The units the equal shares leave over: given by the cut or the
	// biggest loser, or still undecided.
	v.Leftover = len(standing.RemainderTo) + standing.Undecided
	switch {
	case g.Closed != nil && v.HasPot:
		// Closed: where the pot went, the cut's winners by name.
		v.PotWent = potWent(loc, g.Setup.Players, g.Closed.Split, g.Closed.RemainderTo)
	case !standing.Provisional && len(s.RemainderTo) > 0:
		// Open, and no cut needed: the house rule gives the leftover units
		// to the biggest loser (rules.md, old-tapp "End of the session").
		v.LeftoverTo = loc.T("close.leftover-loser", len(s.RemainderTo), leftoverNames(loc, g.Setup.Players, s.RemainderTo))
	}
	if g.Closed != nil {
		v.CanReopen, v.IdemKey = g.MayReopen() == nil, newKey()
		v.ReceiptQR = qrOfReceipt(key, g)
		v.Fingerprint = events.Fingerprint(g.Closed.Head)
		v.VerifyLine = "tappbook verify --game " + g.ID + " --fingerprint " + v.Fingerprint
	}
	if standing.Provisional && g.Closed == nil {
		v.NeedCut = true
		v.Undecided = loc.T("close.undecided", standing.Undecided, strings.Join(standing.CutAmong, ", "))
		if asChosen {
			v.ShownCut = chosen // as the form has it: what it sends back
			v.Undecided = ""
			v.LeftoverTo = loc.T("close.leftover-chosen", len(s.RemainderTo), leftoverNames(loc, g.Setup.Players, s.RemainderTo))
		}
		for i := range v.Leftover {
			var opts []templates.Option
			for _, name := range payout.RemainderEligible(g.Setup, g.Balances()) {
				opts = append(opts, templates.Option{Value: name, Label: name, Selected: i < len(chosen) && chosen[i] == name})
			}
			v.CutOptions = append(v.CutOptions, opts)
		}
	}
	return v
}

func (u ui) closeForm(c echo.Context) error {
	p, loc := u.page(c, "close.title")
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		// The cut as chosen on the page, asked for by its script: what
		// closing with it would give.
		var chosen []string
		if q := c.QueryParams(); cutFormFor(q) > 0 && cutFormFor(q) <= g.Settlement().Undecided {
			chosen = cutChoices(q, g.Settlement().Undecided)
		}
		return render(c, http.StatusOK, templates.Close(closeView(p, loc, g, chosen, u.key)))
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}

// potWent says where the pot went when the evening was closed: each
// player's share, and who got the units left over (by the cut or as the
// biggest loser); "" where there was no pot to share.
func potWent(loc i18n.Localizer, players []string, split []decimal.Decimal, leftover []string) string {
	total := decimal.Zero
	var shares []string
	for seat, name := range players {
		if seat < len(split) {
			total = total.Add(split[seat])
			shares = append(shares, name+" "+loc.Num(split[seat]))
		}
	}
	if total.IsZero() {
		return ""
	}
	out := loc.T("close.pot-went", total, strings.Join(shares, ", "))
	if len(leftover) > 0 {
		out += " " + loc.T("close.leftover-went", len(leftover), leftoverNames(loc, players, leftover))
	}
	return out
}

// leftoverNames names who has the pot's leftover units: each player once,
// in seat order, with the units where more than one.
func leftoverNames(loc i18n.Localizer, players, leftover []string) string {
	var names []string
	for _, name := range players {
		switch n := countOf(leftover, name); {
		case n == 1:
			names = append(names, name)
		case n > 1:
			names = append(names, fmt.Sprintf("%s (%d)", name, n))
		}
	}
	return payout.ListOf(loc, names)
}

func countOf(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}

// cutChoices reads who won each of the leftover units: one radio
// group per unit (templates.CutField), "" for a unit not chosen. A form
// with remainder_to values instead (one winner for all, or one per unit, as
// the API takes them) is read as it is.
func cutChoices(form url.Values, units int) []string {
	if v, ok := form["remainder_to"]; ok {
		return v
	}
	out := make([]string, units)
	for i := range out {
		out[i] = form.Get(templates.CutField(i))
	}
	return out
}

// cutFormFor is how many leftover units the posted form chose winners
// for, by the highest unit it names.
func cutFormFor(form url.Values) int {
	most := 0
	for k, v := range form {
		unit, ok := strings.CutPrefix(k, "remainder_to.") // templates.CutField
		n, err := strconv.Atoi(unit)
		if ok && err == nil && slices.ContainsFunc(v, func(s string) bool { return s != "" }) {
			most = max(most, n)
		}
	}
	return most
}

func (u ui) closeGame(c echo.Context) error {
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	ctx, id, loc := c.Request().Context(), gameID(c), u.localizer(c)
	now, err := u.svc.Snapshot(ctx, id)
	if err != nil {
		return u.problem(c, err)
	}
	units := now.Settlement().Undecided
	// The version whose settlement the page showed: an evening closed or
	// changed since (another phone) is not closed on numbers nobody saw.
	// A page's form always sends a number; anything else never matches.
	seen := int64(0)
	if raw, ok := form["seen"]; ok {
		if seen, err = strconv.ParseInt(strings.Join(raw, ""), 10, 64); err != nil || seen < 1 {
			seen = -1
		}
	}
	switch {
	case now.Closed != nil:
		return u.closeRefused(c, nil, loc.Error(tapp.Messages().Conflict("conflict.closed")), http.StatusConflict)
	case seen != 0 && seen != now.Version:
		return u.closeRefused(c, cutStill(form, units), loc.Error(tapp.Messages().Conflict("conflict.close-changed")), http.StatusConflict)
	case cutFormFor(form) > units:
		// The form asked about more leftover units than the pot now
		// leaves (a deal recorded on another phone since): its choices
		// are about another pot.
		return u.closeRefused(c, make([]string, units), loc.T("close.cut-changed", units), http.StatusUnprocessableEntity)
	}
	cut := cutChoices(form, units)
	winners := slices.DeleteFunc(slices.Clone(cut), func(name string) bool { return name == "" })
	if len(winners) > 0 && len(winners) < len(cut) {
		// Some units chosen, not all: one name would read as one winner
		// for all (rules.md), which is not what was tapped.
		return u.closeRefused(c, cut, loc.T("close.cut-each"), http.StatusUnprocessableEntity)
	}
	if _, shown := form["seen"]; shown && units > 0 && len(winners) == units && !slices.Equal(form["seen_cut"], winners) {
		// A cut whose payments the page did not show (chosen without the
		// script, or its answer lost): shown now, ended by the next tap.
		return u.closeRefused(c, cut, loc.T("close.cut-unseen"), http.StatusConflict)
	}
	if _, err = u.svc.Close(ctx, id, tapp.Close{RemainderTo: winners, Seen: seen}, form.Get("idempotency_key")); err == nil {
		return c.Redirect(http.StatusSeeOther, "/g/"+id)
	}
	if pe, ok := problem.As(err); ok && pe.Kind == problem.Conflict {
		// Changed or closed between the check above and the close.
		return u.closeRefused(c, cutStill(form, units), loc.Error(err), http.StatusConflict)
	}
	if !problem.IsKind(err, problem.Input) {
		return u.problem(c, err)
	}
	return u.closeRefused(c, cut, loc.Error(err), http.StatusUnprocessableEntity)
}

// cutStill is the cut posted, where it is still about the pot as it
// stands (as many leftover units), else none chosen.
func cutStill(form url.Values, units int) []string {
	if cutFormFor(form) > 0 && cutFormFor(form) != units {
		return make([]string, units)
	}
	return cutChoices(form, units)
}

// closeRefused shows the close form again with what was chosen and why
// it was refused.
func (u ui) closeRefused(c echo.Context, cut []string, why string, status int) error {
	p, l := u.page(c, "close.title")
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		v := closeView(p, l, g, cut, u.key)
		v.Error = why
		return render(c, status, templates.Close(v))
	})
}
