package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// Deals recorded while the server is out of reach. Over plain HTTP a phone
// has no service worker: a link it follows with the Wi-Fi gone is the
// browser's error page. So a new deal's page (and the table's Record
// button) names the deal (nextDeal), and the phone fetches once the forms
// of every contract for every seat that may deal (recordForms): with them
// static/app.js shows the next deal's form and another contract's without
// the server, numbering the deals after this one itself, and the deals
// wait in its queue, each sent once, in order, when the server answers.
// The server checks each as it arrives, as any other deal.

// aheadDeal is the deal a page's form is for, as the phone needs it to
// record that deal and the ones after it without the server.
type aheadDeal struct {
	Hand int    `json:"hand"`
	Seat int    `json:"seat"` // the dealer's seat: the forms differ by it only
	Key  string `json:"key,omitempty"`
	// Draft names the draft of the deal's form (draftKey); Title and
	// Submit are the page's heading and button. Each with the deal's
	// number; TitleOf and SubmitOf the same with {n} for any deal's.
	Draft    string `json:"draft"`
	Title    string `json:"title"`
	Submit   string `json:"submit"`
	TitleOf  string `json:"title_of"`
	SubmitOf string `json:"submit_of"`
}

// foreseeable says whether the deals after the next one can be recorded
// ahead: not once a Württemberg evening's end is announced, where what the
// next deals may be depends on the ones before.
func foreseeable(g *tapp.State) bool {
	return g.HerzAs == nil && g.Closed == nil
}

// sentinel stands for a number in a sentence, to be made a {n} (withN)
// that the phone's script fills in: below a thousand, so that no language
// groups its digits.
const sentinel = 987

// withN makes the sentinel in a sentence the script's {n}.
func withN(s string) string { return strings.Replace(s, strconv.Itoa(sentinel), "{n}", 1) }

// nextDeal is the next deal with key, as JSON. Without a key (a page kept
// in the cache, shown to every phone alike) the phone makes its own.
func nextDeal(loc i18n.Localizer, game string, g *tapp.State, key string) string {
	hand := g.NextHand()
	of := func(msg string) string { return withN(loc.T(msg, sentinel)) }
	b, err := json.Marshal(aheadDeal{Hand: hand, Seat: g.DealerOf(hand), Key: key, Draft: draftKey(game, g, hand, false),
		Title: loc.T("record.title", hand), Submit: loc.T("record.submit", hand),
		TitleOf: of("record.title"), SubmitOf: of("record.submit")})
	if err != nil {
		panic(fmt.Sprintf("next deal: %v", err)) // a plain struct of strings and numbers
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
	p.Path = p.Root + "/g/" + gameID(c) + "/record" // the forms post there, and their tokens sign it
	var out offlineForms
	err := u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		var err error
		out, err = u.formsOf(c.Request().Context(), p, loc, g)
		return err
	})
	if err != nil {
		return u.problem(c, err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// formsOf renders the record page's inside for every seat's next deal and
// every contract.
func (u ui) formsOf(ctx context.Context, p templates.Page, loc i18n.Localizer, g *tapp.State) (offlineForms, error) {
	if err := g.MayRecord(); err != nil {
		return offlineForms{}, err
	}
	if !foreseeable(g) {
		return offlineForms{}, echo.NewHTTPError(http.StatusNotFound, "the next deals cannot be foreseen")
	}
	next, n := g.NextHand(), len(g.Setup.Players)
	out := offlineForms{Seats: n, Forms: map[string]string{}}
	for hand := next; hand < next+n; hand++ {
		p.Title = loc.T("record.title", hand)
		seat := strconv.Itoa(g.DealerOf(hand)) + "|"
		for _, contract := range append([]string{""}, contractsFor(g, hand)...) {
			fields, _ := payout.ContractFields(g.Setup.Variant, contract, false)
			for _, tout := range []bool{false, true} {
				name := seat + contract
				if tout {
					if fields.Tout == "" {
						continue // tout asks nothing else here
					}
					name += "|tout"
				}
				f := dealForm{values: url.Values{}, errs: map[string]string{}}
				if tout {
					f.values.Set("tout", "true")
				}
				var b bytes.Buffer
				if err := templates.RecordMain(u.recordView(p, loc, g, hand, contract, f, false)).Render(ctx, &b); err != nil {
					return offlineForms{}, fmt.Errorf("render the form of deal %d, %q: %w", hand, name, err)
				}
				out.Forms[name] = b.String()
			}
		}
	}
	return out, nil
}
