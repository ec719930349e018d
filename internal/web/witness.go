package web

import (
	"net/http"
	"regexp"
	"strconv"

	"github.com/labstack/echo/v4"
)

// witnessJSON answers a phone that kept the last (version, head hash) it
// saw of a game: does the server's history still hold it?
type witnessJSON struct {
	Holds   bool   `json:"holds"`
	Why     string `json:"why,omitempty"` // "cut" or "changed"
	Version int64  `json:"version"`       // where the server's history ends now
	Head    string `json:"head"`
}

var hashForm = regexp.MustCompile(`^[0-9a-f]{64}$`)

// witness: GET …/witness?version=V&hash=H, through the write link and the
// read-only link alike.
func (a api) witness(c echo.Context) error {
	v, err := strconv.ParseInt(c.QueryParam("version"), 10, 64)
	if err != nil || v < 1 {
		return malformed("version must be the whole number of an event this phone saw, 1 or more")
	}
	h := c.QueryParam("hash")
	if !hashForm.MatchString(h) {
		return malformed("hash must be the 64 lower-case hex characters of the event this phone saw")
	}
	w, err := a.svc.Witness(c.Request().Context(), gameID(c), v, h)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return writeJSON(c, http.StatusOK, witnessJSON{Holds: w.Holds, Why: w.Why, Version: w.Version, Head: w.Head})
}
