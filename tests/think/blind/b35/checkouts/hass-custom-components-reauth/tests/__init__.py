"""Tests for Acme Thermo."""
