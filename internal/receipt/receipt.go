// Package receipt is the text of a closed evening's receipt (api.md
// "Receipts"): what the close settled, which the server signs as a note,
// and its reading back for a check against the database.
//
//	tappbook receipt v1
//	game {the game's read-only key}
//	events {count}
//	head {hash of the close's event}
//	closed {RFC 3339, UTC}
//	currency {code, or nothing}
//	{player} {money}          one line per player, in seat order
//	pay {from} {to} {amount}  one line per transfer
//
// The game is named by its read-only key (the key of /r/… links), which
// opens its pages and its history to read: a receipt is shown, printed and
// shared, and must not carry the id that writes to the game.
//
// A name is written as it is unless it holds a space (or any white
// space), begins with a double quote, or is "pay": then it is written in
// double quotes, as Go's strconv.Quote writes it ("Anna Maria"), so that
// every line splits at its spaces into exactly its fields.
package receipt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"tappbook/internal/tapp"
)

// Header is a receipt's first line.
const Header = "tappbook receipt v1"

// ErrOpen is a receipt asked of an evening that is not closed.
var ErrOpen = errors.New("the evening is not closed: a receipt is for a closed evening")

// Receipt is what a receipt says.
type Receipt struct {
	Game     string
	Events   int64
	Head     string
	Closed   time.Time
	Currency string
	Money    []Line // each player's money as settled, in seat order
	Pay      []Pay
}

// Line is one player's settled money.
type Line struct{ Player, Money string }

// Pay is one transfer.
type Pay struct{ From, To, Amount string }

// Of gives the receipt of the close of g; ErrOpen while it is open.
func Of(g *tapp.State) (Receipt, error) {
	c := g.Closed
	if c == nil {
		return Receipt{}, ErrOpen
	}
	id := g.ReadID
	if id == "" {
		id = g.ID // a game from before read-only links
	}
	r := Receipt{Game: id, Events: c.Version, Head: c.Head, Closed: c.At.UTC(), Currency: g.Currency}
	for seat, b := range g.Balances() {
		r.Money = append(r.Money, Line{Player: g.Setup.Players[seat], Money: g.MoneyText(b)})
	}
	for _, t := range c.All() {
		r.Pay = append(r.Pay, Pay{From: t.From, To: t.To, Amount: g.MoneyText(t.Amount)})
	}
	return r, nil
}

// Text is the receipt as the note's text, ending in a newline.
func (r Receipt) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\ngame %s\nevents %d\nhead %s\nclosed %s\n", Header, r.Game, r.Events, r.Head, r.Closed.UTC().Format(time.RFC3339))
	b.WriteString(strings.TrimRight("currency "+r.Currency, " ") + "\n")
	for _, l := range r.Money {
		fmt.Fprintf(&b, "%s %s\n", name(l.Player), l.Money)
	}
	for _, p := range r.Pay {
		fmt.Fprintf(&b, "pay %s %s %s\n", name(p.From), name(p.To), p.Amount)
	}
	return b.String()
}

// name writes a player's name as a field of its line.
func name(s string) string {
	if s == "pay" || strings.HasPrefix(s, `"`) || strings.ContainsFunc(s, unicode.IsSpace) {
		return strconv.Quote(s)
	}
	return s
}

// Parse reads a receipt's text (the note's, its signature already
// checked): every line as Text writes it.
func Parse(text string) (Receipt, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 6 || lines[0] != Header {
		return Receipt{}, fmt.Errorf("not a tappbook receipt: the first line is not %q", Header)
	}
	var r Receipt
	field := func(i int, key string) (string, error) {
		v, ok := strings.CutPrefix(lines[i], key)
		if !ok || (v != "" && v[0] != ' ') {
			return "", fmt.Errorf("receipt line %d: want %q, got %q", i+1, key+" …", lines[i])
		}
		return strings.TrimPrefix(v, " "), nil
	}
	var err error
	if r.Game, err = field(1, "game"); err != nil {
		return r, err
	}
	ev, err := field(2, "events")
	if err != nil {
		return r, err
	}
	if r.Events, err = strconv.ParseInt(ev, 10, 64); err != nil || r.Events < 1 {
		return r, fmt.Errorf("receipt line 3: %q is no count of events", ev)
	}
	if r.Head, err = field(3, "head"); err != nil {
		return r, err
	}
	at, err := field(4, "closed")
	if err != nil {
		return r, err
	}
	if r.Closed, err = time.Parse(time.RFC3339Nano, at); err != nil {
		return r, fmt.Errorf("receipt line 5: %q is no time", at)
	}
	if r.Currency, err = field(5, "currency"); err != nil {
		return r, err
	}
	for i, l := range lines[6:] {
		fs, err := fields(l)
		if err != nil {
			return r, fmt.Errorf("receipt line %d: %w", i+7, err)
		}
		switch {
		case len(fs) == 4 && fs[0] == "pay" && !strings.HasPrefix(l, `"`):
			r.Pay = append(r.Pay, Pay{From: fs[1], To: fs[2], Amount: fs[3]})
		case len(fs) == 2 && len(r.Pay) == 0:
			r.Money = append(r.Money, Line{Player: fs[0], Money: fs[1]})
		default:
			return r, fmt.Errorf("receipt line %d: %q is neither a player's money nor a payment", i+7, l)
		}
	}
	return r, nil
}

// fields splits a line at its spaces, a quoted name being one field.
func fields(l string) ([]string, error) {
	var out []string
	for l != "" {
		if l[0] == '"' {
			q, err := strconv.QuotedPrefix(l)
			if err != nil {
				return nil, fmt.Errorf("a quoted name that does not end: %q", l)
			}
			s, _ := strconv.Unquote(q)
			out = append(out, s)
			l = l[len(q):]
		} else {
			f, rest, _ := strings.Cut(l, " ")
			out = append(out, f)
			l = " " + rest
			if rest == "" {
				l = ""
			}
		}
		if l != "" {
			rest, ok := strings.CutPrefix(l, " ")
			if !ok || rest == "" {
				return nil, fmt.Errorf("fields not parted by one space: %q", l)
			}
			l = rest
		}
	}
	return out, nil
}
