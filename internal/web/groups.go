package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/group"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// groupRoutes are the Groups endpoints of api.md, with a few additions:
// members, the payments and events of a group, its export, and the next
// evening of a table.
func (a api) groupRoutes(e *echo.Echo) {
	g := e.Group("/api/groups")
	g.POST("", a.createGroup, a.createLimit)
	g.GET("/:id", a.getGroup)
	g.POST("/:id/members", a.addMembers)
	g.GET("/:id/tab", a.tab)
	g.GET("/:id/stats", a.stats)
	g.GET("/:id/payments", a.payments)
	g.POST("/:id/payments", a.recordPayment)
	g.POST("/:id/payments/:n/void", a.voidPayment)
	g.GET("/:id/events", a.groupEvents)
	g.GET("/:id/export", a.exportGroup)
	e.POST("/api/games/:id/again", a.again, a.createLimit)

	// A group's read-only link reads and never writes; GET /api/r/{read
	// id} itself is readLink, for a game's link or a group's.
	r := e.Group("/api/r/:token", resolveRead(a.svc, func(_ echo.Context, err error) error { return err }))
	r.GET("/tab", a.tab)
	r.GET("/stats", a.stats)
	r.GET("/payments", a.payments)
}

// groupID is the group a request is about: from its id, or resolved from
// its read-only link.
func groupID(c echo.Context) string { return gameID(c) }

// onGroup reports whether the request is to a group's page, whose :id is
// a group's, not a game's.
func onGroup(c echo.Context) bool { return strings.HasPrefix(c.Path(), "/groups/:id") }

func (a api) groups() *game.Groups { return a.svc.Groups() }

// readLink answers GET /api/r/{read id}: the game a game's read-only key
// opens (looked for first: games are read most, and from memory), else the
// group.
func (a api) readLink(c echo.Context) error {
	if _, err := a.svc.Snapshot(c.Request().Context(), gameID(c)); err == nil {
		return a.getGame(c)
	}
	return a.getGroup(c)
}

type groupJSON struct {
	ID       string        `json:"id,omitempty"` // never given through the read-only link
	ReadID   string        `json:"read_id"`
	Name     string        `json:"name"`
	Players  []string      `json:"players"`
	Unit     string        `json:"unit"`
	Currency string        `json:"currency"`
	Evenings []eveningJSON `json:"evenings"`
}

// eveningJSON is one evening of a group. Through the read-only link it
// gives the evening's read-only key alone.
type eveningJSON struct {
	ID      string            `json:"id,omitempty"`
	ReadID  string            `json:"read_id"`
	Variant payout.Variant    `json:"variant"`
	Players []string          `json:"players"`
	Started time.Time         `json:"started"`
	Closed  bool              `json:"closed"`
	Money   map[string]string `json:"money"`
	Hands   int               `json:"hands"`
}

// groupOut is a group with its evenings, newest first; an evening whose
// game never started is not one.
func groupOut(v game.View, readOnly bool) groupJSON {
	st := v.Group
	out := groupJSON{ID: st.ID, ReadID: st.ReadID, Name: st.Name, Players: st.MemberNames(), Unit: st.UnitText,
		Currency: st.Currency, Evenings: []eveningJSON{}}
	if readOnly {
		out.ID = ""
	}
	for i := len(v.Games) - 1; i >= 0; i-- {
		g := v.Games[i]
		if g == nil {
			continue
		}
		ev := eveningJSON{ID: g.ID, ReadID: g.ReadID, Variant: g.Setup.Variant, Players: g.Setup.Players,
			Started: g.StartedAt, Closed: g.Closed != nil, Hands: len(g.Hands())}
		if readOnly {
			ev.ID = ""
		}
		_, ev.Money = balancesOut(g, g.Balances())
		out.Evenings = append(out.Evenings, ev)
	}
	return out
}

type createGroupBody struct {
	Name     string          `json:"name"`
	Players  []string        `json:"players"`
	Unit     json.RawMessage `json:"unit"`
	Currency string          `json:"currency"`
}

func (a api) createGroup(c echo.Context) error {
	var b createGroupBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	unit, err := unitText(b.Unit)
	if err != nil {
		return err
	}
	st, err := a.groups().CreateGroup(c.Request().Context(), group.Start{Name: b.Name, Players: b.Players, Unit: unit, Currency: b.Currency},
		c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, groupOut(game.View{Group: st}, false))
}

func (a api) getGroup(c echo.Context) error {
	v, err := a.groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, groupOut(v, readOnly(c)))
}

func (a api) addMembers(c echo.Context) error {
	var b struct {
		Players []string `json:"players"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if _, err := a.groups().AddMembers(c.Request().Context(), groupID(c), b.Players, c.Request().Header.Get(idempotencyHeader)); err != nil {
		return err
	}
	return a.getGroup(c)
}

type tabJSON struct {
	Owed      map[string]string `json:"owed"`
	Transfers []transferJSON    `json:"transfers"`
	Evenings  int               `json:"evenings"` // the closed evenings counted
	Currency  string            `json:"currency"`
	Cash      *cashJSON         `json:"cash,omitempty"`
	// Unconfirmed: the payments sent whose payees have not yet said they
	// arrived; the tab counts them already.
	Unconfirmed []int `json:"unconfirmed"`
}

// cashJSON: the suggested transfers rounded to what can be paid in cash,
// where the currency's coins stop above its minor unit.
type cashJSON struct {
	Step      string         `json:"step"`
	Transfers []transferJSON `json:"transfers"`
}

// tabOut is the tab as api.md shows it: amounts with the group's places.
func tabOut(st *group.State, t group.Tab) tabJSON {
	places := st.Places()
	out := tabJSON{Owed: map[string]string{}, Transfers: transfersOut(t.Transfers, places), Evenings: t.Evenings, Currency: st.Currency}
	for i, name := range t.Names {
		out.Owed[name] = t.Owed[i].StringFixed(places)
	}
	if step, ok := group.CashStep(st.Currency); ok {
		out.Cash = &cashJSON{Step: step.StringFixed(places), Transfers: transfersOut(group.CashTransfers(t.Names, t.Owed, step), places)}
	}
	return out
}

func transfersOut(ts []tapp.Transfer, places int32) []transferJSON {
	out := []transferJSON{}
	for _, t := range ts {
		out = append(out, transferJSON{From: t.From, To: t.To, Amount: t.Amount.StringFixed(places)})
	}
	return out
}

func (a api) tab(c echo.Context) error {
	v, err := a.groups().View(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	out := tabOut(v.Group, v.Group.Tab(v.Games))
	withTabPay(v.Group, &out, time.Now(), !readOnly(c))
	return writeJSON(c, http.StatusOK, out)
}

type paymentJSON struct {
	Payment    int        `json:"payment"`
	From       string     `json:"from"`
	To         string     `json:"to"`
	Amount     string     `json:"amount"`
	Note       string     `json:"note"`
	At         *time.Time `json:"at,omitempty"`
	Voided     *bool      `json:"voided,omitempty"`
	VoidReason string     `json:"void_reason,omitempty"`
	// State "paid": sent, its payee is to confirm; "confirmed" once they
	// did; "" for a payment recorded as made.
	State       string `json:"state,omitempty"`
	ConfirmedBy string `json:"confirmed_by,omitempty"`
}

// paymentOut is a payment as the API lists it.
func paymentOut(p *group.Payment, places int32) paymentJSON {
	voided := p.Voided
	out := paymentJSON{Payment: p.Number, From: p.From, To: p.To, Amount: p.Amount.StringFixed(places),
		Note: p.Note, At: &p.At, Voided: &voided, VoidReason: p.VoidReason, State: p.State, ConfirmedBy: p.ConfirmedBy}
	if p.ConfirmedBy != "" {
		out.State = "confirmed"
	}
	return out
}

func (a api) recordPayment(c echo.Context) error {
	var b struct {
		From   string          `json:"from"`
		To     string          `json:"to"`
		Amount json.RawMessage `json:"amount"`
		Note   string          `json:"note"`
		State  string          `json:"state"` // "paid": its payee is to confirm it
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	amount, err := amountAsWritten(b.Amount, "amount", "3.50")
	if err != nil {
		return err
	}
	p, err := a.groups().RecordPayment(c.Request().Context(), groupID(c), group.RecordPayment{From: b.From, To: b.To, Amount: amount, Note: b.Note, State: b.State},
		c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	st, err := a.groups().Snapshot(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, paymentJSON{Payment: p.Payment, From: p.From, To: p.To, Amount: p.Amount.StringFixed(st.Places()), Note: p.Note, State: p.State})
}

// paymentNumber reads a payment's number from the path, written the one
// way payments are numbered: 1, 2, …
func paymentNumber(c echo.Context) (int, error) {
	n, ok := ordinal(c.Param("n"))
	if !ok {
		return 0, group.Messages().NotFound("notfound.payment-number", c.Param("n"))
	}
	return n, nil
}

func (a api) voidPayment(c echo.Context) error {
	return reasoned(c, paymentNumber, func(ctx context.Context, n int, reason, key string) (map[string]any, error) {
		return map[string]any{"payment": n, "voided": true}, a.groups().VoidPayment(ctx, groupID(c), n, reason, key)
	})
}

func (a api) payments(c echo.Context) error {
	st, err := a.groups().Snapshot(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	out := []paymentJSON{}
	for _, p := range st.Payments() {
		out = append(out, paymentOut(p, st.Places()))
	}
	return writeJSON(c, http.StatusOK, out)
}

func (a api) groupEvents(c echo.Context) error {
	evs, err := a.groups().Events(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, eventsOut(evs))
}

// exportGroup downloads the group with its evenings as `tappbook import`
// reads it.
func (a api) exportGroup(c echo.Context) error {
	if _, err := a.groups().Snapshot(c.Request().Context(), groupID(c)); err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := game.Export(c.Request().Context(), a.svc.Store(), groupID(c), a.key, &b); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="tappbook-group-`+groupID(c)+`.jsonl"`)
	return c.Blob(http.StatusOK, "application/jsonl; charset=utf-8", b.Bytes())
}

// again starts the next evening of the same table (game.Service.Again).
func (a api) again(c echo.Context) error {
	g, err := a.svc.Again(c.Request().Context(), gameID(c), c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, gameOut(g))
}

// readableEvents keeps a game's events from giving the key of its group
// to a read-only reader: the group's id writes, so it is taken out of the
// game's first event (whose hash then no longer matches what is shown).
func readableEvents(c echo.Context, evs []events.Event) []events.Event {
	if !readOnly(c) || len(evs) == 0 || evs[0].Type != tapp.TypeGameStarted {
		return evs
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(evs[0].Data, &data); err != nil || data["group"] == nil {
		return evs
	}
	delete(data, "group")
	b, err := json.Marshal(data)
	if err != nil {
		return evs
	}
	evs = slices.Clone(evs)
	evs[0].Data = b
	return evs
}
