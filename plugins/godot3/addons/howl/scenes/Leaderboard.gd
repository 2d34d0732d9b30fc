extends Control
# The best scores of a leaderboard: position, player name and score. On a board that resets, a
# period switcher (this period, the previous one…) shows each period with its dates.

# Emitted with the result of get_scores each time the scene has loaded (or failed to load) a page.
signal loaded(result)
# Emitted with the result of get_scores each time a page loaded without an error.
signal done(result)

const OLDEST_OFFSET := -1000

# The board to show.
export var ldboard_name := "main"
# The period shown: 0 is the current one, -1 the previous one, and so on (down to -1000).
export(int, -1000, 0) var period_offset := 0

# True while a page is loading.
var loading := false
# The last result shown, as get_scores gave it.
var result := {}

# How many entries to show (0 for all), read and written as `max` (see _get_property_list).
var _max := 10
# Each load gets a number, so a slow answer never replaces a newer one.
var _load_id := 0

onready var title: Label = $Card/Margin/Box/Title
onready var periods: Control = $Card/Margin/Box/Periods
onready var previous: Button = $Card/Margin/Box/Periods/Previous
onready var next: Button = $Card/Margin/Box/Periods/Next
onready var refresh_button: Button = $Card/Margin/Box/Refresh
onready var period_name: Label = $Card/Margin/Box/Periods/Period/PeriodName
onready var period_dates: Label = $Card/Margin/Box/Periods/Period/PeriodDates
onready var entries: VBoxContainer = $Card/Margin/Box/Scroll/Entries
onready var loading_label: Label = $Card/Margin/Box/Loading
onready var empty_label: Label = $Card/Margin/Box/Empty
onready var error_label: Label = $Card/Margin/Box/Error


# Godot 3 does not allow a member variable named `max`, so the property is declared here, as an
# exported integer, to keep the same name as on Godot 4 (`board.max = 20`, and in the inspector).
func _get_property_list() -> Array:
	return [{"name": "max", "type": TYPE_INT, "usage": PROPERTY_USAGE_DEFAULT | PROPERTY_USAGE_SCRIPT_VARIABLE}]


func _set(property: String, value) -> bool:
	if property == "max":
		_max = int(value)
		return true
	return false


func _get(property: String):
	if property == "max":
		return _max
	return null


func _ready() -> void:
	previous.connect("pressed", self, "_on_previous")
	next.connect("pressed", self, "_on_next")
	refresh_button.connect("pressed", self, "refresh")
	periods.visible = false
	refresh()


# Shows another period (0 current, -1 previous…) and loads it.
func show_period(offset: int) -> void:
	period_offset = int(clamp(offset, OLDEST_OFFSET, 0))
	refresh()


# Loads the board again, for example after a score was saved.
func refresh() -> void:
	_load_id += 1
	var load_id := _load_id
	title.text = ldboard_name.capitalize()
	loading = true
	loading_label.visible = true
	empty_label.visible = false
	error_label.visible = false
	_enable_buttons(false)
	var howl := get_node_or_null("/root/Howl")
	var answer
	if howl == null:
		# Still wait a frame, so that `loaded` always comes after refresh() returned.
		yield(get_tree(), "idle_frame")
		answer = {"error": {"code": "NotConfigured", "message": "The Howl plugin is not enabled (Project Settings → Plugins)."}}
	else:
		answer = yield(howl.Scores.get_scores(_max, ldboard_name, period_offset), "completed")
	if load_id != _load_id or not is_inside_tree():
		return
	if typeof(answer) != TYPE_DICTIONARY:
		answer = {"error": {"code": "InvalidResponse", "message": "The Howl plugin gave no answer."}}
	result = answer
	loading = false
	loading_label.visible = false
	_show(answer)
	if answer.get("error") == null:
		emit_signal("done", answer)
	emit_signal("loaded", answer)


func _on_previous() -> void:
	show_period(period_offset - 1)


func _on_next() -> void:
	show_period(period_offset + 1)


func _show(answer: Dictionary) -> void:
	for child in entries.get_children():
		entries.remove_child(child)
		child.queue_free()
	var error = answer.get("error")
	if error != null:
		if typeof(error) == TYPE_DICTIONARY:
			error_label.text = str(error.get("message", error.get("code", "")))
		else:
			error_label.text = str(error)
		error_label.visible = true
		_enable_buttons(true)
		return
	var period = answer.get("period")
	var has_period := typeof(period) == TYPE_DICTIONARY
	periods.visible = has_period
	if has_period:
		period_name.text = period_title(period_offset)
		period_dates.text = period_span(period)
	var scores = answer.get("scores")
	if typeof(scores) != TYPE_ARRAY or scores.empty():
		empty_label.text = "No scores in this period yet." if has_period else "No scores yet."
		empty_label.visible = true
	else:
		for entry in scores:
			if typeof(entry) == TYPE_DICTIONARY:
				entries.add_child(_row(entry))
	_enable_buttons(true)


func _enable_buttons(enabled: bool) -> void:
	refresh_button.disabled = not enabled
	previous.disabled = not enabled or period_offset <= OLDEST_OFFSET
	next.disabled = not enabled or period_offset >= 0


func _row(entry: Dictionary) -> HBoxContainer:
	var row := HBoxContainer.new()
	row.name = "Row%d" % (entries.get_child_count() + 1)
	row.add_child(_cell("Position", format_score(entry.get("position", "")), 120, Label.ALIGN_LEFT))
	var player := _cell("PlayerName", str(entry.get("player_name", "")), 0, Label.ALIGN_LEFT)
	player.size_flags_horizontal = SIZE_EXPAND_FILL
	player.clip_text = true
	row.add_child(player)
	row.add_child(_cell("Score", format_score(entry.get("score")), 260, Label.ALIGN_RIGHT))
	return row


func _cell(cell_name: String, text: String, width: float, align: int) -> Label:
	var label := Label.new()
	label.name = cell_name
	label.text = text
	label.rect_min_size.x = width
	label.align = align
	return label


# A score as players read it: whole numbers without ".0" (JSON numbers arrive as floats).
static func format_score(score) -> String:
	if (typeof(score) == TYPE_REAL or typeof(score) == TYPE_INT) and is_equal_approx(score, round(score)) and abs(score) <= 1e15:
		return str(int(score))
	return str(score)


# "This period", "Previous period", "3 periods ago".
static func period_title(offset: int) -> String:
	if offset == 0:
		return "This period"
	if offset == -1:
		return "Previous period"
	return "%d periods ago" % -offset


# A period's dates in the player's time zone: "2025-05-12 – 2025-05-18" (the last day included),
# or with the hours for periods shorter than a day: "2025-05-12 14:00 – 15:00".
static func period_span(period: Dictionary) -> String:
	var start := _local_unix(str(period.get("start", "")))
	var end := _local_unix(str(period.get("end", "")))
	if start < 0 or end <= start:
		return ""
	if end - start < 86400:
		return "%s %s – %s" % [_date(start), _time(start), _time(end)]
	return "%s – %s" % [_date(start), _date(end - 1)]


static func _date(unix: int) -> String:
	var d := OS.get_datetime_from_unix_time(unix)
	return "%04d-%02d-%02d" % [d.year, d.month, d.day]


static func _time(unix: int) -> String:
	var d := OS.get_datetime_from_unix_time(unix)
	return "%02d:%02d" % [d.hour, d.minute]


# An ISO instant ("2025-05-12T00:00:00.000Z") as seconds in the device's time zone, or -1.
static func _local_unix(iso: String) -> int:
	if iso.length() < 19:
		return -1
	var date := iso.substr(0, 10).split("-")
	var time := iso.substr(11, 8).split(":")
	if date.size() != 3 or time.size() != 3:
		return -1
	var utc := OS.get_unix_time_from_datetime({
		"year": int(date[0]), "month": int(date[1]), "day": int(date[2]),
		"hour": int(time[0]), "minute": int(time[1]), "second": int(time[2]),
	})
	return utc + int(OS.get_time_zone_info().get("bias", 0)) * 60
