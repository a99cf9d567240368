package main

import (
	"log"
	"net/http"
	"os"

	"github.com/acme/geo-api/internal/lookup"
)

func main() {
	path := os.Getenv("GEOIP_DB_PATH")
	if path == "" {
		log.Fatal("Error: GEOIP_DB_PATH is not set")
	}
	svc, err := lookup.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	http.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(200) })
	http.Handle("/v1/lookup", svc)
	log.Fatal(http.ListenAndServe(":8080", nil))
}
