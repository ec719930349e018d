package tapp

import "tappbook/internal/payout"

// The end of a Württemberg evening (rules.md "End of the evening"): after
// "Herz-As", the player dealt ♥A in the next deal deals the last regular
// deal, the next time they deal; if ♥A lay in the tapp the question passes
// to the deal after. Then each player deals one Zwangsramsch, and the
// evening is over.

// Phases of the end, as they stand for the next deal.
const (
	PhaseNone      = ""          // nobody said Herz-As
	PhaseAnnounced = "announced" // said; the deal that shows who has ♥A is still to come or being played
	PhaseHolder    = "holder"    // that deal is played: the table asks who was dealt ♥A (see HolderDue)
	PhaseLastRound = "last-round"
	PhaseForced    = "forced" // the next deal is a Zwangsramsch
	PhaseDone      = "done"   // every Zwangsramsch is played: the evening is over
)

// End is where the end of the evening stands.
type End struct {
	Phase          string
	AnnouncedAfter int    // the deal after which Herz-As was said
	Question       int    // while the holder is unknown: the deal whose ♥A holder is asked
	InTapp         []int  // deals in which ♥A lay in the tapp
	Holder         string // who was dealt ♥A; "" until known
	HolderHand     int
	LastRegular    int   // 0 until known
	Zwangsramsch   []int // the forced Ramsch deals; nil until known
	Forced         int   // which Zwangsramsch the next deal is, 1…players; 0 when it is none
}

// HolderDue reports whether the next deal must wait for the ♥A holder of
// deal Question. The deal right after Question is a regular one whoever
// holds ♥A (their next deal is that one at the earliest, and then it is the
// last regular deal), so it may be recorded before anyone says; the deal
// after it may be a Zwangsramsch, so it waits.
func (e End) HolderDue(next int) bool { return e.Phase == PhaseHolder && next > e.Question+1 }

// Answered is what to tell someone who answers the ♥A question after
// another phone did: who was named, or that the ♥A lay in the tapp and
// the question passed on; nil when nothing was answered.
func (e End) Answered() error {
	switch {
	case e.Holder != "":
		return catalogue.Conflict("conflict.herz-as-holder-known", e.Holder, e.HolderHand)
	case len(e.InTapp) > 0:
		return catalogue.Conflict("conflict.herz-as-in-tapp", e.InTapp[len(e.InTapp)-1], e.Question)
	}
	return nil
}

// Over reports whether every deal of the evening is played.
func (e End) Over() bool { return e.Phase == PhaseDone }

// question is the deal whose ♥A holder is asked next.
func (h HerzAsState) question() int { return h.AfterHand + 1 + len(h.InTapp) }

// End tells where the end of the evening stands for the next deal.
func (s *State) End() End {
	h := s.HerzAs
	if h == nil {
		return End{}
	}
	next := s.NextHand()
	e := End{AnnouncedAfter: h.AfterHand, InTapp: h.InTapp}
	if h.Holder < 0 {
		e.Question = h.question()
		e.Phase = PhaseAnnounced
		if e.Question < next {
			e.Phase = PhaseHolder
		}
		return e
	}
	players := len(s.Setup.Players)
	e.Holder, e.HolderHand = s.Setup.Players[h.Holder], h.HolderHand
	last, forced, done := payout.WuerttembergEnd(players, h.Holder, h.HolderHand, next)
	e.LastRegular, e.Forced = last, forced
	for n := last + 1; n <= last+players; n++ {
		e.Zwangsramsch = append(e.Zwangsramsch, n)
	}
	switch {
	case done:
		e.Phase = PhaseDone
	case forced > 0:
		e.Phase = PhaseForced
	default:
		e.Phase = PhaseLastRound
	}
	return e
}

// ForcedDeal reports whether deal n is one of the Zwangsramsch deals (a
// correction of one may only be a Ramsch).
func (e End) ForcedDeal(n int) bool {
	return e.LastRegular > 0 && n > e.LastRegular && n <= e.LastRegular+len(e.Zwangsramsch)
}
