package templates

// ReportView is the report to take home (GET /g/{id}/report, and a group's
// tab at /groups/{id}/report): made to print on one A4 page, and to be
// shared as an image.
type ReportView struct {
	Page
	Heading string // the evening's variant and day, or the group's name
	Facts   string // who played, what a unit was worth, how many deals
	// Settled: the evening is closed (or, for a tab, always). Otherwise
	// NotSettled says that what is shown is the standing so far.
	Settled    bool
	NotSettled string
	// Heads name the standings' columns after the player's: the pot's
	// share, units, money; or what a member is owed.
	Heads     []string
	Standings []ReportRow
	Pot       []string // lines about the pot: where it went, or what it holds
	Undecided string   // the cut still undecided: who pays whom follows it
	Transfers []ReportTransfer
	Square    bool // nobody pays
	// Players head the deals' columns, by seat.
	Players  []string
	Deals    []ReportDeal
	DealsPot bool // the pot after each deal is a column
	// ReceiptQR is the closed evening's signed receipt; Fingerprint its
	// history's head as people note it.
	ReceiptQR   QRView
	Fingerprint string
	Image       string // the share image's address
	ImageName   string // the name it is downloaded under
	Back        string // the page the report was opened from
	BackText    string
}

// ReportRow is one player's line of the standings.
type ReportRow struct {
	Name     string
	Cells    []string
	Negative bool
}

// ReportTransfer is one payment to make, with the QR code the payer's
// banking app scans (none on a read-only link, or where the payee gave no
// way to be paid).
type ReportTransfer struct {
	Text      string // "Ben pays Anna 3.50 €"
	From, To  string
	Amount    string // with the currency
	State     string // open, paid, confirmed; "" while the evening is open
	StateText string
	QR        string // the PNG's address
	Ways      string // what the QR code can be read by
}

// ReportDeal is one deal in the report's compact list.
type ReportDeal struct {
	Number      int
	Head        string   // the deal in a clause: the game, who, how it ended
	Explanation string   // the whole sentence, with the reckoning
	Deltas      []string // by seat, in units
	Pot         string
	Voided      bool
}
