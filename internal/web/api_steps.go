package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// A deal recorded step by step (an addition to api.md), and the end of a
// Württemberg evening.

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
	if err := b.newDeal(); err != nil {
		return err
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
	if b.Side == "" {
		// An empty body is not "no matzl": that is "none", said.
		return tapp.Messages().Input("side", "matzl.missing")
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
		Change bool   `json:"change"` // another player than the one named (an addition to api.md)
	}
	if err := decode(c, &b, false); err != nil {
		return err
	}
	g, err := a.svc.HerzAsHolder(c.Request().Context(), gameID(c), tapp.SayHerzAsHolder{Player: b.Player, InTapp: b.InTapp, Change: b.Change},
		c.Request().Header.Get(idempotencyHeader))
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
