package templates

// StatsView is a group's statistics as cards that fit a phone: one per
// member, the pairs, the records, the years.
type StatsView struct {
	Page
	Group    GroupBase
	Evenings int
	Players  []StatsCard
	Chart    ChartView
	Pairs    []StatsLine // head to head: who paid whom, pair by pair
	Records  []StatsLine
	Years    []StatsYear // newest first
}

// StatsCard is one member's card: their line over every variant, and
// what unfolds under it.
type StatsCard struct {
	StatsRow
	Variants  []StatsLine
	Contracts []StatsLine
	Partners  []StatsLine // in Rufen
}

// StatsRow is one member's figures.
type StatsRow struct {
	Name        string
	Seat        int
	Evenings    int
	Deals       int
	Declared    int
	DeclaredWon int
	WonPercent  string
	Won         string
	Lost        string
	Net         string
	Best        string
	Worst       string
	Negative    bool
}

// StatsLine is a label and what it says: "Solo", "won 2 of 3 …".
type StatsLine struct {
	Label, Text string
	Negative    bool
}

// StatsYear is the members' money in one year.
type StatsYear struct {
	Year  int
	Lines []StatsLine
}
