package web

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/events"
	"tappbook/internal/tapp"
)

// groupEvents answers GET /api/groups/{id}/events: a group's events.
func (a api) groupEvents(c echo.Context) error {
	evs, err := a.groups().Events(c.Request().Context(), groupID(c))
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, eventsOut(evs))
}

// readableEvent keeps from a read-only reader what the evening's own link
// is for: the group's key in the game's first event (the group's id
// writes), and how a player is paid (an IBAN, an address, a phone number:
// for the ones who pay, not for whoever the link was passed on to). Such an
// event shows only whose it is, and its hash then no longer matches what
// is shown.
func readableEvent(c echo.Context, e events.Event) events.Event {
	if !readOnly(c) {
		return e
	}
	var keep func(key string) bool
	switch e.Type {
	case tapp.TypeGameStarted:
		keep = func(key string) bool { return key != "group" }
	case tapp.TypePaySet:
		keep = func(key string) bool { return key == "player" }
	default:
		return e
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(e.Data, &data); err != nil {
		return e
	}
	removed := false
	for key := range data {
		if !keep(key) {
			delete(data, key)
			removed = true
		}
	}
	// Untouched, the data stays as stored, so that its hash still checks.
	if b, err := json.Marshal(data); err == nil && removed {
		e.Data = b
	}
	return e
}
