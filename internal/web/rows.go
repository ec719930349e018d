package web

import (
	"context"
	"strings"
	"sync"

	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// rows keeps the table page's deal rows as rendered. After a deal, 19 of
// the 20 rows a table page shows are the rows of the page before, and
// building each (its explanation, its amounts, its markup) was a sixth of
// the server's work for a deal recorded through the form (issue 39).
//
// A row is kept by everything its bytes depend on (rowKey): a deal's
// revisions only ever grow, so a corrected, voided or re-scored deal has a
// new key and is built anew at once. Two generations bound it, as
// explained does, but in bytes: a row's history grows with each
// correction, so a count of rows would not bound the memory. Once the
// newer holds budget bytes, the older is let go.
type rows struct {
	mu       sync.Mutex
	now, old map[rowKey]string
	budget   int // bytes a generation holds, at most
	held     int // bytes the newer holds
}

// rowsBytes is what a generation holds: 64 tables showing their last 20
// deals, in a language each, at ~450 bytes a row, with room to spare.
const rowsBytes = 1 << 20

// rowKey is what a row's bytes depend on. The players, the variant and
// the unit are the game's from its start, so the game's id stands for
// them; the pot and the end-of-evening mark are said from later deals too,
// so they are in it as said.
type rowKey struct {
	game      string
	number    int
	revisions int // the deal's revisions: a correction, a void, a re-scoring adds one
	lang      string
	base      string // the edit link's /g/{id}, or /r/{read id}
	editable  bool   // the edit link is shown
	pot       string
	ending    string
}

func newRows(budget int) *rows { return &rows{now: map[rowKey]string{}, budget: budget} }

// get gives a row kept; by a nil r, none.
func (r *rows) get(k rowKey) (string, bool) {
	if r == nil {
		return "", false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	html, ok := r.now[k]
	if !ok {
		if html, ok = r.old[k]; ok {
			r.keep(k, html)
		}
	}
	return html, ok
}

// put renders hv's row and keeps it, HTML and all; a nil r keeps nothing,
// and the page renders the row itself. A row that fails to render is not
// kept either: the page's own rendering of it says why.
func (r *rows) put(k rowKey, l i18n.Localizer, hv *templates.HandView, players int) {
	if r == nil {
		return
	}
	var b strings.Builder
	if err := templates.HandRow(l, k.base, *hv, players, k.editable).Render(context.Background(), &b); err != nil {
		return
	}
	hv.HTML = b.String()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.keep(k, hv.HTML)
}

// keep adds a row to the newer generation; a row bigger than a whole
// generation is not kept. Under r.mu.
func (r *rows) keep(k rowKey, html string) {
	size := k.size() + len(html)
	if size > r.budget {
		return
	}
	if r.held+size > r.budget {
		r.old, r.now, r.held = r.now, make(map[rowKey]string, len(r.now)), 0
	}
	if _, ok := r.now[k]; !ok {
		r.now[k] = html
		r.held += size
	}
}

// size is about what a key and its map entry take: its strings and a
// map slot's words.
func (k rowKey) size() int {
	return len(k.game) + len(k.lang) + len(k.base) + len(k.pot) + len(k.ending) + 128
}

// rowOf is the key of deal h's row on the page p shows of g.
func rowOf(loc i18n.Localizer, g *tapp.State, h *tapp.Hand, base string, editable bool, pot, ending string) rowKey {
	return rowKey{game: g.ID, number: h.Number, revisions: len(h.Revisions), lang: loc.Lang(), base: base,
		editable: editable, pot: pot, ending: ending}
}
