package web

import (
	"encoding/json"
	"net/http"
	"slices"

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

// readableEvents keeps a game's events from giving the key of its group
// to a read-only reader: the group's id writes, so it is taken out of the
// game's first event (whose hash then no longer matches what is shown).
func readableEvents(c echo.Context, evs []events.Event) []events.Event {
	if !readOnly(c) || len(evs) == 0 || evs[0].Type != tapp.TypeGameStarted {
		return evs
	}
	var data map[string]json.RawMessage
	if err := json.Unmarshal(evs[0].Data, &data); err != nil || data["group"] == nil {
		return evs
	}
	delete(data, "group")
	b, err := json.Marshal(data)
	if err != nil {
		return evs
	}
	evs = slices.Clone(evs)
	evs[0].Data = b
	return evs
}
