package game

import (
	"reflect"
	"testing"
)

// Audit folds each group once, as it decides the group's commands again
// (foldLater), where it used to fold it in the pass too: the report and
// the groups it checks the evenings and links on are as with both folds.
func TestAuditFoldsEachGroupOnce(t *testing.T) {
	s, _ := newService(t)
	gids := []string{season(t, s), season(t, s)}
	stored := 0
	for _, gid := range gids {
		evs, err := s.Store().ReadStream(ctx, gid)
		if err != nil {
			t.Fatal(err)
		}
		stored += len(evs)
	}
	twice := newGroupAudit() // as Audit was: a fold in the pass, one to decide on
	want, err := audit(ctx, s.Store(), twice)
	if err != nil || want.Problem != "" || want.Groups != 2 || want.Games != 6 || twice.folded != 2*stored {
		t.Fatalf("audit folding twice: %+v %v, %d folds of %d events", want, err, twice.folded, stored)
	}
	once := newGroupAudit()
	once.foldLater = true
	if got, err := audit(ctx, s.Store(), once); err != nil || got != want {
		t.Fatalf("audit folding once: %+v %v, want %+v", got, err, want)
	}
	if once.folded != stored {
		t.Fatalf("the audit folded %d group events, the groups hold %d", once.folded, stored)
	}
	if !reflect.DeepEqual(once.groups, twice.groups) {
		t.Fatalf("the groups checked differ:\n%+v\nwant\n%+v", once.groups, twice.groups)
	}
	if got, err := Audit(ctx, s.Store()); err != nil || got != want {
		t.Fatalf("Audit: %+v %v, want %+v", got, err, want)
	}
}
