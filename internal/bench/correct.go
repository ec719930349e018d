package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"tappbook/internal/events"
	"tappbook/internal/events/sqlite"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
)

// LongEvening is how many deals the old-tapp evening has whose first deal
// the correction measure corrects.
const LongEvening = 6000

// LongEveningDeal is deal n of the long old-tapp evening: coeurfrages won
// and lost, passes, and every 100th deal a lost coeursolo, which doubles
// the pot. No solo is won, so the pot never empties: a change of deal 1
// changes the pot every later deal meets, the re-scoring after it walks
// the whole evening, and every lost solo pays a new pot (the worst case
// for a correction; in an evening where a solo takes the pot, the walk
// stops there). The pot passes what an int64 holds near the end.
func LongEveningDeal(n int) payout.Record {
	players := []string{"Anna", "Ben", "Cleo"}
	who := players[n%3]
	switch {
	case n == 1:
		return payout.Record{Contract: "coeurfrage", Declarer: "Anna", Points: pts(50)}
	case n%100 == 50:
		return payout.Record{Contract: "coeursolo", Declarer: who, Points: pts(40)}
	case n%3 == 0:
		return payout.Record{Contract: "pass"}
	}
	return payout.Record{Contract: "coeurfrage", Declarer: who, Points: pts(40 + (n*7)%50)}
}

// The two records deal 1 is corrected to, in turn: each changes the pot
// after it.
var longEveningCorrections = []string{
	`{"contract":"coeurfrage","declarer":"Anna","points":40,"reason":"miscounted"}`,
	`{"contract":"coeurfrage","declarer":"Anna","points":50,"reason":"miscounted"}`,
}

func pts(n int) *int { return &n }

// fillLongEvening stores the long old-tapp evening of deals deals, decided
// and folded as the service would, in one transaction, and gives its id
// and how many later deals a correction of deal 1 re-scores.
func fillLongEvening(ctx context.Context, path string, deals int) (string, int, error) {
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return "", 0, err
	}
	defer st.Close()
	const id, readID = "longeveninglongeveninglong", "longeveningreadlongevening"
	s := tapp.New(id)
	var evs []events.NewEvent
	decide := func(c tapp.Command) error {
		ps, err := tapp.Decide(s, c)
		if err != nil {
			return err
		}
		for _, p := range ps {
			evs = append(evs, events.NewEvent{Type: p.EventType(), SchemaVersion: tapp.SchemaVersion, Data: p})
			if s, err = tapp.Evolve(s, tapp.Event{Version: s.Version + 1, At: time.Now(), Data: p}); err != nil {
				return err
			}
		}
		return nil
	}
	if err := decide(tapp.Start{ID: id, ReadID: readID, Variant: string(payout.OldTapp), Players: []string{"Anna", "Ben", "Cleo"}}); err != nil {
		return "", 0, err
	}
	for n := 1; n <= deals; n++ {
		if err := decide(tapp.RecordHand{Record: LongEveningDeal(n)}); err != nil {
			return "", 0, fmt.Errorf("deal %d: %w", n, err)
		}
	}
	if _, err := st.AppendAliased(ctx, id, 0, events.Key{}, []string{readID}, evs...); err != nil {
		return "", 0, err
	}
	var first payout.Record
	if err := json.Unmarshal([]byte(longEveningCorrections[0]), &first); err != nil {
		return "", 0, err
	}
	ps, err := tapp.Decide(s, tapp.CorrectHand{Hand: 1, Record: first, Reason: "miscounted"})
	if err != nil {
		return "", 0, err
	}
	return id, len(ps) - 1, nil
}

// correcting measures, on a server of its own, how long correcting deal 1
// of the long evening takes as a phone sees it: the request, the decision
// and re-scoring, the append of the correction and every re-scored deal
// (durable), the fold, the answer. The first request folds the game and
// is not counted.
func correcting(ctx context.Context, bin, path string, deals, rounds int, r *Report) error {
	id, rescored, err := fillLongEvening(ctx, path, deals)
	if err != nil {
		return fmt.Errorf("fill: %w", err)
	}
	srv, err := startTappbook(ctx, bin, path)
	if err != nil {
		return err
	}
	defer srv.stop()
	client := clientFrom(clientAddr(950, 0))
	res, err := client.Get(srv.base + "/api/games/" + id + "/ledger")
	if err != nil {
		return err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	var lat []time.Duration
	for i := range rounds {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, srv.base+"/api/games/"+id+"/hands/1",
			strings.NewReader(longEveningCorrections[i%len(longEveningCorrections)]))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(t0))
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("correct deal 1: status %d", res.StatusCode)
		}
	}
	r.CorrectDeals, r.CorrectRescored = deals, rescored
	r.CorrectP50, _ = percentiles(lat) // sorts lat
	r.CorrectMax = lat[len(lat)-1]
	return nil
}
