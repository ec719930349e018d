package web

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"
	"rsc.io/qr"

	"tappbook/internal/game"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// ui holds the phone UI's handlers: the same game service as the JSON API,
// rendered with templ in the reader's language.
type ui struct {
	svc         *game.Service
	i18n        *i18n.Bundle
	streams     <-chan struct{} // closed on shutdown: live streams end
	createLimit echo.MiddlewareFunc
	tables      *pageCache // rendered table pages, by what they depend on (pageKey)
	forms       formTokens // the forms' cross-site tokens
	heartbeat   time.Duration
	joinURLs    func() []string // where other phones reach the server, for the start page
}

func (u ui) routes(e *echo.Echo) {
	e.GET("/", u.home)
	e.GET("/new/:variant", u.newGameForm)
	e.POST("/new/:variant", u.newGame, u.createLimit)
	g := e.Group("/g/:id")
	g.GET("", u.table)
	g.GET("/record", u.recordForm)
	g.POST("/record", u.record)
	g.GET("/hands/:n", u.editForm)
	g.POST("/hands/:n", u.correct)
	g.POST("/hands/:n/void", u.void)
	g.GET("/close", u.closeForm)
	g.POST("/close", u.closeGame)
	g.GET("/audit", u.audit)
	g.GET("/events.json", u.eventsJSON)
	g.GET("/deals.csv", u.dealsCSV)
	g.GET("/share", u.share)
	g.GET("/live", u.live)
	g.POST("/herz-as", u.herzAs)
	g.POST("/herz-as/holder", u.herzAsHolder)
	u.groupRoutes(e)

	// The read-only link opens the reading pages only: nothing that writes
	// is routed under it.
	r := e.Group("/r/:token", resolveRead(u.svc, u.problem))
	r.GET("", u.readPage) // a game's read-only link or a group's (grouppages.go)
	r.GET("/audit", u.audit)
	r.GET("/events.json", u.eventsJSON)
	r.GET("/deals.csv", u.dealsCSV)
	r.GET("/live", u.live)
}

const (
	ctxGame     = "tappbook.game"
	ctxReadOnly = "tappbook.readonly"
)

// gameID is the game a request is about: from its id, or resolved from its
// read-only link.
func gameID(c echo.Context) string {
	if id, ok := c.Get(ctxGame).(string); ok {
		return id
	}
	return c.Param("id")
}

func readOnly(c echo.Context) bool { ro, _ := c.Get(ctxReadOnly).(bool); return ro }

// resolveRead opens a game by its read-only link; an unknown link is
// answered by fail.
func resolveRead(svc *game.Service, fail func(echo.Context, error) error) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			id, err := svc.ResolveRead(c.Request().Context(), c.Param("token"))
			if err != nil {
				return fail(c, err)
			}
			c.Set(ctxGame, id)
			c.Set(ctxReadOnly, true)
			return next(c)
		}
	}
}

const langCookie = "lang"

// page resolves the reader's language (a ?lang= choice, remembered in a
// cookie; else the cookie; else Accept-Language) and fills what every page
// needs.
func (u ui) page(c echo.Context, title string, args ...any) (templates.Page, i18n.Localizer) {
	if choice := c.QueryParam("lang"); choice != "" {
		c.SetCookie(&http.Cookie{Name: langCookie, Value: u.i18n.Match(choice, ""), Path: "/", MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode, HttpOnly: true})
	}
	loc := u.localizer(c)
	p := templates.Page{L: loc, Path: c.Request().URL.RequestURI(), Langs: i18n.Languages(), Forms: u.forms}
	switch {
	case readOnly(c):
		p.Base, p.ReadOnly = "/r/"+c.Param("token"), true
	case gameID(c) != "":
		p.GameID, p.Base = gameID(c), "/g/"+gameID(c)
	}
	p.Title = loc.T(title, args...)
	return p, loc
}

// render renders a page into memory, then sends it: a page that fails to
// render is answered as an error, never as half a page under a 200.
func render(c echo.Context, status int, t templ.Component) error {
	var b bytes.Buffer
	if err := t.Render(c.Request().Context(), &b); err != nil {
		return fmt.Errorf("render %s: %w", c.Path(), err)
	}
	return c.HTMLBlob(status, b.Bytes())
}

// formParams reads a posted form; one that cannot be read (a broken
// escape, a body cut short) is a 400, not a server error.
func formParams(c echo.Context) (url.Values, error) {
	v, err := c.FormParams()
	if err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			return nil, he
		}
		return nil, echo.NewHTTPError(http.StatusBadRequest, "the form could not be read; reload the page and try again")
	}
	return v, nil
}

// newKey makes a form's idempotency key: 128 random bits from crypto/rand,
// so that nobody can guess another phone's key.
func newKey() string { return rand.Text() }

func (u ui) home(c echo.Context) error {
	p, loc := u.page(c, "new.title")
	var vs []templates.Option
	for _, v := range payout.Variants() {
		vs = append(vs, templates.Option{Value: string(v), Label: loc.T("variant." + string(v))})
	}
	var join []templates.JoinView
	if u.joinURLs != nil {
		for _, addr := range u.joinURLs() {
			code, err := qr.Encode(addr, qr.M)
			if err != nil {
				return fmt.Errorf("start page: QR code of %s: %w", addr, err)
			}
			join = append(join, templates.JoinView{URL: addr, QR: qrPath(code)})
		}
	}
	return render(c, http.StatusOK, templates.Home(p, vs, join))
}

// newGameView fills the start form for a variant, with the defaults or what
// was typed.
func (u ui) newGameView(c echo.Context, v payout.Variant, form url.Values) templates.NewGameView {
	p, loc := u.page(c, "new.title-variant", u.localizer(c).T("variant."+string(v)))
	lo, hi := payout.PlayerCount(v)
	view := templates.NewGameView{Page: p, Variant: string(v), MinSeats: lo,
		Unit: templates.Field{Value: form.Get("unit")}, Currency: templates.Field{Value: form.Get("currency")},
		IdemKey: form.Get("idempotency_key")}
	if view.IdemKey == "" {
		view.IdemKey = newKey()
	}
	if form == nil {
		view.Unit.Value = "1"
	}
	names := form["player"]
	for i := range hi {
		f := templates.Field{}
		if i < len(names) {
			f.Value = names[i]
		}
		view.Seats = append(view.Seats, f)
	}
	view.Rules = ruleViews(loc, payout.Describe(v), form)
	return view
}

// localizer is the reader's language: a ?lang= choice, else the one remembered in
// a cookie, else the best of Accept-Language.
func (u ui) localizer(c echo.Context) i18n.Localizer {
	choice := c.QueryParam("lang")
	if choice == "" {
		if ck, err := c.Cookie(langCookie); err == nil {
			choice = ck.Value
		}
	}
	return u.i18n.For(u.i18n.Match(choice, c.Request().Header.Get("Accept-Language")))
}

func variantParam(c echo.Context) (payout.Variant, error) {
	return payout.ParseVariant(c.Param("variant"))
}

func (u ui) newGameForm(c echo.Context) error {
	v, err := variantParam(c)
	if err != nil {
		return u.problem(c, tapp.Messages().NotFound("notfound.variant", c.Param("variant")))
	}
	view := u.newGameView(c, v, nil)
	u.forGroup(c, &view, c.QueryParam("group"), true)
	return render(c, http.StatusOK, templates.NewGame(view))
}

func (u ui) newGame(c echo.Context) error {
	v, err := variantParam(c)
	if err != nil {
		return u.problem(c, tapp.Messages().NotFound("notfound.variant", c.Param("variant")))
	}
	form, err := formParams(c)
	if err != nil {
		return u.problem(c, err)
	}
	view := u.newGameView(c, v, form)
	u.forGroup(c, &view, form.Get("group"), false)
	loc := u.localizer(c)
	var players []string
	for _, name := range form["player"] {
		if name = strings.TrimSpace(name); name != "" {
			players = append(players, name)
		}
	}
	unit := strings.TrimSpace(form.Get("unit"))
	if norm, err := i18n.NormalizeAmount(unit); err == nil {
		unit = norm
	}
	rules, rerr := formRules(payout.Describe(v), form)
	var g *tapp.State
	if rerr == nil {
		g, err = u.svc.Create(c.Request().Context(), game.NewGame{Variant: string(v), Players: players, Unit: unit,
			Currency: form.Get("currency"), Rules: rules, Group: form.Get("group")}, form.Get("idempotency_key"))
	} else {
		err = rerr
	}
	if err != nil {
		ie, ok := problem.As(err)
		if !ok || ie.Kind != problem.Input {
			return u.problem(c, err)
		}
		msg := loc.Error(err)
		switch {
		case ie.Field == "unit":
			view.Unit.Error = msg
		case ie.Field == "currency":
			view.Currency.Error = msg
		default:
			found := false
			for i := range view.Rules {
				if "rules."+view.Rules[i].Name == ie.Field {
					view.Rules[i].Field.Error, found = msg, true
				}
			}
			if !found {
				view.Error = msg
			}
		}
		return render(c, http.StatusUnprocessableEntity, templates.NewGame(view))
	}
	return c.Redirect(http.StatusSeeOther, "/g/"+g.ID)
}

// typedAmount is an amount typed on a phone ("1,50") as a decimal string;
// text that is no amount stays as typed, for the rules to refuse with
// their own message.
func typedAmount(s string) string {
	if d, err := i18n.ParseAmount(s); err == nil {
		return d.String()
	}
	return s
}

// tableView fills the table page from a game.
// lastDeals is how many deals the table shows before "all deals".
const lastDeals = 20

func (u ui) tableView(p templates.Page, loc i18n.Localizer, g *tapp.State, all bool) templates.TableView {
	n := len(g.Setup.Players)
	next := g.NextDealer()
	v := templates.TableView{Page: p, Variant: string(g.Setup.Variant), VariantName: loc.T("variant." + string(g.Setup.Variant)),
		NextHand: g.NextHand(), Dealer: g.Setup.Players[next], Forehand: g.Setup.Players[(next+1)%n],
		HasPot: g.Variant().HasPot, Pot: loc.Num(g.Pot()), PotMoney: loc.Money(g.Money(g.Pot()), g.Currency, g.Places()),
		Closed: g.Closed != nil, Chart: chart(g)}
	if d := g.Damaged; d != nil {
		v.Damaged = loc.T("err.conflict.damaged", d.Seq, d.Version, d.Why)
	}
	for seat, name := range g.Setup.Players {
		b := g.Balance(seat)
		v.Players = append(v.Players, templates.PlayerView{Name: name, Seat: seat, Units: loc.Num(b),
			Money: loc.Money(g.Money(b), g.Currency, g.Places()), Dealer: seat == next && g.Closed == nil, Negative: b.IsNegative()})
	}
	// The last deals, newest first; all of them on request. Rendering every
	// explanation of a long evening on each refresh would make the table slow.
	shown := min(len(g.Hands()), lastDeals)
	if all {
		shown = len(g.Hands())
	}
	for i := len(g.Hands()) - 1; i >= len(g.Hands())-shown; i-- {
		v.Hands = append(v.Hands, handView(loc, g, g.Hands()[i]))
	}
	if shown < len(g.Hands()) {
		v.MoreDeals = len(g.Hands())
	}
	if g.Closed != nil {
		v.Transfers = transferViews(loc, g, g.Closed.Transfers)
	}
	if g.Pending != nil {
		v.Pending = loc.T("table.pending", g.Pending.Hand, loc.T("contract."+g.Pending.Record.Contract))
	}
	if g.Variant().EndsWithHerzAs {
		end := g.End()
		v.HerzAs.CanAnnounce = end.Phase == tapp.PhaseNone && len(g.Hands()) > 0
		v.Status = endStatus(loc, g, end)
		if end.Phase == tapp.PhaseHolder {
			v.HerzAs.AskHolder, v.HerzAs.HolderHand = true, end.Question
			for _, name := range g.Setup.Players {
				v.HerzAs.Players = append(v.HerzAs.Players, templates.Option{Value: name, Label: name})
			}
		}
	}
	return v
}

func endStatus(loc i18n.Localizer, g *tapp.State, end tapp.End) string {
	switch end.Phase {
	case tapp.PhaseAnnounced:
		return loc.T("herz.announced")
	case tapp.PhaseHolder:
		return loc.T("herz.ask")
	case tapp.PhaseLastRound:
		return loc.T("herz.last-round", end.LastRegular, g.Setup.Players[g.DealerOf(end.LastRegular)])
	case tapp.PhaseForced:
		return loc.T("herz.forced", end.Forced, len(g.Setup.Players))
	case tapp.PhaseDone:
		return loc.T("herz.done")
	}
	return ""
}

func handView(loc i18n.Localizer, g *tapp.State, h *tapp.Hand) templates.HandView {
	hv := templates.HandView{Number: h.Number, Dealer: g.Setup.Players[h.Dealer], Explanation: h.Result().Explanation().Render(loc),
		Voided: h.Voided, VoidReason: h.VoidReason}
	for _, d := range h.Result().Deltas() {
		s := loc.Num(d)
		if d.IsPositive() {
			s = "+" + s
		}
		hv.Deltas = append(hv.Deltas, s)
	}
	for _, r := range h.Revisions {
		at := r.At.UTC().Format("15:04")
		switch r.Kind {
		case tapp.TypeHandRecorded:
			hv.History = append(hv.History, loc.T("history.recorded", at, explainRevision(loc, r)))
		case tapp.TypeHandCorrect:
			hv.Corrected = true
			hv.History = append(hv.History, loc.T("history.corrected", at, r.Reason, explainRevision(loc, r)))
		case tapp.TypeHandVoided:
			hv.History = append(hv.History, loc.T("history.voided", at, r.Reason))
		case tapp.TypeHandRescored:
			hv.History = append(hv.History, loc.T("history.rescored", at, r.Cause, explainRevision(loc, r)))
		}
	}
	return hv
}

// explainRevision renders why a revision's result was what it was.
func explainRevision(loc i18n.Localizer, r tapp.Revision) string {
	if r.Result() == nil {
		return ""
	}
	return r.Result().Explanation().Render(loc)
}

func transferViews(loc i18n.Localizer, g *tapp.State, ts []tapp.Transfer) []templates.TransferView {
	var out []templates.TransferView
	for _, t := range ts {
		out = append(out, templates.TransferView{From: t.From, To: t.To, Amount: loc.Money(g.Money(t.Amount), g.Currency, g.Places())})
	}
	return out
}

// chart draws each player's running balance, deal by deal, in a 300 × 120
// box: x is the deal, y the balance, zero in between. Balances become
// floats here only as pixel positions, never as amounts; a long evening is
// drawn with at most chartPoints points per player.
func chart(g *tapp.State) templates.ChartView {
	const w, h, chartPoints = 300, 120, 150
	n := len(g.Setup.Players)
	var run [][]float64 // running balance after each counted deal, by seat
	cur := make([]decimal.Decimal, n)
	last := make([]string, n)
	start := make([]float64, n)
	run = append(run, start)
	lo, hi := 0.0, 0.0
	for _, hand := range g.Hands() {
		if hand.Voided {
			continue
		}
		row := make([]float64, n)
		for seat := range g.Setup.Players {
			cur[seat] = cur[seat].Add(hand.Result().Delta(seat))
			row[seat] = cur[seat].InexactFloat64()
			lo, hi = min(lo, row[seat]), max(hi, row[seat])
		}
		run = append(run, row)
	}
	steps := len(run) - 1
	if steps == 0 || lo == hi {
		return templates.ChartView{Empty: true}
	}
	y := func(v float64) float64 { return 2 + (hi-v)/(hi-lo)*(h-4) }
	every := max(1, steps/chartPoints)
	out := templates.ChartView{Width: w, Height: h, ZeroY: strconv.FormatFloat(y(0), 'f', 1, 64)}
	for seat, name := range g.Setup.Players {
		var b strings.Builder
		for i := 0; i <= steps; i += every {
			fmt.Fprintf(&b, "%.1f,%.1f ", float64(i*w)/float64(steps), y(run[i][seat]))
		}
		if steps%every != 0 {
			fmt.Fprintf(&b, "%d,%.1f", w, y(run[steps][seat]))
		}
		last[seat] = cur[seat].String()
		out.Lines = append(out.Lines, templates.ChartLine{Name: name, Seat: seat, Points: strings.TrimSpace(b.String()), Last: last[seat]})
	}
	return out
}

func (u ui) table(c echo.Context) error {
	p, loc := u.page(c, "table.title")
	// The page reads one query parameter: all. Its language links are
	// built from that alone, so that any other parameter changes nothing
	// and shares its cache entry.
	all := c.QueryParam("all") != ""
	view := "table"
	p.Path = p.Base
	if all {
		view, p.Path = "table?all", p.Base+"?all=1"
	}
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		key := pageKey{game: g.ID, version: g.Version, view: view, base: p.Base, lang: loc.Lang()}
		page, ok := u.tables.get(key)
		if !ok {
			v := u.tableView(p, loc, g, all)
			v.Mine, v.GroupName = u.eveningMine(c, p, loc, g)
			v.Title = v.VariantName
			var b bytes.Buffer
			if err := templates.Table(v).Render(c.Request().Context(), &b); err != nil {
				return err
			}
			page = b.Bytes()
			u.tables.put(key, page)
		}
		return c.HTMLBlob(http.StatusOK, page)
	})
	if err != nil {
		return u.problem(c, err)
	}
	return nil
}
