package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"tappbook/internal/shareimage"
	"tappbook/templates"
)

// reportCard is the report as its share image says it: the heading, the
// standings in money, who pays whom. The deals and the QR codes stay on
// the page: a chat shows the image small.
func reportCard(v templates.ReportView) shareimage.Card {
	c := shareimage.Card{Title: v.Heading, Subtitle: v.Facts, Note: v.NotSettled, Footer: "tappbook"}
	standings := shareimage.Section{Heading: v.L.T("table.standings")}
	for _, r := range v.Standings {
		standings.Rows = append(standings.Rows, shareimage.Row{Names: []string{r.Name}, Amount: r.Cells[len(r.Cells)-1], Negative: r.Negative})
	}
	pays := shareimage.Section{Heading: v.L.T("close.who-pays"), Empty: v.L.T("close.square")}
	if v.Undecided != "" {
		pays.Empty = v.Undecided
	}
	for _, t := range v.Transfers {
		pays.Rows = append(pays.Rows, shareimage.Row{Names: []string{t.From, t.To}, Amount: t.Amount})
	}
	c.Sections = []shareimage.Section{standings, pays}
	return c
}

// sendCard draws the card and answers with it, named for a download.
func sendCard(c echo.Context, card shareimage.Card, name string) error {
	b, err := shareimage.PNG(card)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-cache")
	c.Response().Header().Set(echo.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Blob(http.StatusOK, "image/png", b)
}
