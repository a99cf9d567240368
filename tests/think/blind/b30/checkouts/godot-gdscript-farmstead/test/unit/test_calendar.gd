extends GutTest

var Calendar = preload("res://scripts/autoload/calendar.gd")
var _cal

func before_each():
	_cal = autofree(Calendar.new())

func test_advance_day_rolls_season():
	_cal.day = 28
	_cal.season = 0
	_cal.advance_day()
	assert_eq(_cal.day, 1)
	assert_eq(_cal.season, 1)
