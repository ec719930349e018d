// Package templates holds the phone UI's pages, written in templ (the
// generated *_templ.go files are committed), and the plain view models the
// web handlers fill for them. No page builds HTML by hand.
package templates

import "strconv"

// L is a language: messages by key.
type L interface {
	T(key string, args ...any) string
	Lang() string
}

// Page is what every page needs.
type Page struct {
	L L
	// Root is the path the app is served under (--public-url's, such as
	// /tapp), "" at a name's root. Every address a page writes starts with
	// it: Path and Base hold it already, other links add it.
	Root     string
	Path     string // the current path and query, for the language switch
	Title    string
	GameID   string // set on a game's pages that may record (never on read-only ones)
	Base     string // the game's pages: {Root}/g/{id}, or {Root}/r/{read id} when read-only
	ReadOnly bool   // opened with the read-only link: no forms, no recording
	Langs    []string
	Forms    FormTokens // signs each form's address, against posts from other sites
	// Theme is the reader's choice of colours: "" follows the phone's dark
	// mode, "light" or "dark" is chosen on the page.
	Theme string
	// EveningClosed is set on a closed evening's pages: nothing is recorded
	// any more, so the page does not say the screen may turn off.
	EveningClosed bool
	// Refresh, in seconds, reloads the page without JavaScript (the board);
	// 0 for none.
	Refresh int
}

// FormTokens gives the token of the form that posts to a path.
type FormTokens interface {
	For(path string) string
}

// ProblemView is an error, said as a page.
type ProblemView struct {
	Page
	Message string
	Back    string // the evening's table or the group's tab, where there is one to go back to
	// BackLabel says where Back goes ("Back to the table").
	BackLabel string
	// Next is the way on that the message asks for, where there is one
	// (a closed evening's reopen form), NextLabel what it does.
	Next, NextLabel string
}

// Option is one choice of a radio group or select.
type Option struct {
	Value, Label string
	Selected     bool
}

// Field is one input of a form: its value as typed and its error, if any.
type Field struct {
	Value string
	Error string
}

// NewGameView is the start-an-evening form.
type NewGameView struct {
	Page
	Variants []Option
	Variant  string
	Seats    []Field // player names, in seat order
	MinSeats int
	Unit     Field
	Currency Field
	Rules    []RuleView
	Error    string
	IdemKey  string // random, made when the form is first shown
	UnitText string // what the unit is: "one unit", or Württemberg's "one cent"
	UnitHint string // a group's unit where the game counts in cents
	// GroupMoney says a group's unit and currency, which its evenings
	// must play for: the form shows them as text, not fields to change.
	GroupMoney string
	ForGroup   GroupRef // the evening is one of this group (group.templ)
	// NewMembers: the players not yet in the group, asked about once (a
	// hidden field each: a browser sends a line break in a field as CRLF);
	// sent back with the same names, the evening adds them.
	NewMembers []string
	// Members are a group's members, tapped into each seat instead of
	// typed (lineup.templ); none for an evening of no group.
	Members []string
}

// RuleView is one house rule with its default shown.
type RuleView struct {
	Name    string // form name, e.g. rules.stake or values.suit
	Label   string
	Kind    string // "select", "number", "checkbox"
	Options []Option
	Field   Field
	Checked bool
	Folded  bool // one of many values, shown under a fold
}

// PlayerView is one player's standing.
type PlayerView struct {
	Name     string
	Seat     int
	Units    string
	Money    string
	Dealer   bool
	Forehand bool
	Negative bool
}

// HandView is one deal in the table's list.
type HandView struct {
	Ending      string // the end of a Württemberg evening: "the last regular deal", "Zwangsramsch 1 of 3"; else ""
	Number      int
	Dealer      string
	Explanation string
	Deltas      []string // "Anna +2", by seat, in units
	Pot         string   // old-tapp: the pot before and after the deal ("Pot 5 → 7"); else ""
	Voided      bool
	VoidReason  string // as the history says it ("undone" in the reader's language)
	Corrected   bool
	Rescored    bool          // its amounts changed since it was entered, because an earlier deal did
	Fresh       bool          // just saved on this phone: highlighted, not scrolled to
	History     []HistoryLine // what happened to it, oldest first
	// HTML is the row as rendered before (HandRow), written as it is; the
	// other fields are then unset. "": the page renders the row.
	HTML string `json:"-"`
}

// HistoryLine is one event in a deal's history; a correction shows the
// result before it beside the one after.
type HistoryLine struct {
	// What happened, around when: "" + 21:04 + " corrected: …" (the
	// sentence says where the time goes).
	Text, TextAfter string
	At              When
	Before          *ResultView
	After           *ResultView
}

// When is a moment as a page shows it: the server's local time as text,
// the instant, and how much of it to show ("second", "minute", "clock" or
// "date"); the page's script shows it in the phone's own time zone.
type When struct {
	Text string
	UTC  string // RFC 3339
	Show string
}

// ResultView is one result of a deal: why, and each player's change.
type ResultView struct {
	Explanation string
	Deltas      []string // "Anna +2", by seat
	Pot         string   // "Pot +4" where the variant has a pot: the deltas alone do not add up
}

// TransferView is one payment at the end.
type TransferView struct {
	From, To, Amount string
	// State is paid or confirmed for a transfer marked so (StateText says
	// it), "" for one still open.
	State, StateText string
}

// ChartView is the running balances drawn as lines, with the value axis
// marked at its top, zero and bottom, and the deals along the bottom.
type ChartView struct {
	Width, Height int
	Lines         []ChartLine
	ZeroY         string
	Empty         bool
	Ticks         []ChartTick // value axis
	Steps         []ChartTick // step axis: the first and the last deal (or evening)
	Label         string      // what the chart shows, for screen readers
}

// ChartTick is one label on an axis: its text and where it goes (y on the
// value axis, x on the deal axis).
type ChartTick struct {
	Text string
	At   string
	When When // a day on the step axis: its instant, for the phone's time zone; else empty
}

// ChartLine is one player's running balance.
type ChartLine struct {
	Name string
	Path string // SVG path data: a move to the start, then relative lines ("M0 79.3l 150-38.6…")
	Seat int
	Last string // the balance the standings show, written the local way
}

// TableView is a game at the table.
type TableView struct {
	Page
	Deals       string // the next deal, as RecordView's (without a key), for the phone to record it without the server
	PotWent     string // closed: where the pot went, the cut's units included
	UnitsHead   string // the standings' column of units: "Units", or "Cents" where a unit is a cent
	UnitWorth   string // a game counting in cents for another unit: what one of its cents is worth
	Variant     string
	VariantName string
	Players     []PlayerView
	Pot         string
	PotMoney    string
	HasPot      bool
	NextHand    int
	Dealer      string
	Forehand    string
	Hands       []HandView // newest first
	MoreDeals   int        // when not every deal is shown: how many there are
	Closed      bool
	Transfers   []TransferView
	Chart       ChartView
	Pending     string // a deal being recorded step by step, if any
	Status      string // Württemberg end of evening, if under way
	HerzAs      HerzAsView
	Over        bool     // every deal of the evening is played: the next step is to close it
	Damaged     string   // the stored history does not hold: why, and that nothing can be recorded
	Mine        MineView // for "My evenings", the group and the next evening (group.templ)
	GroupName   string
	Saved       *SavedView
	Undone      *UndoneView
	Undo        *UndoView
	Witness     WitnessView
	Fingerprint string // the closed evening's head, as people note it (ab12-cd34-ef56)
	VerifyLine  string // the command that confirms the history still ends there
}

// SavedView: a deal this phone just saved.
type SavedView struct {
	Hand int
	Text string // "Deal 5 saved: Ben +6 …"
	// Undoes: the undo (which takes back the last deal) is shown beside
	// it, since it was that deal just recorded.
	Undoes bool
}

// UndoView: the one tap that takes back the last deal (a retract), saying
// what it takes back.
type UndoView struct {
	Hand  int
	Text  string // "Undo deal 5: Solo by Ben won with 70 points"
	Short string // "Undo deal 5", beside "Deal 5 saved."
	Key   string // the undo's idempotency key
}

// UndoneView: a deal this phone just undid, with a one-tap way back.
type UndoneView struct {
	Hand    int
	Text    string
	CanRedo bool
	Key     string
}

// WitnessView is what a phone that follows the game keeps and checks: the
// version and head hash the page shows, and where to ask whether the
// server's history still holds what it saw before.
type WitnessView struct {
	Version int64
	Head    string
	URL     string
	Cut     string // the message for a history cut ({seen}, {now} filled in by the script)
	Changed string // the message for a history changed
}

// HerzAsView guides the end of a Württemberg evening.
type HerzAsView struct {
	CanAnnounce bool     // nobody has said "Herz-As" yet
	AfterHand   int      // the deal Herz-As would be said after
	AskHolder   bool     // announced, and the next deal played: who got ♥A?
	HolderHand  int      // the deal in which ♥A was dealt
	Players     []Option // to choose the holder from
	CanWithdraw bool     // said, and no Zwangsramsch played yet: it can be taken back
	Holder      string   // who was named as dealt ♥A, while that can still be changed (a mis-tap)
	Others      []Option // the players it can be changed to
	Key         string   // the idempotency key of the holder's or the withdrawal's form
}

// HerzAsConfirmView asks before Herz-As is said (it ends the evening) or
// taken back.
type HerzAsConfirmView struct {
	Page
	Text   string
	Button string
	Key    string
}

// RecordView is the record-a-deal (or correct-a-deal) form.
type RecordView struct {
	Page
	Reopen    string // the reopen form's address, where the form was refused as the evening is closed
	Variant   string
	Hand      int
	Changes   int // a correction: how many times the deal was entered or voided when the form was begun
	Dealer    string
	Forehand  string
	Contracts []Option // links to the form of each contract
	Contract  string
	Edit      bool // correcting deal Hand
	Voided    bool
	Now       *ResultView // correcting a deal that counts: what it counts as now
	Error     string
	IdemKey   string
	Draft     string // names the phone's draft of the form (static/app.js): web's draftKey
	// Deals: a new deal's form, its deal as JSON (web's nextDeal), for the
	// phone to record it and the next ones while the server is out of
	// reach; "" where the next deals cannot be foreseen.
	Deals string
	Total int // card points in play, for "the other side has …"
	// What the script says as soon as the points typed cannot be: more
	// than the pack holds ({n} for them), or 1 or Total−1 (the server's
	// own refusals, so that a deal saved while it is away is not refused
	// later for a slip seen only then).
	PointsOver, PointsOne, PointsMinusOne, PointsWhole string
	Declarers                                          []Option
	DeclarerFixed                                      string // rufen: forehand
	Partners                                           []Option
	Trumps                                             []Option
	TrumpNeeded                                        bool
	Points                                             Field
	PointsSide                                         string // "declarer" or "opponents"
	PointsNeeded                                       bool
	ShowPoints                                         bool // the contract takes points, or some were typed
	Tricks                                             []Option
	TricksField                                        Field
	TricksNeeded                                       bool
	Tout                                               bool
	ToutField                                          bool // the contract may be played tout
	Kontra                                             []Option
	KontraField                                        Field
	Matzl                                              []Option
	MatzlField                                         Field
	Ramsch                                             []RamschRow
	RamschError                                        string
	DeclarerField                                      Field
	PartnerField                                       Field
	TrumpField                                         Field
	Reason                                             Field // the void form's reason
	CorrectReason                                      Field // the correction's reason
	// CorrectQuick, VoidQuick: the quick reasons a correction and a void
	// offer, one tap each (typing optional).
	CorrectQuick, VoidQuick []Option
	Forced                  string // "Zwangsramsch 2 of 4", when the deal must be one
	// WonBy: the declarer wins by taking no trick ("none", bettel) or every
	// trick ("all", durch, rufer, tout): the form asks won or lost, and
	// the count of tricks only when lost.
	WonBy        string
	Outcome      string // "won", "lost" or "" as tapped
	OutcomeField Field
	LostTricks   []Option // the counts a lost deal can have
	RamschTotal  int      // the card points a Ramsch shares out
	RamschTricks int      // the tricks of a deal
}

// RamschRow is one player's Ramsch take.
type RamschRow struct {
	Name    string
	NoTrick bool // tapped "no trick": points and tricks are 0
	Points  Field
	Tricks  Field
}

// CloseView is the end of the evening.
type CloseView struct {
	Page
	Version int64 // the game's, whose settlement is shown: the close sends it back
	// ShownCut: the cut whose payments are shown (the winner of each
	// leftover unit), sent back with the close: one not shown is shown
	// first.
	ShownCut   []string
	UnitsHead  string // as TableView.UnitsHead
	Closed     bool
	Players    []PlayerView
	Split      []string // by seat, units from the pot
	Pot        string
	HasPot     bool
	Leftover   int
	PotWent    string // closed: where the pot went, as the table says it
	LeftoverTo string // open, no cut needed: who the leftover units go to, and why
	NeedCut    bool
	CutOptions [][]Option // one choice per leftover unit
	Undecided  string     // the cut not recorded yet: which units wait for it (then no payments are shown)
	Transfers  []TransferView
	Error      string
	// Fingerprint of the closed evening's head, and the command that
	// confirms its history still ends there.
	Fingerprint string
	VerifyLine  string
	// CanReopen: the closed evening may be reopened, with a reason
	// (Reopen holds it as typed, and why it was refused).
	CanReopen bool
	Reopen    Field
	ReceiptQR QRView // the closed evening's signed receipt
	IdemKey   string // the reopen form's idempotency key
}

// AuditView is the full event log.
type AuditView struct {
	Page
	Events   []AuditEvent
	Verified string
	Units    string // what the amounts below count: units (or cents) and their worth
	// A long history is shown a page at a time: which events this page
	// holds ("" when it holds them all), and the links to the others.
	Range string
	Pages []Link
}

// Link is a link with its text.
type Link struct {
	URL, Text string
}

// AuditEvent is one event, readable.
type AuditEvent struct {
	Seq     int64
	At      When
	Type    string
	Summary string
	// A deal's event: what it moves by seat ("Anna +2"; "Anna −9 → +4"
	// where it changed what the deal moved before) and the pot's (old-tapp).
	Amounts []string
	Pot     string
	// A correction's or void's change to the pot after later deals whose
	// own entries still say the pot they left then (old-tapp).
	PotLater []string
	// A correction's or void's: what it changed downstream, before →
	// after: the later deals' amounts, the pot at the end, who pays whom.
	Later  []string
	PotEnd string
	Pays   []string
	// A recorded deal's: the link to the table as it stood after it.
	Stood, StoodURL string
	Hash            string
	Data            string
}

// ShareView is the link and QR code for the other phones, and the
// read-only link with its own.
type ShareView struct {
	Page
	URL     string
	ReadURL string // the read-only link
	QR      QRView
	ReadQR  QRView
}

// JoinView is an address other phones open, with its QR code.
type JoinView struct {
	URL string
	QR  QRView
}

// QRView is a QR code as SVG rectangles.
type QRView struct {
	Size int
	Path string
}

func itoa(n int) string { return strconv.Itoa(n) }
