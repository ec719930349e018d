package web

import (
	"testing"

	"tappbook/internal/game"
	"tappbook/internal/i18n"
	"tappbook/internal/payout"
)

// loadBundle gives every language's messages, as the server loads them.
func loadBundle(t *testing.T) *i18n.Bundle {
	t.Helper()
	refusals, err := game.Refusals()
	if err != nil {
		t.Fatal(err)
	}
	bundle, err := i18n.Load(refusals, payout.EnglishPhrases())
	if err != nil {
		t.Fatal(err)
	}
	return bundle
}
