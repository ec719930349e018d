package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"tappbook/internal/group"
)

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

// payments answers GET /api/groups/{id}/payments: every payment recorded.
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
