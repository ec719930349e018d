package web

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/events"
	"tappbook/internal/game"
	"tappbook/internal/tapp"
)

// writeEvents answers a game's events as a JSON array, the same bytes
// encoding/json writes for []eventJSON, each event written as it is read
// from the store: a 5,000-deal evening's download holds one event at a
// time, not the file (and, where the evening was corrected, its fold as far
// as the last correction, for what each changed downstream). A game that is not there is a 404 before anything
// is written; a read that fails part way ends the answer short (its status
// is sent), which the reader sees as JSON that does not parse.
func writeEvents(c echo.Context, svc *game.Service) error {
	ctx := c.Request().Context()
	g, err := svc.Snapshot(ctx, gameID(c))
	if err != nil {
		return err
	}
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	w.WriteHeader(http.StatusOK)
	sep := byte('[')
	err = svc.EachEventChanged(ctx, g, func(e events.Event, changed *tapp.Downstream) error {
		e = readableEvent(c, e)
		b, err := json.Marshal(eventJSON{Seq: e.Version, Type: e.Type, At: e.RecordedAt, Data: e.Data, Hash: e.Hash, Changed: changedOut(g, changed)})
		if err != nil {
			return err
		}
		if _, err := w.Write(append([]byte{sep}, b...)); err != nil {
			return err
		}
		sep = ','
		return nil
	})
	if err != nil {
		return fmt.Errorf("events of %s, part way: %w", g.ID, err)
	}
	if sep == '[' {
		_, err = w.Write([]byte("[]\n"))
	} else {
		_, err = w.Write([]byte("]\n"))
	}
	return err
}
