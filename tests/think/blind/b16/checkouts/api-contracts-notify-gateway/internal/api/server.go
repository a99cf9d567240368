package api

import (
	"net/http"

	"github.com/acme/notify-gateway/internal/store"
)

type Server struct {
	store *store.Store
}

var _ ServerInterface = (*Server)(nil)

func NewServer(s *store.Store) *Server { return &Server{store: s} }

func (s *Server) GetHealth(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}
