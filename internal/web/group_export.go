package web

import (
	"bytes"
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/game"
)

// exportGroup downloads the group with its evenings, as `tappbook import`
// reads it.
func (u ui) exportGroup(c echo.Context) error {
	if _, err := u.svc.Groups().Snapshot(c.Request().Context(), groupID(c)); err != nil {
		return u.problem(c, err)
	}
	var b bytes.Buffer
	if _, err := game.Export(c.Request().Context(), u.svc.Store(), groupID(c), u.key, &b); err != nil {
		return u.problem(c, err)
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="tappbook-group-`+groupID(c)+`.jsonl"`)
	return c.Blob(http.StatusOK, "application/jsonl; charset=utf-8", b.Bytes())
}
