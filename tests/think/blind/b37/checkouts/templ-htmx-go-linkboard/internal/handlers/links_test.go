package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dev/linkboard/internal/handlers"
	"github.com/dev/linkboard/internal/store"
)

func TestLinksIndex(t *testing.T) {
	s := store.NewMemory()
	s.Add(store.Link{ID: 1, URL: "https://go.dev", Title: "Go"})
	h := handlers.New(s)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/links", nil))

	if rec.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", rec.Code)
	}
	if !strings.Contains(rec.Body.String(), `id="link-1"`) {
		t.Errorf("row for link 1 missing: %s", rec.Body.String())
	}
}
