package web

import (
	"cmp"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
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
	"tappbook/internal/signing"
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
	joinURLs    func() []string     // where other phones reach the server, for the start page
	reach       Reach               // the public address links name
	metrics     *Metrics            // live streams counted; nil: none
	log         *slog.Logger        // server errors a page answers itself (the error handler logs the rest)
	heavy       echo.MiddlewareFunc // the builds of long pages, bounded (heavy.go)
	key         *signing.Key        // signs receipts
	explained   *explained          // deals' explanations, said once
	rows        *rows               // the table page's deal rows, rendered once (nil: each time)
	sums        *chartSums          // evenings' running totals, added up once
}

func (u ui) routes(e *echo.Echo) {
	e.GET("/", u.home)
	e.GET("/new/:variant", u.newGameForm)
	e.POST("/new/:variant", u.newGame, u.createLimit)
	g := e.Group("/g/:id")
	g.GET("", u.table)
	g.GET("/record", u.recordForm)
	g.POST("/record", u.record)
	g.GET("/record/forms", u.recordForms)
	g.GET("/hands/:n", u.editForm)
	g.POST("/hands/:n", u.correct)
	g.POST("/hands/:n/void", u.void)
	g.GET("/close", u.closeForm)
	u.payRoutes(g) // paying what the close says (paypage.go)
	g.POST("/close", u.closeGame)
	g.POST("/reopen", u.reopen)
	g.GET("/reopen", seeOther(func(c echo.Context) string { return "/g/" + c.Param("id") + "/close" }))
	g.GET("/audit", u.audit, u.heavy)
	g.GET("/stood", u.stood, u.heavy)
	g.GET("/events.json", u.eventsJSON, u.heavy)
	g.GET("/deals.csv", u.dealsCSV, u.heavy)
	g.GET("/share", u.share)
	g.GET("/receipt", u.receiptFile)
	g.GET("/report", u.report)
	g.GET("/report.png", u.reportPNG)
	g.GET("/live", u.live)
	g.GET("/board", u.board)
	g.POST("/hands/:n/undo", u.undo)
	g.POST("/hands/:n/redo", u.redo)
	g.GET("/herz-as", u.herzAsConfirm)
	g.POST("/herz-as", u.herzAs)
	g.POST("/herz-as/holder", u.herzAsHolder)
	g.GET("/herz-as/withdraw", u.herzAsWithdrawConfirm)
	g.POST("/herz-as/withdraw", u.herzAsWithdraw)
	// A post's address asked with a GET (a reload of a refused post's page,
	// a language link) goes to the page the post came from.
	g.GET("/hands/:n/void", seeOther(func(c echo.Context) string { return "/g/" + c.Param("id") + "/hands/" + c.Param("n") }))
	g.GET("/hands/:n/undo", seeOther(func(c echo.Context) string { return "/g/" + c.Param("id") }))
	g.GET("/hands/:n/redo", seeOther(func(c echo.Context) string { return "/g/" + c.Param("id") }))
	g.GET("/herz-as/holder", seeOther(func(c echo.Context) string { return "/g/" + c.Param("id") }))
	u.groupRoutes(e)

	// The read-only link opens the reading pages only: nothing that writes
	// is routed under it.
	r := e.Group("/r/:token", resolveRead(u.svc, u.problem))
	r.GET("", u.readPage) // a game's read-only link or a group's (group_show.go)
	r.GET("/audit", u.audit, u.heavy)
	r.GET("/stood", u.stood, u.heavy)
	r.GET("/events.json", u.eventsJSON, u.heavy)
	r.GET("/deals.csv", u.dealsCSV, u.heavy)
	r.GET("/receipt", u.receiptFile)
	r.GET("/report", u.readReport) // a game's or a group's (readreport.go)
	r.GET("/report.png", u.readReportPNG)
	r.GET("/live", u.live)
	r.GET("/board", u.board)
}

// seeOther answers a GET with a redirect to the page at to(c), the
// query (language, theme) kept.
func seeOther(to func(echo.Context) string) echo.HandlerFunc {
	return func(c echo.Context) error {
		target := to(c)
		if q := c.QueryString(); q != "" {
			target += "?" + q
		}
		return c.Redirect(http.StatusSeeOther, target)
	}
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

const (
	langCookie  = "lang"
	themeCookie = "theme"
)

// remember keeps a reader's choice (language, theme) for a year in a
// cookie for the app's paths. Only the server reads it (HttpOnly); Lax,
// so that a link shared in a messenger opens in the reader's language;
// Secure when the browser came over HTTPS, so that it never leaves over
// plain HTTP, but not on plain HTTP, where the browser would drop it.
func (u ui) remember(c echo.Context, name, value string) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: u.reach.Root() + "/", MaxAge: 365 * 24 * 3600,
		SameSite: http.SameSiteLaxMode, HttpOnly: true, Secure: u.reach.secure(c)})
}

// theme is the reader's choice of colours: a ?theme= choice (auto, light,
// dark), remembered in a cookie; "" follows the phone's dark mode.
func (u ui) theme(c echo.Context) string {
	choice := c.QueryParam("theme")
	if choice == "" {
		if ck, err := c.Cookie(themeCookie); err == nil {
			choice = ck.Value
		}
	}
	switch choice {
	case "light", "dark":
	default:
		choice = "" // "auto", or anything else: the phone's dark mode
	}
	if c.QueryParam("theme") != "" {
		u.remember(c, themeCookie, cmp.Or(choice, "auto"))
	}
	return choice
}

// page resolves the reader's language (a ?lang= choice, remembered in a
// cookie; else the cookie; else Accept-Language) and fills what every page
// needs.
func (u ui) page(c echo.Context, title string, args ...any) (templates.Page, i18n.Localizer) {
	if choice := c.QueryParam("lang"); choice != "" {
		u.remember(c, langCookie, u.i18n.Match(choice, ""))
	}
	loc := u.localizer(c)
	root := u.reach.Root()
	p := templates.Page{L: loc, Root: root, Path: root + c.Request().URL.RequestURI(), Langs: i18n.Languages(), Forms: u.forms, Theme: u.theme(c)}
	switch {
	case readOnly(c):
		p.Base, p.ReadOnly = root+"/r/"+c.Param("token"), true
	case gameID(c) != "" && !onGroup(c):
		p.GameID, p.Base = gameID(c), root+"/g/"+gameID(c)
	}
	p.Title = loc.T(title, args...)
	return p, loc
}

// render renders a page into memory, then sends it: a page that fails to
// render is answered as an error, never as half a page under a 200.
func render(c echo.Context, status int, t templ.Component) error {
	b := templ.GetBuffer() // written out before it is given back
	defer templ.ReleaseBuffer(b)
	if err := t.Render(c.Request().Context(), b); err != nil {
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
	d := payout.Describe(v)
	if form == nil {
		view.Unit.Value = "1"
		if d.DefaultUnit != "" {
			view.Unit.Value = loc.Num(decimal.RequireFromString(d.DefaultUnit))
		}
	}
	view.UnitText = loc.T("new.unit")
	if d.UnitName != "" {
		view.UnitText = loc.T("new.unit-" + d.UnitName)
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
	_, seats := payout.PlayerCount(v)
	seatsFromLineUp(form, seats)
	view := u.newGameView(c, v, form)
	u.forGroup(c, &view, form.Get("group"), false)
	loc := u.localizer(c)
	if checkStart(loc, payout.Describe(v), form, &view) {
		return render(c, http.StatusUnprocessableEntity, templates.NewGame(view))
	}
	players, unit := playersAndUnit(form)
	if u.askNewcomers(c, form, players, &view) {
		return render(c, http.StatusOK, templates.NewGame(view))
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

// thousands refuses an amount typed in field that could be a thousand or
// a decimal ("1,000", "1.000"): read as typed, the rules would take it for
// a decimal, whatever was meant.
func thousands(field, typed string) error {
	if i18n.Ambiguous(typed) {
		return payout.Messages().Input(field, "amount.thousands", field, strings.TrimSpace(typed))
	}
	return nil
}

// playersAndUnit reads a start form's players (the seats filled in, in
// order) and its unit (written the local way, "0,50", or as typed when it
// is no amount, for the rules to refuse in words).
func playersAndUnit(form url.Values) ([]string, string) {
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
	return players, unit
}
