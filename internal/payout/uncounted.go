package payout

import "tappbook/internal/problem"

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
	var res *Result
	for n := 0; n <= s.describe().Tricks(s); n++ {
		counted := r
		counted.Tricks = &n
		got, why := scoreOnce(s, t, counted, false, fresh)
		if why != nil {
			err = why // not a count these points allow
			continue
		}
		if res != nil && !sameMoney(*res, got) {
			return Result{}, inputErr("tricks", "tricks.money")
		}
		got.Explanation.Tricks = nil
		res = &got
	}
	if res == nil {
		return Result{}, err // what no count makes right (points out of range)
	}
	return *res, nil
}

// scoreWon scores a contract that tricks alone decide, from its outcome.
func scoreWon(s Setup, t Table, r Record, fresh bool) (Result, error) {
	f, ok := s.describe().Fields(r.Contract, r.Tout != nil && *r.Tout)
	if !ok {
		return scoreOnce(s, t, Record{Contract: r.Contract}, false, fresh) // the contract's own refusal
	}
	if f.WonBy == "" {
		return Result{}, inputErr("won", "field.not-taken", problem.Field("won"), problem.Contract(r.Contract))
	}
	all := s.describe().Tricks(s)
	winning := 0 // the count that wins
	losing := 1  // one count that loses: the money does not depend on which
	if f.WonBy == WonByAllTricks {
		winning, losing = all, 0
	}
	n := losing
	if *r.Won {
		n = winning
	}
	if r.Tricks != nil {
		if (*r.Tricks == winning) != *r.Won {
			return Result{}, inputErr("won", "won.tricks", *r.Tricks)
		}
		n = *r.Tricks
	}
	counted := r
	counted.Won, counted.Tricks = nil, &n
	res, err := scoreOnce(s, t, counted, false, fresh)
	if err != nil {
		return Result{}, err
	}
	if r.Tricks == nil {
		res.Explanation.Tricks = nil
	}
	return res, nil
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
