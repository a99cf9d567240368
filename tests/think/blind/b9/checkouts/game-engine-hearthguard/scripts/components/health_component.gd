extends Node
class_name HealthComponent

signal died
signal hp_changed(new_hp: int)

@export var max_hp: int = 100
var hp: int = 100

func take_damage(amount: int) -> void:
	if hp <= 0:
		return
	hp = max(hp - amount, 0)
	hp_changed.emit(hp)
	if hp == 0:
		died.emit()
