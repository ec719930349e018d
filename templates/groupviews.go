package templates

// NewGroupView is the start-a-group form.
type NewGroupView struct {
	Page
	Name     Field
	Seats    []Field // the players, as many as the form offers
	Unit     Field
	Currency Field
	Error    string
	IdemKey  string
}

// GroupView is a group's page: its links, members and evenings.
type GroupView struct {
	Page
	Group    GroupBase
	WriteURL string // the group's own link (writers only)
	ReadURL  string // the read-only link
	QR       QRView // of the link the page was opened with
	ReadQR   QRView // of the read-only link, beside the writing one's
	Money    string // what a unit is worth, in the group's currency
	Members  []string
	Evenings []EveningView // newest first
	Next     *NextEvening  // the newest evening again, the deal passed on (writers only)
	Variants []Option      // start an evening of a variant (writers only)
	Member   Field         // a member to add
	IdemKey  string
}

// GroupRef names the group an evening is started for.
type GroupRef struct {
	ID, Name string
}

// GroupBase is what every page of a group needs: its name and where its
// pages are (/groups/{id}, or /r/{read id} when opened read-only).
type GroupBase struct {
	Name string
	Base string
}

// EveningView is one evening in a group's list.
type EveningView struct {
	N       int // the group's evening number, from 1
	Href    string
	Variant string
	Players string
	Date    When
	Closed  bool
	Hands   int
	Money   []MoneyView
}

// MoneyView is one player's amount.
type MoneyView struct {
	Name     string
	Amount   string
	Negative bool
}

// NextEvening is "new evening, same players": the table's newest evening
// started again, its first dealer the player after the last one's.
type NextEvening struct {
	Action    string // where the form posts
	Variant   string // its name, in the page's language
	VariantID string
	Players   string // in their seats, the first dealing first
	Dealer    string
	// Open are the evenings not closed yet, newest first: the page says
	// each is left out of the tab until it is closed and offers to go on
	// with the newest before starting another.
	Open []OpenEvening
}

// OpenEvening is an evening of the group not closed yet.
type OpenEvening struct {
	N    int
	Href string
}

// TabView is the group's tab: who owes whom, the payments that settle it,
// and the payments recorded.
type TabView struct {
	Page
	Group     GroupBase
	Owed      []MoneyView
	Evenings  int // closed evenings counted
	Transfers []TabTransfer
	Cash      bool          // the transfers are shown rounded for cash
	CashStep  string        // the currency's cash step, if it has one
	Payments  []PaymentView // newest first
	// EveningPayments are what was paid on the evenings' own transfers,
	// which the tab counts as payments too.
	EveningPayments []EveningPaymentView
	Form            PaymentForm
	Saved           string // "payment N saved", after a payment was recorded
	Square          bool   // nobody owes anything, exactly (not only once rounded for cash)
	Members         []string
	PayDetails      PayDetailsTyped // how a member is paid as typed, and why it was not kept
	// Reopened says which evenings are reopened and what that does to the
	// tab ("" for none); ReopenedLinks lead to them.
	Reopened      string
	ReopenedLinks []Link
}

// TabTransfer is one suggested payment, with the amount as a form takes it.
type TabTransfer struct {
	From, To, Amount string
	Value            string // the amount as a plain decimal
	// Key is the "paid" button's idempotency key: the same for every
	// phone shown the same tab, so two taps on it record one payment.
	Key string
	// QR is the payee's QR code image, Ways what it holds, PayPal a
	// PayPal.me link; empty on a read-only link and for cash amounts.
	QR, Ways, PayPal string
	MarkPaid         string // "Ben: I sent it"
	// Wait, while an evening is reopened, holds the transfer back: it may
	// pay back what was paid on that evening, so it offers no way to pay.
	Wait string
}

// PaymentForm records a payment between two members.
type PaymentForm struct {
	From, To []Option
	FromErr  string
	ToErr    string
	Amount   Field
	Note     Field
	Error    string
	IdemKey  string
}

// EveningPaymentView is a payment marked on an evening's transfer.
type EveningPaymentView struct {
	Text    string // "Ben paid Anna CHF 3.50"
	Evening string // the evening's game, as the group's page names it
	Date    When   // when the evening began
	Href    string // the evening's page, where the payment's state shows
	// State is "paid" (sent, not yet received) or "confirmed", as a tab
	// payment's; StateText says it.
	State, StateText string
	// ConfirmHref is the evening's transfer on its pay page, where the
	// payee says it arrived ("" once confirmed, or where nobody can say
	// it here: a read-only link, a reopened evening); MarkArrived its text.
	ConfirmHref, MarkArrived string
}

// PaymentView is one payment in the group's history.
type PaymentView struct {
	Number     int
	Text       string // "Ben paid Anna CHF 3.50"
	Note       string
	At         When
	Voided     bool
	VoidReason string
	Reason     Field // the void form's reason and its error
	// State is "paid" (sent, its payee to say it arrived), "confirmed"
	// or "" (recorded as done); StateText says it, MarkArrived is the
	// payee's button.
	To, State, StateText, MarkArrived string
}

// MineView is what a page tells this phone's list of evenings and groups
// about itself (static/mine.js keeps it in localStorage, nowhere else).
type MineView struct {
	Kind    string // "evening" or "group"
	Href    string // the link the page was opened with
	Same    string // the read-only link of the same evening or group: one entry for both links
	Variant string // an evening's variant, named in the start page's language
	Title   string
	Players string
	Started string // RFC 3339
	Closed  bool
	Group   string // an evening's group page, if it has one and the link writes
	Again   string // where "new evening, same players" posts, if the link writes
	// AgainAbout says, beside that button on a closed evening, what it
	// starts: which game, the seats and who deals first.
	AgainAbout string
	// Next is the same for the start page's list, said there in its own
	// language: the variant's id, the seats, who deals first.
	NextVariant, NextPlayers, NextDealer string
}

// variantNames maps each variant to its name, for static/mine.js.
func variantNames(variants []Option) map[string]string {
	out := make(map[string]string, len(variants))
	for _, v := range variants {
		out[v.Value] = v.Label
	}
	return out
}
