package web

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/group"
)

// recordPayment answers POST /api/groups/{id}/payments: a payment recorded,
// made or sent.
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
