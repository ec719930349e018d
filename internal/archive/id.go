package archive

import (
	"encoding/base32"
	"strings"
)

// idEncoding writes ids as the server makes them (game.newID): 128 random
// bits in lower-case base32 without padding, 26 characters.
var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// ValidID reports whether id has the server's own form: exactly what
// encoding 16 bytes gives, so "x", "", upper case or a 26-character string
// with stray trailing bits are not ids tappbook made.
func ValidID(id string) bool {
	if len(id) != 26 {
		return false
	}
	b, err := idEncoding.DecodeString(strings.ToUpper(id))
	return err == nil && len(b) == 16 && strings.ToLower(idEncoding.EncodeToString(b)) == id
}
