class_name Inventory
extends Node

signal changed

@export var max_stack: int = 20
@export var slot_count: int = 24

var slots: Array[Dictionary] = []


func add_item(id: String, amount: int) -> int:
	for slot in slots:
		if slot.id == id and slot.amount < max_stack:
			var room := max_stack - slot.amount
			var moved := mini(room, amount)
			slot.amount += moved
			amount -= moved
			if amount == 0:
				changed.emit()
				return 0
	while amount > 0 and slots.size() < slot_count:
		var n := mini(amount, max_stack)
		slots.append({"id": id, "amount": n})
		amount -= n
	changed.emit()
	return amount


func remove_item(id: String, amount: int) -> void:
	for i in range(slots.size() - 1, -1, -1):
		if slots[i].id != id:
			continue
		var take := mini(slots[i].amount, amount)
		slots[i].amount -= take
		amount -= take
		if slots[i].amount == 0:
			slots.remove_at(i)
		if amount == 0:
			break
	changed.emit()


func count(id: String) -> int:
	var total := 0
	for slot in slots:
		if slot.id == id:
			total += slot.amount
	return total
