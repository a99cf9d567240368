package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRecipeShow(t *testing.T) {
	h := New(newMemStore())
	rec := httptest.NewRecorder()
	h.Show(rec, httptest.NewRequest(http.MethodGet, "/recipes/12", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", rec.Code)
	}
}
