package handlers

import "testing"

func newTestHandler(t *testing.T) *Handler {
	t.Helper()
	return &Handler{Store: newFakeStore()}
}
