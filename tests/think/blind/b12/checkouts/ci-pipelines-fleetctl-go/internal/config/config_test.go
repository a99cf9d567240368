package config

import "testing"

func TestLoadDefaults(t *testing.T) {
	cfg, err := Load([]byte("name: demo\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Region != "us-east-1" {
		t.Fatalf("default region = %q", cfg.Region)
	}
}
