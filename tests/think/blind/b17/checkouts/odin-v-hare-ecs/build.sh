#!/bin/sh
set -e
case "$1" in
  check) odin check src -vet ;;
  test)  odin test tests -all-packages ;;
  *)     odin build src -out:build/ecs_demo -o:speed ;;
esac
