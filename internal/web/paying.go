package web

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/game"
	"tappbook/internal/group"
	"tappbook/internal/payee"
	"tappbook/internal/payqr"
	"tappbook/internal/tapp"
)

// payJSON is each way a transfer's payee can be paid, as the text its QR
// code holds (api.md "Paying what the close says").
type payJSON struct {
	EPC    string `json:"epc,omitempty"`
	QRBill string `json:"qrbill,omitempty"`
	Swish  string `json:"swish,omitempty"`
	PayPal string `json:"paypal,omitempty"`
}

// payRoutes are the API's ways to say how one is paid and what was paid.
func (a api) payRoutes(e *echo.Echo) {
	e.PUT("/api/games/:id/players/:name/pay", a.putPlayerPay)
	e.POST("/api/games/:id/transfers/:i/:mark", a.markTransfer)
	e.POST("/api/games/:id/transfers/:i/:mark/withdraw", a.withdrawMark)
	e.GET("/api/games/:id/pay/:png", a.transferPNG)
	e.PUT("/api/groups/:id/members/:name/pay", a.putMemberPay)
	e.POST("/api/groups/:id/payments/:n/confirm", a.confirmPayment)
	e.GET("/api/groups/:id/pay/:png", a.tabTransferPNG)
}

// payBody is what PUT …/pay takes: any of the details; {} removes them.
type payBody struct {
	Name    string         `json:"name"`
	IBAN    string         `json:"iban"`
	BIC     string         `json:"bic"`
	Swish   string         `json:"swish"`
	PayPal  string         `json:"paypal"`
	Address *payee.Address `json:"address"`
}

func (b payBody) details() payee.Details {
	return payee.Details{Name: b.Name, IBAN: b.IBAN, BIC: b.BIC, Swish: b.Swish, PayPal: b.PayPal, Address: b.Address}
}

func detailsOut(d payee.Details) payBody {
	return payBody{Name: d.Name, IBAN: d.IBAN, BIC: d.BIC, Swish: d.Swish, PayPal: d.PayPal, Address: d.Address}
}

// pathName is a player's name as the path gives it, percent-decoded.
func pathName(c echo.Context) string {
	if n, err := url.PathUnescape(c.Param("name")); err == nil {
		return n
	}
	return c.Param("name")
}

// transferIndex reads a transfer's index from the path, written the one
// way transfers are numbered: 0, 1, … ("1.5", "01" or "-1" name none).
func transferIndex(s string) (int, error) {
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 || strconv.Itoa(i) != s {
		return 0, tapp.Messages().NotFound("notfound.transfer-number", s)
	}
	return i, nil
}

// pngIndex reads "{i}.png".
func pngIndex(c echo.Context) (int, error) {
	s, ok := strings.CutSuffix(c.Param("png"), ".png")
	if !ok {
		return 0, tapp.Messages().NotFound("notfound.transfer-number", c.Param("png"))
	}
	return transferIndex(s)
}

// payment is a transfer to pay: to whom, how much in the currency, and
// the message.
func payment(p game.Payees, to string, money decimal.Decimal, currency string, day time.Time) payqr.Payment {
	d, _ := p.Of(to)
	return payqr.Payment{To: d, Amount: money, Currency: currency, Message: payqr.Message(p.Name, day)}
}

func payOut(ways []payqr.Way) *payJSON {
	if len(ways) == 0 {
		return nil
	}
	out := &payJSON{}
	for _, w := range ways {
		switch w.Kind {
		case payqr.KindEPC:
			out.EPC = w.Text
		case payqr.KindQRBill:
			out.QRBill = w.Text
		case payqr.KindSwish:
			out.Swish = w.Text
		case payqr.KindPayPal:
			out.PayPal = w.Text
		}
	}
	return out
}

// eveningPayments gives each transfer of an evening's settlement as a
// payment: ts are the settlement's transfers, in units.
func (a api) eveningPayments(ctx context.Context, g *tapp.State, ts []tapp.Transfer) ([]payqr.Payment, error) {
	p, err := a.svc.PayeesOf(ctx, g)
	if err != nil {
		return nil, err
	}
	out := make([]payqr.Payment, len(ts))
	for i, t := range ts {
		out[i] = payment(p, t.To, g.Money(t.Amount), g.Currency, g.StartedAt)
	}
	return out, nil
}

// withPay adds to a settlement's transfers how each is paid and, once the
// evening is closed, whether it is. ways is false on a read-only link: how
// a player is paid (an IBAN, an address, a phone number) is for the ones
// at the table who pay, not for whoever the link was passed on to.
func (a api) withPay(ctx context.Context, g *tapp.State, s tapp.Settlement, out *settlementJSON, ways bool) error {
	pays, err := a.eveningPayments(ctx, g, s.Transfers)
	if err != nil {
		return err
	}
	for i := range out.Transfers {
		if ways {
			out.Transfers[i].Pay = payOut(payqr.Ways(pays[i]))
		}
		if state, _ := g.TransferState(i); g.Closed != nil || state != tapp.StateOpen {
			out.Transfers[i].State = state
		}
	}
	return nil
}

// withTabPay adds to a group's tab how each transfer's payee can be paid
// (unless ways is false: a read-only link, as withPay), and which payments
// await their payee's word.
func withTabPay(st *group.State, out *tabJSON, day time.Time, ways bool) {
	p := game.GroupPayees(st)
	for i := range out.Transfers {
		if !ways {
			break
		}
		t := &out.Transfers[i]
		amount, err := decimal.NewFromString(t.Amount)
		if err != nil {
			continue // written by tabOut from a decimal: cannot happen
		}
		t.Pay = payOut(payqr.Ways(payment(p, t.To, amount, st.Currency, day)))
	}
	out.Unconfirmed = []int{}
	for _, pm := range st.Payments() {
		if !pm.Voided && pm.AwaitsConfirmation() {
			out.Unconfirmed = append(out.Unconfirmed, pm.Number)
		}
	}
}
