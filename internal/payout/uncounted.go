package payout

import (
	"cmp"

	"tappbook/internal/problem"
)

// Tricks asked only where they can change the money (api.md "Recording a
// deal"): a record that leaves them out is scored with every count its
// points allow, and taken when all of them pay the same; a contract that
// tricks alone decide may say "won" instead. What is given is still
// checked against the rest.

// scoreUncounted scores r, whose tricks are left out or whose outcome is
// given as won.
func scoreUncounted(s Setup, t Table, r Record, fresh bool) (Result, error) {
	if r.Won != nil {
		return scoreWon(s, t, r, fresh)
	}
	first, err := scoreOnce(s, t, r, false, fresh)
	pe, ok := problem.As(err)
	if err == nil || !ok || pe.Code != "tricks.missing" || r.Points == nil {
		return first, err
	}
	return scoreEachCount(s, t, r, fresh, func(int) bool { return true })
}

// scoreEachCount scores r with every trick count that counts allows and
// its other fields fit, and gives the money when they all pay the same.
func scoreEachCount(s Setup, t Table, r Record, fresh bool, counts func(int) bool) (Result, error) {
	var res *Result
	var err, edgeErr error // the first refusal of a count where both sides took a trick; of another
	all := s.describe().Tricks(s)
	for n := 0; n <= all; n++ {
		if !counts(n) {
			continue
		}
		counted := r
		counted.Tricks = &n
		got, why := scoreOnce(s, t, counted, false, fresh)
		if why != nil {
			// Not a count the other fields allow. When none is, a count
			// where both sides took a trick is refused for what the person
			// gave (the points, the matzl), not for a count they never said.
			if n > 0 && n < all && err == nil {
				err = why
			} else if n == 0 || n == all {
				edgeErr = why
			}
			continue
		}
		if res != nil && !sameMoney(*res, got) {
			return Result{}, inputErr("tricks", "tricks.money")
		}
		got.Explanation.Tricks = nil
		res = &got
	}
	if res == nil {
		return Result{}, cmp.Or(err, edgeErr) // what no count makes right
	}
	return *res, nil
}

// scoreWon scores a contract that tricks alone decide, from its outcome:
// with the count given, or with every count of that outcome.
func scoreWon(s Setup, t Table, r Record, fresh bool) (Result, error) {
	f, ok := s.describe().Fields(r.Contract, r.Tout != nil && *r.Tout)
	if !ok {
		return scoreOnce(s, t, Record{Contract: r.Contract}, false, fresh) // the contract's own refusal
	}
	if f.WonBy == "" {
		return Result{}, inputErr("won", "field.not-taken", problem.Field("won"), problem.Contract(r.Contract))
	}
	winning := 0 // the one count that wins
	if f.WonBy == WonByAllTricks {
		winning = s.describe().Tricks(s)
	}
	counted := r
	counted.Won = nil
	if r.Tricks != nil {
		if (*r.Tricks == winning) != *r.Won {
			return Result{}, inputErr("won", "won.tricks", *r.Tricks)
		}
		return scoreOnce(s, t, counted, false, fresh)
	}
	return scoreEachCount(s, t, counted, fresh, func(n int) bool { return (n == winning) == *r.Won })
}

// sameMoney reports whether two results pay the same.
func sameMoney(a, b Result) bool {
	if !a.PotDelta.Equal(b.PotDelta) || len(a.Deltas) != len(b.Deltas) {
		return false
	}
	for i := range a.Deltas {
		if !a.Deltas[i].Equal(b.Deltas[i]) {
			return false
		}
	}
	return true
}
