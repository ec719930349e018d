package templates

// PayView is the evening's page for paying what the close says: each
// transfer with the QR code the payer's banking app scans, its state and
// the buttons to mark it, and the form where a player says how they are
// paid.
type PayView struct {
	Page
	Base   string // the evening's table, /g/{id}
	Closed bool
	// Provisional says, before the close, that the amounts may still
	// change: no QR code or pay link is offered for them then.
	Provisional string
	Transfers   []PayTransferView
	Players     []string
	Error       string // why a mark was not kept: above the list
	// GroupTab is the tab of the evening's group, "" for an evening of no
	// group: its payments may be recorded there too, and are not shown here.
	GroupTab string
	// Details is the pay details form as typed, with why it was not kept.
	Details PayDetailsTyped
}

// PayDetailsTyped is how a player is paid as typed into the form, kept
// when it is refused so that nothing is typed twice, with why.
type PayDetailsTyped struct {
	Refusal string
	// Saved confirms the player's details were kept, after a save.
	Saved                             string
	Player, Name, IBAN, Swish, PayPal string
	Street, Postcode, Town, Country   string
}

// PayTransferView is one transfer to pay.
type PayTransferView struct {
	Index       string
	From, To    string
	Amount      string // with the currency
	State       string // open, paid, confirmed
	StateText   string
	QR          string // the PNG's address; "" where the payee gave no way to pay
	PayPal      string // the PayPal.me link, if any
	Ways        string // the ways the QR code can be read, for the caption
	MarkPaid    string // the button's text: the payer says it is sent
	MarkArrived string // the payee says it arrived
	// Unmark takes back the transfer's last mark ("paid" or "confirmed"),
	// by UnmarkBy, who made it; "" where there is none that can be.
	Unmark, UnmarkBy, UnmarkText string
}
