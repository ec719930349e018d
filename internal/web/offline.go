package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// Deals recorded while the server is out of reach. Over plain HTTP a phone
// has no service worker: a link it follows with the Wi-Fi gone is the
// browser's error page. So a new deal's page carries the next deals'
// numbers, keys and words (dealsAhead), and the phone fetches once the
// forms of every contract for every seat that may deal (recordForms): with
// them static/app.js shows the next deal's form and another contract's
// without the server, and the deals wait in its queue, each sent once, in
// order, when the server answers. The server checks each as it arrives, as
// any other deal.

// dealsAhead is how many deals a phone may record ahead of the server.
const dealsAhead = 12

// aheadDeal is one deal a phone may record before the server has seen the
// ones before it.
type aheadDeal struct {
	Hand   int    `json:"hand"`
	Seat   int    `json:"seat"` // the dealer's seat: the forms differ by it only
	Key    string `json:"key,omitempty"`
	Draft  string `json:"draft"`
	Title  string `json:"title"`
	Submit string `json:"submit"`
}

// foreseeable says whether the deals after the next one can be recorded
// ahead: not once a Württemberg evening's end is announced, where what the
// next deals may be depends on the ones before.
func foreseeable(g *tapp.State) bool {
	return g.HerzAs == nil && g.Closed == nil
}

// nextDeals is deal hand, with key, and the count-1 after it, as JSON.
// Without a key (a page kept in the cache, shown to every phone alike)
// none has one: the phone makes its own.
func nextDeals(loc i18n.Localizer, game string, g *tapp.State, hand, count int, key string) string {
	out := make([]aheadDeal, 0, count)
	for h := hand; h < hand+count; h++ {
		d := aheadDeal{Hand: h, Seat: g.DealerOf(h), Key: key, Draft: draftKey(game, g, h, false),
			Title: loc.T("record.title", h), Submit: loc.T("record.submit", h)}
		if h != hand && key != "" {
			d.Key = newKey()
		}
		out = append(out, d)
	}
	b, err := json.Marshal(out)
	if err != nil {
		panic(fmt.Sprintf("deals ahead: %v", err)) // plain structs of strings and numbers
	}
	return string(b)
}

// offlineForms is what a phone keeps to record deals without the server:
// the inside of the record page for each dealer's seat and contract
// ("seat|contract", and "seat|contract|tout" where tout asks otherwise;
// "seat|" is the page before a contract is chosen).
type offlineForms struct {
	Seats int               `json:"seats"`
	Forms map[string]string `json:"forms"`
}

// recordForms answers the forms of every contract for every seat, for the
// phone to keep (static/app.js).
func (u ui) recordForms(c echo.Context) error {
	p, loc := u.page(c, "record.title-new")
	p.Path = "/g/" + gameID(c) + "/record" // the forms post there, and their tokens sign it
	var out offlineForms
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		if err := g.MayRecord(); err != nil {
			return err
		}
		if !foreseeable(g) {
			return echo.NewHTTPError(http.StatusNotFound, "the next deals cannot be foreseen")
		}
		next, n := g.NextHand(), len(g.Setup.Players)
		out = offlineForms{Seats: n, Forms: map[string]string{}}
		for hand := next; hand < next+n; hand++ {
			p.Title = loc.T("record.title", hand)
			seat := strconv.Itoa(g.DealerOf(hand)) + "|"
			for _, contract := range append([]string{""}, contractsFor(g, hand)...) {
				for _, tout := range []bool{false, true} {
					name := seat + contract
					if tout {
						if fields, ok := payout.ContractFields(g.Setup.Variant, contract, false); !ok || fields.Tout == "" {
							continue
						}
						name += "|tout"
					}
					f := dealForm{values: url.Values{}, errs: map[string]string{}}
					if tout {
						f.values.Set("tout", "true")
					}
					var b bytes.Buffer
					if err := templates.RecordMain(u.recordView(p, loc, g, hand, contract, f, false)).Render(c.Request().Context(), &b); err != nil {
						return fmt.Errorf("render the form of deal %d, %q: %w", hand, name, err)
					}
					out.Forms[name] = b.String()
				}
			}
		}
		return nil
	})
	if err != nil {
		return u.problem(c, err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}
