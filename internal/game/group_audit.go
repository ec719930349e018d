package game

import (
	"encoding/json"
	"fmt"
	"sort"

	"tappbook/internal/events"
	"tappbook/internal/group"
	"tappbook/internal/tapp"
)

// groupAudit is Audit's part for groups: it folds every group stream it is
// handed, event by event, and checks the two sides of every evening — the
// group that lists a game, the game that names its group — against each
// other once the pass is over.
type groupAudit struct {
	folders map[string]*group.Folder // groups being folded
	groups  map[string]*group.State  // groups folded to their last event
	games   map[string]gameClaim     // every game, with the group its first event names
}

// gameClaim is what a game's first event says about its group.
type gameClaim struct {
	group, readID string
}

func newGroupAudit() *groupAudit {
	return &groupAudit{folders: map[string]*group.Folder{}, groups: map[string]*group.State{}, games: map[string]gameClaim{}}
}

// take looks at an event of the pass: a group's is folded here (taken is
// true, problem says what is wrong with it, if anything); a game's first
// event is noted for the evening checks and left to the game's fold.
func (a *groupAudit) take(e events.Event, last bool) (taken bool, problem string) {
	f := a.folders[e.Stream]
	if f == nil && e.Version == 1 && e.Type == group.TypeStarted {
		f = group.NewFolder(e.Stream)
		a.folders[e.Stream] = f
	}
	if f == nil {
		if e.Version == 1 && e.Type == tapp.TypeGameStarted {
			var c struct {
				Group  string `json:"group"`
				ReadID string `json:"read_id"`
			}
			if err := json.Unmarshal(e.Data, &c); err != nil {
				return false, "" // the game's fold says what is wrong with it
			}
			a.games[e.Stream] = gameClaim{group: c.Group, readID: c.ReadID}
		}
		return false, ""
	}
	p, err := group.Decode(e.Type, e.Data)
	if err == nil {
		err = f.Apply(group.Event{Version: e.Version, At: e.RecordedAt, Data: p})
	}
	if err != nil {
		return true, err.Error()
	}
	if last {
		a.groups[e.Stream] = f.State()
		delete(a.folders, e.Stream)
	}
	return true, ""
}

// finish gives the first of problems, or "".
func (a *groupAudit) finish() string {
	if ps := a.problems(); len(ps) > 0 {
		return ps[0]
	}
	return ""
}

// problems checks every evening from both sides: a game that names a group is
// listed by that group with the game's own read-only key, and a game a
// group lists names that group. An evening a group lists whose game has no
// events is a start cut short (see startEvening), not a fault. It gives
// everything wrong, in a stable order.
func (a *groupAudit) problems() []string {
	var out []string
	ids := make([]string, 0, len(a.games))
	for id := range a.games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := a.games[id]
		if c.group == "" {
			continue
		}
		g := a.groups[c.group]
		if g == nil {
			out = append(out, fmt.Sprintf("game %s is an evening of group %s, which is not in this database", id, c.group))
			continue
		}
		ev, ok := g.Evening(id)
		if !ok {
			out = append(out, fmt.Sprintf("game %s is an evening of group %s, which does not list it", id, c.group))
			continue
		}
		if ev.ReadID != c.readID {
			out = append(out, fmt.Sprintf("group %s lists game %s with read-only key %s, but the game's is %s", c.group, id, ev.ReadID, c.readID))
		}
	}
	gids := make([]string, 0, len(a.groups))
	for id := range a.groups {
		gids = append(gids, id)
	}
	sort.Strings(gids)
	for _, gid := range gids {
		for _, ev := range a.groups[gid].Evenings() {
			if c, ok := a.games[ev.Game]; ok && c.group != gid {
				out = append(out, fmt.Sprintf("group %s lists game %s as its evening, but the game names group %q", gid, ev.Game, c.group))
			}
		}
	}
	return out
}
