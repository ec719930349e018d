package web

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/signing"
	"tappbook/internal/tapp"
)

// api holds the JSON handlers of docs/api.md.
type api struct {
	svc         *game.Service
	createLimit echo.MiddlewareFunc
	heavy       echo.MiddlewareFunc // the builds of long answers, bounded (heavy.go)
	key         *signing.Key        // signs receipts
}

func (a api) routes(e *echo.Echo) {
	g := e.Group("/api/games")
	g.POST("", a.createGame, a.createLimit)
	g.GET("/:id", a.getGame)
	g.POST("/:id/hands", a.recordHand)
	g.GET("/:id/hands", a.listHands)
	g.PUT("/:id/hands/:n", a.correctHand)
	g.POST("/:id/hands/:n/void", a.voidHand)
	g.POST("/:id/hands/:n/retract", a.retractHand)
	g.GET("/:id/ledger", a.ledger)
	g.GET("/:id/events", a.events, a.heavy)
	g.POST("/:id/close", a.closeGame)
	g.POST("/:id/reopen", a.reopenGame)
	g.GET("/:id/receipt", a.receipt)
	e.GET("/api/receipt-key", a.receiptKey)
	// Recording a deal step by step (an addition to api.md, for the phone UI).
	g.GET("/:id/deal", a.pendingDeal)

	// The read-only link reads and never writes.
	r := e.Group("/api/r/:token", resolveRead(a.svc, func(_ echo.Context, err error) error { return err }))
	r.GET("", a.readLink) // a game's read-only link or a group's (api_group_get.go)
	r.GET("/ledger", a.ledger)
	r.GET("/hands", a.listHands)
	r.GET("/events", a.events, a.heavy)
	r.GET("/settlement", a.settlement)
	r.GET("/witness", a.witness)
	r.GET("/receipt", a.receipt)
	g.POST("/:id/deal/announce", a.announce)
	g.POST("/:id/deal/kontra", a.kontra)
	g.POST("/:id/deal/matzl", a.matzl)
	g.POST("/:id/deal/count", a.count)
	g.GET("/:id/settlement", a.settlement)
	// Phones as witnesses: does the history still hold what a phone saw?
	g.GET("/:id/witness", a.witness)
	// The end of a Württemberg evening (api.md).
	g.POST("/:id/herz-as", a.herzAs)
	g.POST("/:id/herz-as/holder", a.herzAsHolder)
	g.POST("/:id/herz-as/withdraw", a.withdrawHerzAs)
	a.groupRoutes(e)
	a.payRoutes(e)
}

// writeJSON renders the answer into memory before anything is sent: a
// status is never written for an answer that then fails.
func writeJSON(c echo.Context, status int, v any) error {
	b, err := encodeJSON(v)
	if err != nil {
		return fmt.Errorf("encode the answer: %w", err)
	}
	return c.JSONBlob(status, append(b, '\n'))
}

// encodeJSON encodes an answer: by its own AppendJSON when it has one
// (answer.go), else, or when that declines, by encoding/json.
func encodeJSON(v any) ([]byte, error) {
	if a, ok := v.(interface {
		AppendJSON([]byte) ([]byte, error)
	}); ok {
		if b, err := a.AppendJSON(make([]byte, 0, 1024)); err == nil {
			return b, nil
		}
	}
	return json.Marshal(v)
}

const idempotencyHeader = "Idempotency-Key"

// checkIdempotencyKey refuses, before anything runs, an API request whose
// Idempotency-Key is not one key of 1–255 printable ASCII characters. (A
// group's middleware would turn the group's 405s into 404s.)
func checkIdempotencyKey(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !strings.HasPrefix(c.Request().URL.Path, "/api/") {
			return next(c)
		}
		if err := game.CheckKeys(c.Request().Header.Values(idempotencyHeader)); err != nil {
			return err
		}
		return next(c)
	}
}

type createBody struct {
	Variant  string                     `json:"variant"`
	Players  []string                   `json:"players"`
	Unit     json.RawMessage            `json:"unit"`
	Currency string                     `json:"currency"`
	Rules    map[string]json.RawMessage `json:"rules"`
	Group    string                     `json:"group"` // an evening of this group (api_groups.go)
}

type gameJSON struct {
	ID       string         `json:"id,omitempty"` // never given through the read-only link
	ReadID   string         `json:"read_id"`      // the key of the read-only link
	Variant  payout.Variant `json:"variant"`
	Players  []string       `json:"players"`
	Unit     string         `json:"unit"`
	Currency string         `json:"currency"`
	Rules    map[string]any `json:"rules"`
	Group    string         `json:"group,omitempty"`
	End      *endJSON       `json:"end,omitempty"`
}

func gameOut(g *tapp.State) gameJSON {
	return gameJSON{ID: g.ID, ReadID: g.ReadID, Variant: g.Setup.Variant, Players: g.Setup.Players, Unit: g.UnitText,
		Currency: g.Currency, Rules: g.Setup.Rules.RulesMap(g.Setup.Variant), Group: g.Group, End: endOut(g)}
}

func (a api) createGame(c echo.Context) error {
	var b createBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	unit, err := unitText(b.Unit)
	if err != nil {
		return err
	}
	ng := game.NewGame{Variant: b.Variant, Players: b.Players, Unit: unit, Currency: b.Currency, Rules: b.Rules, Group: b.Group}
	g, err := a.svc.Create(c.Request().Context(), ng, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, gameOut(g))
}

// unitText takes the unit as a decimal string and keeps it as written, so
// that "0.50" keeps its two places.
func unitText(raw json.RawMessage) (string, error) { return amountAsWritten(raw, "unit", "0.50") }

// amountAsWritten takes an amount field as a decimal string, as written;
// "" when absent. A JSON number is refused (api.md: amounts are decimal
// strings, never JSON numbers): most clients write one from a float, and
// 0.1 + 0.2 arrives as 0.30000000000000004. The message gives the number
// back as the string meant. Another JSON value is malformed, with an
// example of what is meant.
func amountAsWritten(raw json.RawMessage, field, example string) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		// The string meant, written out (1e-2 as "0.01": an exponent is
		// refused in a string too), unless it is too long to repeat.
		d, err := decimal.NewFromString(n.String())
		if err != nil || len(n) > 40 || d.Exponent() < -40 || d.Exponent() > 40 || len(d.String()) > 40 {
			return "", malformed(fmt.Sprintf("%s: must be a decimal string, such as %q, not a JSON number, so that nothing is lost to floats", field, example))
		}
		return "", malformed(fmt.Sprintf("%s: must be a decimal string, such as %q, not the JSON number %s, so that nothing is lost to floats", field, d.String(), n.String()))
	}
	kind := map[byte]string{'t': "a boolean", 'f': "a boolean", '[': "a list", '{': "an object"}[raw[0]]
	return "", malformed(fmt.Sprintf("%s: must be an amount such as %q, not %s", field, example, cmp.Or(kind, "that")))
}

func (a api) getGame(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		out := gameOut(g)
		if readOnly(c) {
			out.ID, out.Group = "", "" // a group's id writes to it
		}
		return writeJSON(c, http.StatusOK, out)
	})
}

// handBody is a deal as api.md posts it: the record and the two optional
// checks (and, for a correction, why).
type handBody struct {
	payout.Record
	Dealer       *string `json:"dealer"`
	ExpectedHand *int    `json:"expected_hand"`
	Reason       *string `json:"reason"`
	// ExpectedRevisions, for a correction: the deal's "revisions" when the
	// client read it; another client's correction since → 409.
	ExpectedRevisions *int `json:"expected_revisions"`
	// ExpectedChanges, for a correction: the deal's "changes" when the
	// client read it; another client's correction or void since → 409.
	ExpectedChanges *int `json:"expected_changes"`
}

// newDeal refuses, for a deal not recorded yet, what only a correction
// takes: a reason and the checks against what was read of the deal.
func (b handBody) newDeal() error {
	switch {
	case b.Reason != nil:
		return unknownField("reason")
	case b.ExpectedRevisions != nil:
		return unknownField("expected_revisions")
	case b.ExpectedChanges != nil:
		return unknownField("expected_changes")
	}
	return nil
}

type handAnswerJSON struct {
	Hand        int                        `json:"hand"`
	Dealer      string                     `json:"dealer"`
	Deltas      map[string]decimal.Decimal `json:"deltas"`
	PotDelta    decimal.Decimal            `json:"pot_delta"`
	Pot         decimal.Decimal            `json:"pot"`
	Explanation string                     `json:"explanation"`
	Detail      json.RawMessage            `json:"detail"`
}

func answerOut(a game.HandAnswer) handAnswerJSON {
	return handAnswerJSON{Hand: a.Hand, Dealer: a.Dealer, Deltas: a.Scored.Deltas, PotDelta: a.Scored.PotDelta,
		Pot: a.PotAfter, Explanation: a.Scored.Text, Detail: a.Scored.Explanation}
}

func (a api) recordHand(c echo.Context) error {
	var b handBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if err := b.newDeal(); err != nil {
		return err
	}
	ans, err := a.svc.Record(c.Request().Context(), gameID(c), b.Record,
		game.Checks{Dealer: b.Dealer, ExpectedHand: b.ExpectedHand}, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, answerOut(ans))
}

// handNumber reads a deal's number from the path, written the one way
// deals are numbered: 1, 2, … ("+1", "01", " 1" or "1.0" name no deal).
func handNumber(c echo.Context) (int, error) {
	n, ok := ordinal(c.Param("n"))
	if !ok {
		return 0, tapp.Messages().NotFound("notfound.hand-number", c.Param("n"))
	}
	return n, nil
}

// ordinal reads a number that counts from 1 (a deal's, a payment's),
// written only the way it is shown.
func ordinal(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 1 && strconv.Itoa(n) == s
}

func (a api) correctHand(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return err
	}
	var b handBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	reason := ""
	if b.Reason != nil {
		reason = *b.Reason
	}
	ans, err := a.svc.Correct(c.Request().Context(), gameID(c), n, b.Record, reason,
		game.Checks{Dealer: b.Dealer, ExpectedHand: b.ExpectedHand, Entered: b.ExpectedRevisions, Changes: b.ExpectedChanges}, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, answerOut(ans))
}

func (a api) voidHand(c echo.Context) error {
	return reasoned(c, handNumber, func(ctx context.Context, n int, reason, key string) (map[string]any, error) {
		return map[string]any{"hand": n, "voided": true}, a.svc.Void(ctx, gameID(c), n, reason, key)
	})
}

// reasoned is the one shape of the actions that take back a numbered
// thing with a reason (a hand's void and retract, a payment's void): the
// number from the path, {"reason"} from the body, the call, its answer.
func reasoned(c echo.Context, number func(echo.Context) (int, error), do func(ctx context.Context, n int, reason, key string) (map[string]any, error)) error {
	n, err := number(c)
	if err != nil {
		return err
	}
	var b struct {
		Reason string `json:"reason"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	out, err := do(c.Request().Context(), n, b.Reason, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, out)
}
