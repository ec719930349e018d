package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// api holds the JSON handlers of ../shared/api.md.
type api struct {
	svc         *game.Service
	createLimit echo.MiddlewareFunc
}

func (a api) routes(e *echo.Echo) {
	g := e.Group("/api/games")
	g.POST("", a.createGame, a.createLimit)
	g.GET("/:id", a.getGame)
	g.POST("/:id/hands", a.recordHand)
	g.GET("/:id/hands", a.listHands)
	g.PUT("/:id/hands/:n", a.correctHand)
	g.POST("/:id/hands/:n/void", a.voidHand)
	g.GET("/:id/ledger", a.ledger)
	g.GET("/:id/events", a.events)
	g.POST("/:id/close", a.closeGame)
	// Recording a deal step by step (an addition to api.md, for the phone UI).
	g.GET("/:id/deal", a.pendingDeal)

	// The read-only link reads and never writes.
	r := e.Group("/api/r/:token", resolveRead(a.svc, func(_ echo.Context, err error) error { return err }))
	r.GET("", a.getGame)
	r.GET("/ledger", a.ledger)
	r.GET("/hands", a.listHands)
	r.GET("/events", a.events)
	r.GET("/settlement", a.settlement)
	g.POST("/:id/deal/announce", a.announce)
	g.POST("/:id/deal/kontra", a.kontra)
	g.POST("/:id/deal/matzl", a.matzl)
	g.POST("/:id/deal/count", a.count)
	g.GET("/:id/settlement", a.settlement)
	// The end of a Württemberg evening (api.md).
	g.POST("/:id/herz-as", a.herzAs)
	g.POST("/:id/herz-as/holder", a.herzAsHolder)
	g.POST("/:id/herz-as/withdraw", a.withdrawHerzAs)
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

// endJSON is api.md's end object of a Württemberg evening, with what the
// phone UI also shows (the phase, the deal the ♥A question is about, the
// deals whose ♥A lay in the tapp).
type endJSON struct {
	AnnouncedAfter    int     `json:"announced_after"`
	Holder            *string `json:"holder"`
	LastRegularHand   *int    `json:"last_regular_hand"`
	ZwangsramschHands []int   `json:"zwangsramsch_hands"`
	Over              bool    `json:"over"`
	Phase             string  `json:"phase"`
	QuestionHand      *int    `json:"question_hand,omitempty"`
	InTapp            []int   `json:"in_tapp,omitempty"`
}

// endOut is the end of the evening as api.md shows it; nil until Herz-As.
func endOut(g *tapp.State) *endJSON {
	if g.HerzAs == nil {
		return nil
	}
	e := g.End()
	out := &endJSON{AnnouncedAfter: e.AnnouncedAfter, ZwangsramschHands: e.Zwangsramsch, Over: e.Over(), Phase: e.Phase, InTapp: e.InTapp}
	if e.Holder != "" {
		out.Holder = &e.Holder
	}
	if e.LastRegular > 0 {
		out.LastRegularHand = &e.LastRegular
	}
	if e.Question > 0 {
		out.QuestionHand = &e.Question
	}
	return out
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
	ng := game.NewGame{Variant: b.Variant, Players: b.Players, Unit: unit, Currency: b.Currency, Rules: b.Rules}
	g, err := a.svc.Create(c.Request().Context(), ng, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, gameOut(g))
}

// unitText takes the unit as a decimal string or a JSON number and keeps
// it as written, so that "0.50" keeps its two places.
func unitText(raw json.RawMessage) (string, error) {
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
		return n.String(), nil
	}
	return "", malformed("unit must be an amount such as \"0.50\"")
}

func (a api) getGame(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		out := gameOut(g)
		if readOnly(c) {
			out.ID = ""
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
	if b.Reason != nil {
		return unknownField("reason")
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
	s := c.Param("n")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || strconv.Itoa(n) != s {
		return 0, tapp.Messages().NotFound("notfound.hand-number", s)
	}
	return n, nil
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
		game.Checks{Dealer: b.Dealer, ExpectedHand: b.ExpectedHand}, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, answerOut(ans))
}

func (a api) voidHand(c echo.Context) error {
	n, err := handNumber(c)
	if err != nil {
		return err
	}
	var b struct {
		Reason string `json:"reason"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	if err := a.svc.Void(c.Request().Context(), gameID(c), n, b.Reason, c.Request().Header.Get(idempotencyHeader)); err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"hand": n, "voided": true})
}

type ledgerJSON struct {
	Hands    int                        `json:"hands"`
	Counted  int                        `json:"counted"`
	Dealer   string                     `json:"dealer"`
	Forehand string                     `json:"forehand"`
	Balances map[string]decimal.Decimal `json:"balances"`
	Pot      decimal.Decimal            `json:"pot"`
	Money    map[string]string          `json:"money"`
	PotMoney string                     `json:"pot_money"`
	Unit     string                     `json:"unit"`
	Currency string                     `json:"currency"`
	Closed   bool                       `json:"closed"`
	End      *endJSON                   `json:"end,omitempty"`
}

func (a api) ledger(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		next := g.NextDealer()
		out := ledgerJSON{Hands: len(g.Hands()), Counted: g.Counted(), Dealer: g.Setup.Players[next],
			Forehand: g.Setup.Players[(next+1)%len(g.Setup.Players)],
			Pot:      g.Pot(), PotMoney: g.MoneyText(g.Pot()), Unit: g.UnitText, Currency: g.Currency, Closed: g.Closed != nil, End: endOut(g)}
		out.Balances, out.Money = balancesOut(g, g.Balances())
		return writeJSON(c, http.StatusOK, out)
	})
}

// unitsByName keys amounts by seat with the players' names.
func unitsByName(g *tapp.State, bySeat []decimal.Decimal) map[string]decimal.Decimal {
	out := make(map[string]decimal.Decimal, len(bySeat))
	for seat, d := range bySeat {
		out[g.Setup.Players[seat]] = d
	}
	return out
}

func balancesOut(g *tapp.State, balances []decimal.Decimal) (map[string]decimal.Decimal, map[string]string) {
	units := make(map[string]decimal.Decimal, len(balances))
	money := make(map[string]string, len(balances))
	for seat, b := range balances {
		name := g.Setup.Players[seat]
		units[name] = b
		money[name] = g.MoneyText(b)
	}
	return units, money
}

type revisionJSON struct {
	Kind        string                     `json:"kind"`
	At          time.Time                  `json:"at"`
	Reason      string                     `json:"reason,omitempty"`
	Record      *payout.Record             `json:"record,omitempty"`
	Deltas      map[string]decimal.Decimal `json:"deltas,omitempty"`
	PotDelta    *decimal.Decimal           `json:"pot_delta,omitempty"`
	Explanation string                     `json:"explanation,omitempty"`
	Cause       int                        `json:"cause,omitempty"`
}

type handJSON struct {
	Hand        int                        `json:"hand"`
	Dealer      string                     `json:"dealer"`
	Record      payout.Record              `json:"record"`
	Deltas      map[string]decimal.Decimal `json:"deltas"`
	PotDelta    decimal.Decimal            `json:"pot_delta"`
	Voided      bool                       `json:"voided"`
	VoidReason  string                     `json:"void_reason,omitempty"`
	Revisions   int                        `json:"revisions"`
	Explanation string                     `json:"explanation"`
	Detail      json.RawMessage            `json:"detail"`
	History     []revisionJSON             `json:"history"`
}

func (a api) listHands(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		out := make([]handJSON, 0, len(g.Hands()))
		for _, h := range g.Hands() {
			res := h.Result()
			hj := handJSON{Hand: h.Number, Dealer: g.Setup.Players[h.Dealer], Record: h.Record(),
				Deltas: unitsByName(g, res.Deltas()), PotDelta: res.PotDelta(), Voided: h.Voided, VoidReason: h.VoidReason,
				Explanation: res.Text(), Detail: res.ExplanationJSON()}
			for _, r := range h.Revisions {
				rj := revisionJSON{Kind: r.Kind, At: r.At, Reason: r.Reason, Record: r.Record(), Cause: r.Cause}
				if rj.Record != nil {
					hj.Revisions++
				}
				if rr := r.Result(); rr != nil {
					pot := rr.PotDelta()
					rj.Deltas, rj.PotDelta, rj.Explanation = unitsByName(g, rr.Deltas()), &pot, rr.Text()
				}
				hj.History = append(hj.History, rj)
			}
			out = append(out, hj)
		}
		return writeJSON(c, http.StatusOK, out)
	})
}

type eventJSON struct {
	Seq  int64           `json:"seq"`
	Type string          `json:"type"`
	At   time.Time       `json:"at"`
	Data json.RawMessage `json:"data"`
	Hash string          `json:"hash"`
}

func (a api) events(c echo.Context) error {
	evs, err := a.svc.Events(c.Request().Context(), gameID(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, eventsOut(evs))
}

func eventsOut(evs []events.Event) []eventJSON {
	out := make([]eventJSON, len(evs))
	for i, e := range evs {
		out[i] = eventJSON{Seq: e.Version, Type: e.Type, At: e.RecordedAt, Data: e.Data, Hash: e.Hash}
	}
	return out
}

type transferJSON struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Amount string `json:"amount"`
}

type settlementJSON struct {
	Balances    map[string]decimal.Decimal `json:"balances"`
	Pot         decimal.Decimal            `json:"pot"`
	Money       map[string]string          `json:"money"`
	Transfers   []transferJSON             `json:"transfers"`
	Split       map[string]decimal.Decimal `json:"split,omitempty"`
	RemainderTo []string                   `json:"remainder_to,omitempty"`
	Provisional bool                       `json:"provisional,omitempty"`
	Undecided   *undecidedJSON             `json:"undecided,omitempty"`
}

// undecidedJSON: the pot units that wait for the cut, and who may win them.
type undecidedJSON struct {
	Units int      `json:"units"`
	Among []string `json:"among"`
}

func settlementOut(g *tapp.State, s tapp.Settlement) settlementJSON {
	out := settlementJSON{Pot: s.Pot, RemainderTo: s.RemainderTo, Provisional: s.Provisional, Transfers: []transferJSON{}}
	if s.Undecided > 0 {
		out.Undecided = &undecidedJSON{Units: s.Undecided, Among: s.CutAmong}
	}
	out.Balances, out.Money = balancesOut(g, s.Balances)
	if !s.Pot.IsZero() || len(s.Split) > 0 {
		out.Split, _ = balancesOut(g, s.Split)
	}
	for _, t := range s.Transfers {
		out.Transfers = append(out.Transfers, transferJSON{From: t.From, To: t.To, Amount: g.MoneyText(t.Amount)})
	}
	return out
}

func (a api) closeGame(c echo.Context) error {
	var b struct {
		RemainderTo []string `json:"remainder_to"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	g, err := a.svc.Close(c.Request().Context(), gameID(c), b.RemainderTo, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, settlementOut(g, g.Settlement()))
}

func (a api) settlement(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		return writeJSON(c, http.StatusOK, settlementOut(g, g.Settlement()))
	})
}

type pendingJSON struct {
	Hand   int           `json:"hand"`
	Dealer string        `json:"dealer"`
	Record payout.Record `json:"record"`
}

func (a api) pendingDeal(c echo.Context) error {
	return a.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		if g.Pending == nil {
			return tapp.Messages().NotFound("notfound.deal")
		}
		return writeJSON(c, http.StatusOK, pendingJSON{Hand: g.Pending.Hand, Dealer: g.Setup.Players[g.DealerOf(g.Pending.Hand)], Record: g.Pending.Record})
	})
}

func (a api) announce(c echo.Context) error {
	var b handBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Reason != nil {
		return unknownField("reason")
	}
	if err := a.svc.Announce(c.Request().Context(), gameID(c), b.Record,
		game.Checks{Dealer: b.Dealer, ExpectedHand: b.ExpectedHand}, c.Request().Header.Get(idempotencyHeader)); err != nil {
		return err
	}
	return a.pendingDeal(c)
}

func (a api) kontra(c echo.Context) error {
	var b struct {
		Level *int `json:"level"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Level == nil {
		return tapp.Messages().Input("level", "kontra.missing")
	}
	if err := a.svc.Kontra(c.Request().Context(), gameID(c), *b.Level, c.Request().Header.Get(idempotencyHeader)); err != nil {
		return err
	}
	return a.pendingDeal(c)
}

func (a api) matzl(c echo.Context) error {
	var b struct {
		Side string `json:"side"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if err := a.svc.Matzl(c.Request().Context(), gameID(c), b.Side, c.Request().Header.Get(idempotencyHeader)); err != nil {
		return err
	}
	return a.pendingDeal(c)
}

func (a api) count(c echo.Context) error {
	var b struct {
		Points       *int                          `json:"points"`
		Tricks       *int                          `json:"tricks"`
		Ramsch       map[string]payout.RamschScore `json:"ramsch"`
		Dealer       *string                       `json:"dealer"`
		ExpectedHand *int                          `json:"expected_hand"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	ans, err := a.svc.Count(c.Request().Context(), gameID(c), payout.Record{Points: b.Points, Tricks: b.Tricks, Ramsch: b.Ramsch},
		game.Checks{Dealer: b.Dealer, ExpectedHand: b.ExpectedHand}, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusCreated, answerOut(ans))
}

// herzAsAnswer is the end object, under its own name too, so a client may
// read it as the ledger carries it.
type herzAsAnswer struct {
	*endJSON
	End *endJSON `json:"end"`
}

func herzAsOut(g *tapp.State) herzAsAnswer {
	e := endOut(g)
	return herzAsAnswer{endJSON: e, End: e}
}

func (a api) herzAs(c echo.Context) error {
	var b struct{}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	g, err := a.svc.AnnounceHerzAs(c.Request().Context(), gameID(c), c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, herzAsOut(g))
}

func (a api) herzAsHolder(c echo.Context) error {
	var b struct {
		Player string `json:"player"`
		InTapp bool   `json:"in_tapp"`
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	g, err := a.svc.HerzAsHolder(c.Request().Context(), gameID(c), b.Player, b.InTapp, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, herzAsOut(g))
}

func (a api) withdrawHerzAs(c echo.Context) error {
	var b struct {
		Reason string `json:"reason"`
	}
	if err := decode(c, &b, true); err != nil {
		return err
	}
	g, err := a.svc.WithdrawHerzAs(c.Request().Context(), gameID(c), b.Reason, c.Request().Header.Get(idempotencyHeader))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, map[string]any{"withdrawn": true, "end": endOut(g)})
}
