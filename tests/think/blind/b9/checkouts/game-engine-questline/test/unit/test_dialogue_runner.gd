extends GutTest

var runner

func before_each():
	runner = load("res://systems/dialogue_runner.gd").new()
	add_child_autofree(runner)

func test_starts_at_first_line():
	runner.start(load("res://test/fixtures/intro.dialogue.tres"))
	assert_eq(runner.current_line().id, &"intro_001")

func test_choice_branches():
	runner.start(load("res://test/fixtures/intro.dialogue.tres"))
	runner.choose(1)
	assert_eq(runner.current_line().id, &"intro_010")
