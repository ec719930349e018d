package web

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"tappbook/internal/events"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/problem"
	"tappbook/internal/tapp"
)

// winningTricks is the count of tricks that wins a contract tricks alone
// decide.
func winningTricks(wonBy string, all int) int {
	if wonBy == payout.WonByNoTrick {
		return 0
	}
	return all
}

// outcomeOf is "won" or "lost" as tapped or, for a record being corrected,
// as its count of tricks says.
func outcomeOf(f dealForm, wonBy string, all int) string {
	switch o := f.get("outcome"); o {
	case "won", "lost":
		return o
	}
	if t, err := strconv.Atoi(f.get("tricks")); err == nil {
		if t == winningTricks(wonBy, all) {
			return "won"
		}
		return "lost"
	}
	return ""
}

// parseDeal turns the form into a record. A number that is not one is
// refused here, next to its field; everything else the payout engine checks.
func parseDeal(loc i18n.Localizer, g *tapp.State, f *dealForm) payout.Record {
	rec := payout.Record{Contract: f.get("contract")}
	fields, _ := payout.ContractFields(g.Setup.Variant, rec.Contract, f.get("tout") == "true")
	if fields.Declarer != "" && !fields.DeclarerIsForehand {
		rec.Declarer = f.get("declarer")
	}
	if fields.Partner != "" {
		rec.Partner = f.get("partner")
	}
	if fields.Trump != "" {
		rec.Trump = f.get("trump")
	}
	if fields.Tout != "" && f.get("tout") == "true" {
		t := true
		rec.Tout = &t
	}
	if fields.Points != "" {
		rec.Points = f.points(loc, g)
	}
	if fields.Tricks != "" {
		rec.Tricks = f.num(loc, "tricks", f.get("tricks"))
	}
	if fields.WonBy != "" {
		f.outcome(loc, g, fields.WonBy, &rec)
	}
	if fields.Kontra != "" {
		rec.Kontra = f.num(loc, "kontra", f.get("kontra"))
	}
	if fields.Matzl != "" && rec.Contract != "durch" {
		rec.Matzl = f.get("matzl")
	}
	if fields.Ramsch != "" {
		rec.Ramsch = f.ramsch(loc, g)
	}
	return rec
}

// num is a whole number typed into field, nil when left blank; anything
// else is refused next to the field.
func (f *dealForm) num(loc i18n.Localizer, field, raw string) *int {
	if raw == "" {
		return nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		f.errs[field] = loc.T("form.whole-number")
		return nil
	}
	return &n
}

// points are the declarer's side's points, typed for either side.
func (f *dealForm) points(loc i18n.Localizer, g *tapp.State) *int {
	points := f.num(loc, "points", f.get("points"))
	switch f.get("points_side") {
	case "", "declarer", "opponents":
	default: // not a side the form offers: whose points they are is unknown
		f.errs["points"] = loc.T("record.points-side")
	}
	if points != nil && f.get("points_side") == "opponents" {
		total := payout.TotalPoints(g.Setup.Variant)
		if *points >= 0 && *points <= total {
			typed, other := *points, total-*points
			points, f.opponents = &other, &typed
		}
	}
	return points
}

// outcome sets what "won" or "lost" says of a contract won by wonBy
// tricks: won is that many tricks; lost is lost, with or without a count.
func (f *dealForm) outcome(loc i18n.Localizer, g *tapp.State, wonBy string, rec *payout.Record) {
	win := winningTricks(wonBy, payout.TricksPerDeal(g.Setup))
	switch f.get("outcome") {
	case "won":
		rec.Tricks = &win
	case "lost":
		switch {
		case rec.Tricks == nil && f.errs["tricks"] == "":
			// Lost is lost, whatever the count (api.md "won").
			lost := false
			rec.Won = &lost
		case rec.Tricks != nil && *rec.Tricks == win:
			f.errs["tricks"] = loc.T("record.tricks-not-lost", win)
		}
	}
}

// ramsch is every player's Ramsch points and tricks, the last blank of
// each filled in from the others where it can be.
func (f *dealForm) ramsch(loc i18n.Localizer, g *tapp.State) map[string]payout.RamschScore {
	points, tricks := make([]*int, len(g.Setup.Players)), make([]*int, len(g.Setup.Players))
	for seat := range g.Setup.Players {
		key := strconv.Itoa(seat)
		if f.get("ramsch_none_"+key) == "true" {
			// No trick (a Jungfer): no trick holds no points.
			zero, none := 0, 0
			points[seat], tricks[seat] = &zero, &none
			continue
		}
		points[seat] = f.num(loc, "ramsch."+key+".points", f.get("ramsch_points_"+key))
		tricks[seat] = f.num(loc, "ramsch."+key+".tricks", f.get("ramsch_tricks_"+key))
	}
	fillLast(points, payout.TotalPoints(g.Setup.Variant), true)
	all := payout.TricksPerDeal(g.Setup)
	if seat, sum := fillLast(tricks, all, false); seat >= 0 {
		at, name := "ramsch."+strconv.Itoa(seat), g.Setup.Players[seat]
		switch {
		case sum > all:
			// No count fills the blank: the rules would say the
			// tricks are too many, when the form did not fill in
			// the one it could not.
			f.instead = map[string]string{"ramsch ramsch.tricks-sum": loc.T("record.ramsch-tricks-over", sum, all, name)}
		case sum == all && points[seat] != nil:
			// The blank is 0: the rules would say the player took no
			// trick, as if that had been entered, when it is what the
			// tricks entered leave.
			f.instead = map[string]string{at + ".points ramsch.points-no-trick": loc.T("record.ramsch-tricks-all", all, name, name, *points[seat])}
		}
	}
	scores := make(map[string]payout.RamschScore, len(g.Setup.Players))
	for seat, name := range g.Setup.Players {
		scores[name] = payout.RamschScore{Points: points[seat], Tricks: tricks[seat]}
	}
	return scores
}

// fillLast fills the one count left blank with what the others leave of
// total: the last player's points (or tricks) follow from the rest. With
// more than one blank nothing is filled and the rules ask for what is
// missing. With the others over the total, points get 0, so that the
// rules say the points are too many, not that one is missing; tricks stay
// blank (a 0 would read as "took no trick" and draw another refusal
// first). fillLast returns the one blank's index, filled or not, and the
// others' sum, for the form to say what is wrong (-1 when there was not
// one blank).
func fillLast(counts []*int, total int, zeroWhenOver bool) (blank, sum int) {
	blank = -1
	for i, c := range counts {
		switch {
		case c != nil:
			sum += *c
		case blank >= 0:
			return -1, 0
		default:
			blank = i
		}
	}
	if blank < 0 {
		return -1, 0
	}
	if sum <= total || zeroWhenOver {
		rest := max(total-sum, 0)
		counts[blank] = &rest
	}
	return blank, sum
}

// place puts a refusal next to its field of the form.
func place(loc i18n.Localizer, g *tapp.State, f *dealForm, err error) {
	msg, ok := storeMessage(loc, err)
	switch {
	case errors.Is(err, events.ErrOutcomeUnknown):
		msg = loc.T("record.outcome-unknown") // saved or not: this form again records it at most once
	case !ok:
		msg = loc.Error(err)
	}
	ie, ok := problem.As(err)
	if !ok || ie.Kind != problem.Input {
		f.err = msg
		return
	}
	field := ie.Field
	if strings.HasPrefix(field, "ramsch.") {
		// ramsch.<name>.points → ramsch.<seat>.points
		parts := strings.SplitN(strings.TrimPrefix(field, "ramsch."), ".", 2)
		for seat, name := range g.Setup.Players {
			if len(parts) == 2 && parts[0] == name {
				field = "ramsch." + strconv.Itoa(seat) + "." + parts[1]
			} else if len(parts) == 1 && parts[0] == name {
				field = "ramsch"
			}
		}
	}
	if say, ok := f.instead[field+" "+ie.Code]; ok {
		// About a count the form filled in, or could not: what is wrong
		// is what was entered, said for the whole Ramsch.
		f.errs["ramsch"] = say
		return
	}
	if field == "points" && f.opponents != nil {
		// The rules judge the declarer's side's points, which the form
		// worked out from the opponents' typed: say so, or the message
		// names a number nobody typed.
		msg += " " + loc.T("record.points-from-opponents", *f.opponents, payout.TotalPoints(g.Setup.Variant)-*f.opponents)
	}
	switch field {
	case "declarer", "partner", "trump", "points", "tricks", "kontra", "matzl", "ramsch", "reason":
		f.errs[field] = msg
	default:
		if strings.HasPrefix(field, "ramsch.") {
			f.errs[field] = msg
		} else {
			f.err = msg
		}
	}
}

// recordValues writes a record back into form values.
func recordValues(g *tapp.State, r payout.Record) url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("declarer", r.Declarer)
	set("partner", r.Partner)
	set("trump", r.Trump)
	set("points", optInt(r.Points))
	set("tricks", optInt(r.Tricks))
	set("kontra", optInt(r.Kontra))
	set("matzl", r.Matzl)
	if r.Tout != nil && *r.Tout {
		v.Set("tout", "true")
	}
	for seat, name := range g.Setup.Players {
		if s, ok := r.Ramsch[name]; ok {
			set("ramsch_points_"+strconv.Itoa(seat), optInt(s.Points))
			set("ramsch_tricks_"+strconv.Itoa(seat), optInt(s.Tricks))
		}
	}
	return v
}
