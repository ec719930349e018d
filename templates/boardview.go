package templates

// BoardView is the board: the standings alone, in numbers big enough to
// read from across the table or on a TV, who deals, and the pot.
type BoardView struct {
	Page
	VariantName string
	Next        string // "Deal 12 · Anna deals", or the evening's end
	Players     []PlayerView
	HasPot      bool
	Pot         string // in units, as the players count
	PotMoney    string
	UnitsHead   string // what the big numbers are: units, or cents
	Version     int64  // the game's version: the live stream's mark (app.js)
	Head        string
}
