extends GutTest

var HealthComponent = preload("res://scripts/components/health_component.gd")
var hc

func before_each():
	hc = HealthComponent.new()
	hc.max_hp = 100
	hc.hp = 100
	add_child_autofree(hc)

func test_damage_reduces_hp():
	hc.take_damage(30)
	assert_eq(hc.hp, 70)

func test_hp_never_negative():
	hc.take_damage(500)
	assert_eq(hc.hp, 0)

func test_died_signal_emitted_once():
	watch_signals(hc)
	hc.take_damage(100)
	hc.take_damage(10)
	assert_signal_emit_count(hc, "died", 1)
