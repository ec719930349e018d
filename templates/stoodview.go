package templates

// StoodView is the table as it stood after a deal or an event: the
// standings with the pot shared out, the pot, who would have paid whom.
type StoodView struct {
	Page
	Note      string // which event it stood after, of how many; corrections since left out
	UnitsHead string
	HasPot    bool
	Pot       string
	Players   []PlayerView
	Transfers []TransferView
	Pays      string // in place of the transfers: all square, or the cut undecided
	// The same page after the deal before and the one after ("" for none).
	Earlier, Later string
}
