package web

import (
	"net/http"
	"strings"
	"testing"
)

// The History links every deal to the table as it stood after it: the
// standings, the pot and who would have paid whom then, the corrections
// made since left out. Old-tapp (stake 2, 0.50 a unit), oldTappFourDeals:
// after deal 4 as recorded, Anna −38, Ben −7, Cleo +45 units and the pot
// empty (Cleo's coeursolo took it); deal 2 corrected to a won coeurfrage
// since makes it Anna −25, Ben −12, Cleo +37.
func TestTheTableAsItStoodAfterADeal(t *testing.T) {
	h := newServer(t)
	id := oldTappEveningCorrected(t, h)
	audit := page(t, h, "/g/"+id+"/audit", "en").body
	link := `href="/g/` + id + `/stood?at_event=5"` // deal 4 was recorded in event 5
	if !strings.Contains(audit, link) || !strings.Contains(words(audit), "As it stood after deal 4") {
		t.Fatalf("the History has no link to the table after deal 4 (%s):\n%s", link, words(audit))
	}
	then := words(page(t, h, "/g/"+id+"/stood?at_event=5", "en").body)
	for _, want := range []string{"As it stood after deal 4", "After event 5 of 8: the corrections made since are left out.",
		"Anna −38 −€19.00", "Ben −7 −€3.50", "Cleo 45 €22.50", "Pot 0",
		"Anna pays Cleo €19.00", "Ben pays Cleo €3.50", "After the deal before"} {
		if !strings.Contains(then, want) {
			t.Errorf("as it stood after deal 4, the page lacks %q:\n%s", want, then)
		}
	}
	if same := words(page(t, h, "/g/"+id+"/stood?after_hand=4", "en").body); same != then {
		t.Errorf("after_hand=4 and the event that recorded deal 4 differ:\n%s\n%s", same, then)
	}
	if now := words(page(t, h, "/g/"+id+"/close", "en").body); !strings.Contains(now, "Anna pays Cleo €12.50") {
		t.Errorf("the evening as it stands now: %s", now)
	}
	// After deal 2 the pot held 5: shared 1 each, 2 units wait for the cut,
	// so nobody is said to pay yet; and the next deal is a link away.
	two := words(page(t, h, "/g/"+id+"/stood?after_hand=2", "de").body)
	for _, want := range []string{"So stand es nach Spiel 2", "Pott 5", "Das Abheben ist noch offen", "Nach dem nächsten Spiel"} {
		if !strings.Contains(two, want) {
			t.Errorf("after deal 2, in German, the page lacks %q:\n%s", want, two)
		}
	}
	if sv := words(page(t, h, "/g/"+id+"/stood?after_hand=1", "sv").body); !strings.Contains(sv, "Så stod det efter giv 1") || !strings.Contains(sv, "Cleo betalar Ben") {
		t.Errorf("after deal 1, in Swedish: %s", sv)
	}
	// The read-only link shows it too.
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	if r := page(t, h, "/r/"+ro+"/stood?after_hand=4", "en"); r.status != http.StatusOK || !strings.Contains(words(r.body), "Anna pays Cleo €19.00") {
		t.Errorf("the read-only link: %d %s", r.status, words(r.body))
	}
	if r := page(t, h, "/g/"+id+"/stood?after_hand=9", "en"); r.status != http.StatusNotFound {
		t.Errorf("after a deal never recorded: %d", r.status)
	}
	if r := page(t, h, "/g/"+id+"/stood", "en"); r.status != http.StatusSeeOther {
		t.Errorf("asked for no deal: %d", r.status)
	}
}

// A correction's entry in the History says what it changed downstream,
// before → after: the later deal it re-scored, and who pays whom; a void
// that changed nothing later says who pays whom is unchanged.
func TestTheHistorySaysWhatACorrectionChangedDownstream(t *testing.T) {
	h := newServer(t)
	id := oldTappEveningCorrected(t, h)
	audit := words(page(t, h, "/g/"+id+"/audit", "en").body)
	for _, want := range []string{
		"Deal 4, changed with it: Cleo +49 → +46, Pot −7 → −4",
		"Who pays whom, before: Anna pays Cleo €19.00; Ben pays Cleo €3.50 After: Anna pays Cleo €12.50; Ben pays Cleo €6.00",
		"Who pays whom: unchanged (Anna pays Cleo €12.50; Ben pays Cleo €6.00)",
	} {
		if !strings.Contains(audit, want) {
			t.Errorf("the History lacks %q:\n%s", want, audit)
		}
	}
	if de := words(page(t, h, "/g/"+id+"/audit", "de").body); !strings.Contains(de, "Spiel 4, dadurch geändert: Cleo +49 → +46") || !strings.Contains(de, "Wer zahlt wem, vorher:") {
		t.Errorf("the German History: %s", de)
	}
	if sv := words(page(t, h, "/g/"+id+"/audit", "sv").body); !strings.Contains(sv, "Giv 4, ändrad därmed: Cleo +49 → +46") || !strings.Contains(sv, "Vem betalar vem, före:") {
		t.Errorf("the Swedish History: %s", sv)
	}
}
