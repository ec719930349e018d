package payout

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"tappbook/internal/names"
	"tappbook/internal/problem"
)

// MaxNameLength is api.md's limit on a player's name, in characters.
const MaxNameLength = names.MaxName

// CheckPlayers refuses a seating a new game cannot start with: the wrong
// number of players, or a name that is empty, over-long, not one line of
// visible text (a control, bidi or invisible character: see
// internal/names), or the same as another once case and width are folded
// ("Anna", "anna"). NormalizePlayers gives the names as the game keeps them.
func CheckPlayers(v Variant, players []string) error {
	if err := checkCount(v, players); err != nil {
		return err
	}
	seen := map[string]string{}
	for i, p := range players {
		name, err := names.Player(p)
		if err != nil {
			return NameProblem(i+1, p, err)
		}
		key := names.Key(name)
		if other, ok := seen[key]; ok {
			if other == name {
				return inputErr("players", "players.twice", name)
			}
			return inputErr("players", "players.same", other, name)
		}
		seen[key] = name
	}
	return nil
}

// SeatProblems checks each name of a seating on its own, as CheckPlayers
// does, for a form that shows every problem at once next to its field: the
// error of seat i+1, or nil. A name the same as an earlier one (once case
// and width are folded) is refused at the later seat. An empty name is
// refused too: the caller leaves out the seats a variant may leave empty.
func SeatProblems(players []string) []error {
	out := make([]error, len(players))
	seen := map[string]string{}
	for i, p := range players {
		name, err := names.Player(p)
		if err != nil {
			out[i] = NameProblem(i+1, p, err)
			continue
		}
		key := names.Key(name)
		if other, ok := seen[key]; ok {
			if other == name {
				out[i] = inputErr("players", "players.twice", name)
			} else {
				out[i] = inputErr("players", "players.same", other, name)
			}
			continue
		}
		seen[key] = name
	}
	return out
}

// NormalizePlayers gives the names CheckPlayers accepted as they are kept:
// NFC, PRECIS Nickname (compatibility forms folded, runs of spaces made one).
func NormalizePlayers(players []string) []string {
	out := make([]string, len(players))
	for i, p := range players {
		if name, err := names.Player(p); err == nil {
			out[i] = name
		} else {
			out[i] = p
		}
	}
	return out
}

// playerErr words a names.Problem of player n's name.
func NameProblem(n int, name string, err error) error {
	var p *names.Problem
	if !errors.As(err, &p) {
		return err
	}
	switch p.Kind {
	case names.Empty:
		return inputErr("players", "players.empty", n)
	case names.Space:
		return inputErr("players", "players.space", name)
	case names.Invalid:
		return inputErr("players", "players.text", n)
	case names.Long:
		return inputErr("players", "players.long", name, p.Length, p.Max)
	case names.Control:
		return inputErr("players", "players.control", n, name, p.Rune)
	case names.Bidi:
		return inputErr("players", "players.bidi", n, name, p.Rune)
	case names.Invisible:
		return inputErr("players", "players.invisible", n, name, p.Rune)
	case names.Mixed:
		return inputErr("players", "players.mixed", n, name, p.Rune)
	}
	return inputErr("players", "players.disallowed", n, name, p.Rune)
}

// CheckText normalizes and checks a reason or note given in field (the
// api.md name): one line of visible text, no control, bidi or invisible
// character, at most names.MaxText characters. "" stays "": the caller
// says whether the field is required.
func CheckText(field, s string) (string, error) {
	out, err := names.Text(s, names.MaxText)
	var p *names.Problem
	if !errors.As(err, &p) {
		return out, err
	}
	switch p.Kind {
	case names.Empty:
		return "", inputErr(field, "text.empty", field)
	case names.Invalid:
		return "", inputErr(field, "text.invalid", field)
	case names.Long:
		return "", inputErr(field, "text.long", field, p.Length, p.Max)
	case names.Control:
		return "", inputErr(field, "text.control", field, p.Rune)
	case names.Bidi:
		return "", inputErr(field, "text.bidi", field, p.Rune)
	case names.Invisible:
		return "", inputErr(field, "text.invisible", field, p.Rune)
	}
	return "", inputErr(field, "text.disallowed", field, p.Rune)
}

func checkCount(v Variant, players []string) error {
	lo, hi := PlayerCount(v)
	if len(players) < lo || len(players) > hi {
		want := problem.Choice{Terms: []problem.Term{{ID: strconv.Itoa(lo)}}, Sep: " or "}
		if lo != hi {
			want.Terms = append(want.Terms, problem.Term{ID: strconv.Itoa(hi)})
		}
		return inputErr("players", "players.count", problem.Variant(string(v)), want, len(players))
	}
	return nil
}

// checkSeats is what every game's seating has held since the first
// release: it is checked at every deal, so it must not refuse a game
// started before CheckPlayers grew stricter.
func checkSeats(v Variant, players []string) error {
	if err := checkCount(v, players); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i, p := range players {
		switch {
		case strings.TrimSpace(p) == "":
			return inputErr("players", "players.empty", i+1)
		case p != strings.TrimSpace(p):
			return inputErr("players", "players.space", p)
		case !utf8.ValidString(p):
			return inputErr("players", "players.text", i+1)
		case utf8.RuneCountInString(p) > MaxNameLength:
			return inputErr("players", "players.long", p, utf8.RuneCountInString(p), MaxNameLength)
		case seen[p]:
			return inputErr("players", "players.twice", p)
		}
		seen[p] = true
	}
	return nil
}
