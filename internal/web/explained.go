package web

import (
	"sync"

	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
)

// explained keeps the sentences deals' explanations were said in, by
// language and the explanation as stored. A table page says its last
// deals again on every refresh, and decoding each (JSON) and saying it
// (a dozen phrases through x/text, which makes a catalog context per
// phrase) was a fifth of what rendering the page allocated. What a
// sentence says depends on nothing else, so a deal of any game explained
// alike is said once.
//
// Two generations bound it: once the newer holds explainedKept sentences,
// the older is let go and the newer takes its place.
type explained struct {
	mu    sync.Mutex
	langs map[string]*sayings
}

type sayings struct {
	now, old map[string]string // by the stored explanation
}

// explainedKept is how many sentences a generation keeps, each language:
// 64 tables showing their last 20 deals.
const explainedKept = 1280

func newExplained() *explained { return &explained{langs: map[string]*sayings{}} }

// say gives r's explanation in loc's language, said once; by a nil x,
// said afresh.
func (x *explained) say(loc i18n.Localizer, r *tapp.Result) string {
	if x == nil {
		return r.Explanation().Render(loc)
	}
	raw := r.ExplanationJSON()
	x.mu.Lock()
	s := x.langs[loc.Lang()]
	if s == nil {
		s = &sayings{now: map[string]string{}}
		x.langs[loc.Lang()] = s
	}
	said, ok := s.now[string(raw)]
	if !ok {
		if said, ok = s.old[string(raw)]; ok {
			s.keep(string(raw), said)
		}
	}
	x.mu.Unlock()
	if ok {
		return said
	}
	said = r.Explanation().Render(loc)
	x.mu.Lock()
	s.keep(string(raw), said)
	x.mu.Unlock()
	return said
}

// keep adds a sentence to the newer generation. Under x.mu.
func (s *sayings) keep(raw, said string) {
	if len(s.now) >= explainedKept {
		s.old, s.now = s.now, make(map[string]string, explainedKept)
	}
	s.now[raw] = said
}
