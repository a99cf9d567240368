package cache

import (
	"crypto/md5"
	"encoding/hex"
	"net/http"
	"strings"
)

// Key derives the cache key for a request from method, host, path and the
// Vary'd headers.
func Key(r *http.Request, vary []string) string {
	var b strings.Builder
	b.WriteString(r.Method)
	b.WriteByte('|')
	b.WriteString(r.Host)
	b.WriteString(r.URL.Path)
	for _, h := range vary {
		b.WriteByte('|')
		b.WriteString(strings.ToLower(r.Header.Get(h)))
	}
	sum := md5.Sum([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}
